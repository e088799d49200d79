/*
 * cache_test.c - the build cache (cmd/cache*.c) against real servers and
 * folders: Debian's nginx with WebDAV on a loopback port, a server stopped
 * mid-way, one that refuses stores, one that never answers, credentials;
 * the folder cache with processes racing on one entry; the action entry's
 * encoding and its strict decoding; shards.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cache.h"
#include "cli.h"
#include "test_support.h"

/* ------------------------------------------------------------- helpers */

/* Output bytes that differ by seed and index; `size` of them. */
static uint8_t *pattern(unsigned seed, size_t index, size_t size)
{
	uint8_t *data = malloc(size + 1);
	uint32_t x = seed * 2654435761u + (uint32_t)index * 40503u + 1;

	assert_non_null(data);
	for (size_t i = 0; i < size; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		data[i] = (uint8_t)x;
	}
	return data;
}

/* What compiling source `seed` produces: `count` outputs of `size` bytes
 * (the last one of 3 MB when `has_big`), meta naming the seed. */
static cli_cache_result make_result(unsigned seed, size_t count, size_t size, bool has_big)
{
	cli_cache_result r = { 0 };

	r.outputs = calloc(count, sizeof *r.outputs);
	assert_non_null(r.outputs);
	r.output_count = count;
	for (size_t i = 0; i < count; i++) {
		size_t n = has_big && i == count - 1 ? (size_t)3 << 20 : size;

		r.outputs[i].path = test_format("src%u/clip %zu.xnb", seed, i);
		r.outputs[i].data = pattern(seed, i, n);
		r.outputs[i].size = n;
	}
	r.meta = (uint8_t *)test_format("{\"source\": %u}", seed);
	r.meta_size = strlen((char *)r.meta);
	return r;
}

static void assert_same_result(const cli_cache_result *got, const cli_cache_result *want)
{
	assert_int_equal(got->output_count, want->output_count);
	for (size_t i = 0; i < want->output_count; i++) {
		assert_string_equal(got->outputs[i].path, want->outputs[i].path);
		assert_int_equal(got->outputs[i].size, want->outputs[i].size);
		assert_memory_equal(got->outputs[i].data, want->outputs[i].data, want->outputs[i].size);
	}
	assert_int_equal(got->meta_size, want->meta_size);
	assert_memory_equal(got->meta, want->meta, want->meta_size);
}

static char *key_text(unsigned seed)
{
	return test_format("animc-key-%u", seed);
}

static cli_cache_key key_of(unsigned seed)
{
	char *text = key_text(seed);
	cli_cache_key key;

	cli_cache_key_of(text, strlen(text), &key);
	free(text);
	return key;
}

static cli_cache *open_cache(const char *url, const char *dir, bool is_read_only, double timeout_s,
			     animc_diag_sink *sink)
{
	cli_cache_options opt = { .url = url, .dir = dir, .is_read_only = is_read_only,
				  .timeout_s = timeout_s, .sink = sink };
	cli_cache *cache = NULL;
	cli_error err;

	if (!cli_cache_open(&opt, &cache, &err))
		fail_msg("cli_cache_open: %s", err.message);
	return cache;
}

static void store_seeds(cli_cache *cache, unsigned first, unsigned count, size_t outputs, bool has_big)
{
	for (unsigned seed = first; seed < first + count; seed++) {
		cli_cache_result r = make_result(seed, outputs, 3000 + seed, has_big);
		cli_cache_key key = key_of(seed);

		
cli_cache_store(cache, &key, &r);
		cli_cache_result_release(&r);
	}
}

/* Look seeds up in one batch; each hit must be exactly what was stored.
 * Returns the number of hits. */
static unsigned lookup_seeds(cli_cache *cache, unsigned first, unsigned count, size_t outputs, bool has_big)
{
	unsigned hits = 0;

	for (unsigned seed = first; seed < first + count; seed++) {
		cli_cache_key key = key_of(seed);

		
cli_cache_lookup(cache, seed, &key);
	}
	for (unsigned seed = first; seed < first + count; seed++) {
		cli_cache_result got;

		if (cli_cache_take(cache, seed, true, &got) == CLI_CACHE_HIT) {
			cli_cache_result want = make_result(seed, outputs, 3000 + seed, has_big);

			assert_same_result(&got, &want);
			cli_cache_result_release(&want);
			hits++;
		} else {
			assert_int_equal(got.output_count, 0);
		}
		cli_cache_result_release(&got);
	}
	return hits;
}

static void hex_of(const void *data, size_t size, char *hex)
{
	uint8_t hash[CLI_SHA256_BYTES];

	cli_sha256(data, size, hash);
	cli_hex(hash, sizeof hash, hex);
}

/* The file a seed's entry or one of its blobs lands in, under `root`. */
static char *entry_file(const char *root, unsigned seed)
{
	char *key = key_text(seed), hex[CLI_SHA256_HEX_BYTES];

	hex_of(key, strlen(key), hex);
	free(key);
	return test_format("%s/ac/%s", root, hex);
}

static char *blob_file(const char *root, unsigned seed, size_t index, size_t size)
{
	uint8_t *data = pattern(seed, index, size);
	char hex[CLI_SHA256_HEX_BYTES];

	hex_of(data, size, hex);
	free(data);
	return test_format("%s/cas/%s", root, hex);
}

static void flip_byte(const char *path, long offset)
{
	FILE *fp = fopen(path, "r+b");
	int c;

	assert_non_null(fp);
	fseek(fp, offset, SEEK_SET);
	c = fgetc(fp);
	fseek(fp, offset, SEEK_SET);
	fputc(c ^ 0x5A, fp);
	fclose(fp);
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static bool diags_mention(const test_diags *d, const char *text)
{
	for (size_t i = 0; i < d->count; i++)
		if (strstr(d->items[i].message, text))
			return true;
	return false;
}

/* ---------------------------------------------------- the action entry */

/* The bytes of a one-output entry, written out by hand from
 * remote_execution.proto: the encoder must produce exactly these. */
static void action_wire_format(void **state)
{
	static const char header[] = "animc-cache 1 outputs=1\n";
	cli_action_output out = { .path = (char *)"a.xnb" };
	cli_action action = { &out, 1, (uint8_t *)"", 0 };
	uint8_t want[256], *got;
	size_t n = 0, size;
	char hex[CLI_SHA256_HEX_BYTES];

	(void)state;
	cli_digest_of("abc", 3, &out.digest);
	cli_hex(out.digest.sha256, CLI_SHA256_BYTES, hex);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	want[n++] = 0x12;               /* output_files = 2, length-delimited */
	want[n++] = 2 + 5 + 2 + 68;     /* OutputFile */
	want[n++] = 0x0a;               /* path = 1 */
	want[n++] = 5;
	memcpy(want + n, "a.xnb", 5);
	n += 5;
	want[n++] = 0x12;               /* digest = 2 */
	want[n++] = 68;
	want[n++] = 0x0a;               /* hash = 1 */
	want[n++] = 64;
	memcpy(want + n, hex, 64);
	n += 64;
	want[n++] = 0x10;               /* size_bytes = 2, varint */
	want[n++] = 3;
	want[n++] = 0x2a;               /* stdout_raw = 5 */
	want[n++] = sizeof header - 1;
	memcpy(want + n, header, sizeof header - 1);
	n += sizeof header - 1;
	assert_true(cli_action_encode(&action, &got, &size));
	assert_int_equal(size, n);
	assert_memory_equal(got, want, n);
	free(got);
}

static cli_action sample_action(void)
{
	static cli_action_output outs[3] = { { .path = (char *)"Grund/Idle.xnb" },
					     { .path = (char *)"clips/run fast.xnb" },
					     { .path = (char *)"empty.xnb" } };
	cli_action a = { outs, 3, (uint8_t *)"meta\0with NUL", 13 };

	cli_digest_of("idle", 4, &outs[0].digest);
	outs[1].digest.size_bytes = 300000;   /* a three-byte varint */
	memset(outs[1].digest.sha256, 0xAB, CLI_SHA256_BYTES);
	cli_digest_of("", 0, &outs[2].digest);
	return a;
}

static void action_round_trip(void **state)
{
	cli_action a = sample_action(), b;
	uint8_t *data;
	size_t size;
	cli_error err;

	(void)state;
	assert_true(cli_action_encode(&a, &data, &size));
	assert_true(cli_action_decode(data, size, &b, &err));
	assert_int_equal(b.output_count, 3);
	for (size_t i = 0; i < 3; i++) {
		assert_string_equal(b.outputs[i].path, a.outputs[i].path);
		assert_true(cli_digest_equal(&b.outputs[i].digest, &a.outputs[i].digest));
	}
	assert_int_equal(b.meta_size, 13);
	assert_memory_equal(b.meta, "meta\0with NUL", 13);
	cli_action_release(&b);

	/* Every proper prefix fails: an entry cut short is never read as one
	 * with fewer outputs. */
	for (size_t cut = 0; cut < size; cut++) {
		if (cli_action_decode(data, cut, &b, &err))
			fail_msg("a prefix of %zu of %zu bytes decoded", cut, size);
	}
	/* Any one byte changed: decodes or not, never crashes (the sanitizer
	 * build watches); a change in the header count never passes. */
	for (size_t i = 0; i < size; i++)
		for (int bit = 0; bit < 8; bit++) {
			data[i] ^= (uint8_t)(1 << bit);
			if (cli_action_decode(data, size, &b, &err))
				cli_action_release(&b);
			data[i] ^= (uint8_t)(1 << bit);
		}
	free(data);
}

/* What servers add (bazel-remote: execution_metadata = 9 with the worker),
 * and fields of later versions, are skipped. */
static void action_skips_server_fields(void **state)
{
	cli_action a = sample_action(), b;
	uint8_t *data, extra[] = {
		0x4a, 0x0b, 0x0a, 0x09, '1', '2', '7', '.', '0', '.', '0', '.', '1', /* 9: {worker = 1} */
		0x20, 0x00,                                                         /* exit_code = 0 */
		0xf9, 0x07, 1, 2, 3, 4, 5, 6, 7, 8,                                 /* 127: fixed64 */
		0xfd, 0x07, 1, 2, 3, 4,                                             /* 127: fixed32 */
		0xf8, 0x07, 0x96, 0x01,                                             /* 127: varint */
	};
	uint8_t *both;
	size_t size;
	cli_error err;

	(void)state;
	assert_true(cli_action_encode(&a, &data, &size));
	both = malloc(size + sizeof extra);
	assert_non_null(both);
	/* In front and behind. */
	memcpy(both, extra, sizeof extra);
	memcpy(both + sizeof extra, data, size);
	if (!cli_action_decode(both, size + sizeof extra, &b, &err))
		fail_msg("%s", err.message);
	assert_int_equal(b.output_count, 3);
	cli_action_release(&b);
	memcpy(both, data, size);
	memcpy(both + size, extra, sizeof extra);
	if (!cli_action_decode(both, size + sizeof extra, &b, &err))
		fail_msg("%s", err.message);
	assert_int_equal(b.output_count, 3);
	assert_string_equal(b.outputs[2].path, "empty.xnb");
	cli_action_release(&b);
	free(both);
	free(data);
}

static void expect_bad_action(const cli_action *a, const char *what)
{
	uint8_t *data;
	size_t size;
	cli_action b;
	cli_error err = { "" };

	assert_true(cli_action_encode(a, &data, &size));
	if (cli_action_decode(data, size, &b, &err))
		fail_msg("%s decoded", what);
	assert_true(strncmp(err.message, "byte ", 5) == 0);
	free(data);
}

static void expect_bad_bytes(const uint8_t *data, size_t size, const char *what)
{
	cli_action b;
	cli_error err = { "" };

	if (cli_action_decode(data, size, &b, &err))
		fail_msg("%s decoded", what);
	assert_true(strncmp(err.message, "byte ", 5) == 0);
}

static void action_rejects_hostile(void **state)
{
	static const char *const bad_paths[] = { "/etc/passwd", "../up.xnb", "a/../../b", "a//b", "./a",
						 "a/.", "a/", "a\\b", "tab\there", "" };
	cli_action_output outs[2] = { { .path = (char *)"a.xnb" }, { .path = (char *)"a.xnb" } };
	cli_action a = { outs, 2, NULL, 0 };
	char header[] = "animc-cache 1 outputs=0\n";
	uint8_t bytes[64];

	(void)state;
	expect_bad_action(&a, "a duplicate path");
	a.output_count = 1;
	for (size_t i = 0; i < sizeof bad_paths / sizeof *bad_paths; i++) {
		outs[0].path = strdup(bad_paths[i]);
		assert_false(cli_action_path_is_safe(bad_paths[i]));
		expect_bad_action(&a, bad_paths[i]);
		free(outs[0].path);
	}
	assert_true(cli_action_path_is_safe("Grund/Low Run.xnb"));
	assert_true(cli_action_path_is_safe("..a/b..c/.d"));

	/* Hand-made messages. */
	expect_bad_bytes((const uint8_t *)"", 0, "an empty entry");
	bytes[0] = 0x2a;
	bytes[1] = sizeof header - 1;
	memcpy(bytes + 2, header, sizeof header - 1);
	{
		cli_action b;
		cli_error err;

		assert_true(cli_action_decode(bytes, 2 + sizeof header - 1, &b, &err));
		assert_int_equal(b.output_count, 0);
		cli_action_release(&b);
	}
	header[22] = '1';   /* says one output, has none */
	memcpy(bytes + 2, header, sizeof header - 1);
	expect_bad_bytes(bytes, 2 + sizeof header - 1, "a wrong output count");
	memcpy(bytes + 2, "animc-cache 2 outputs=0\n", 24);
	expect_bad_bytes(bytes, 26, "a header of another version");
	memcpy(bytes + 2, "animc-cache 1 outputs=\n", 23);
	bytes[1] = 23;
	expect_bad_bytes(bytes, 25, "a header without a count");
	{
		const uint8_t exit_code[] = { 0x20, 0x01 }, dirs[] = { 0x1a, 0x00 },
			      symlinks[] = { 0x62, 0x00 }, group[] = { 0x0b },
			      long_varint[] = { 0x20, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f },
			      too_long[] = { 0x12, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x00 },
			      field_zero[] = { 0x02, 0x00 }, wrong_wire[] = { 0x10, 0x01 },
			      file_no_digest[] = { 0x12, 0x03, 0x0a, 0x01, 'a' },
			      short_hash[] = { 0x12, 0x09, 0x0a, 0x01, 'a', 0x12, 0x04, 0x0a, 0x02, 'A', 'B' };

		expect_bad_bytes(exit_code, sizeof exit_code, "a non-zero exit code");
		expect_bad_bytes(dirs, sizeof dirs, "output directories");
		expect_bad_bytes(symlinks, sizeof symlinks, "output symlinks");
		expect_bad_bytes(group, sizeof group, "a group");
		expect_bad_bytes(long_varint, sizeof long_varint, "an 11-byte varint");
		expect_bad_bytes(too_long, sizeof too_long, "a length past the end");
		expect_bad_bytes(field_zero, sizeof field_zero, "field number 0");
		expect_bad_bytes(wrong_wire, sizeof wrong_wire, "output_files as a varint");
		expect_bad_bytes(file_no_digest, sizeof file_no_digest, "an output without a digest");
		expect_bad_bytes(short_hash, sizeof short_hash, "a short hash");
	}
}

/* ------------------------------------------------------------- shards */

static void shard_parse_and_pick(void **state)
{
	static const char *const bad[] = { "", "1", "0/3", "4/3", "1/0", "-1/3", "1/3x", "a/b", "1/",
					   "/3", "1/65537", "1//3", " 1/3" };
	/* Computed independently: 1 + int.from_bytes(sha256(p)[:8], "big") % n. */
	static const struct {
		const char *path;
		uint32_t shard[5];
	} vectors[] = {
		{ "Grund/Idle.Animation", { 1, 1, 1, 5, 33 } },
		{ "Hammer/Walk.Animation", { 2, 2, 2, 3, 90 } },
		{ "a", { 1, 2, 3, 5, 51 } },
		{ "Up_Run.Animation", { 2, 2, 4, 1, 8 } },
	};
	static const uint32_t counts[5] = { 2, 3, 4, 7, 100 };
	cli_shard s;

	(void)state;
	assert_true(cli_shard_parse("3/7", &s));
	assert_int_equal(s.index, 3);
	assert_int_equal(s.count, 7);
	assert_true(cli_shard_parse("1/1", &s));
	assert_true(cli_shard_parse("65536/65536", &s));
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		if (cli_shard_parse(bad[i], &s))
			fail_msg("'%s' parsed", bad[i]);
	for (size_t v = 0; v < sizeof vectors / sizeof *vectors; v++)
		for (size_t c = 0; c < 5; c++)
			assert_int_equal(cli_shard_of(vectors[v].path, counts[c]), vectors[v].shard[c]);
	assert_int_equal(cli_shard_of("anything", 1), 1);
}

/* Disjoint, together everything, and a new file moves nothing else. */
static void shard_partition(void **state)
{
	enum { FILES = 1000, MORE = 200 };
	static const uint32_t counts[] = { 1, 2, 3, 5, 16 };
	char *paths[FILES + MORE];
	uint32_t before[FILES];

	(void)state;
	for (size_t i = 0; i < FILES + MORE; i++)
		paths[i] = test_format("robot%zu/clip %zu.Animation", i % 7, i);
	for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
		uint32_t n = counts[c];
		size_t per_shard[16] = { 0 };

		for (size_t i = 0; i < FILES; i++) {
			unsigned owners = 0;

			for (uint32_t k = 1; k <= n; k++) {
				cli_shard s = { k, n };

				if (cli_shard_has(&s, paths[i])) {
					owners++;
					per_shard[k - 1]++;
				}
			}
			assert_int_equal(owners, 1);
			before[i] = cli_shard_of(paths[i], n);
		}
		/* Every shard gets a fair share (about FILES / n). */
		for (uint32_t k = 0; k < n; k++)
			assert_true(per_shard[k] > FILES / n / 2);
		/* "Adding" files: the shard of each old one is the same. */
		for (size_t i = FILES; i < FILES + MORE; i++)
			(void)cli_shard_of(paths[i], n);
		for (size_t i = 0; i < FILES; i++)
			assert_int_equal(cli_shard_of(paths[i], n), before[i]);
	}
	for (size_t i = 0; i < FILES + MORE; i++)
		free(paths[i]);
}

static void url_redaction(void **state)
{
	static const char *const cases[][2] = {
		{ "https://user:pw@cache.example:8443/c/x?token=1#f", "https://cache.example:8443/c/x" },
		{ "http://u@h/p", "http://h/p" },
		{ "http://h:1/", "http://h:1/" },
		{ "http://h?x=@y", "http://h" },
		{ "http://a@b@h/", "http://h/" },
	};
	char out[256];
	cli_cache *cache;
	cli_cache_options opt = { .url = "http://animc:pw-0451@127.0.0.1:9/c" };
	cli_error err;

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		cli_url_redact(cases[i][0], out, sizeof out);
		assert_string_equal(out, cases[i][1]);
	}
	/* Credentials in a URL (which comes from the command line) are refused,
	 * without repeating them. */
	assert_false(cli_cache_open(&opt, &cache, &err));
	assert_null(strstr(err.message, "pw-0451"));
	assert_null(strstr(err.message, "animc:"));
	assert_false(cli_cache_url_check(opt.url, &err));
	assert_null(strstr(err.message, "pw-0451"));
	assert_true(cli_cache_url_check("https://cache.example:8443/animc", &err));
	opt.url = "ftp://127.0.0.1/c";
	assert_false(cli_cache_open(&opt, &cache, &err));
	opt.url = "http://127.0.0.1/c?x=1";
	assert_false(cli_cache_open(&opt, &cache, &err));
	opt.url = NULL;
	assert_false(cli_cache_open(&opt, &cache, &err));
}

/* ------------------------------------------------------ remote (nginx) */

static void remote_round_trip(void **state)
{
	char *dir = test_tmpdir("remote_round_trip");
	test_nginx server;
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, NULL);
	cli_cache *cache;
	cli_cache_stats stats;
	char *file;

	(void)state;
	test_nginx_start(&server, dir, NULL, NULL);
	cache = open_cache(server.url, NULL, false, 0, &sink);
	store_seeds(cache, 1, 20, 3, false);
	store_seeds(cache, 21, 2, 2, true);
	cli_cache_close(cache, -1, &stats);
	assert_int_equal(stats.stored, 22);
	assert_int_equal(stats.errors, 0);

	/* The protocol's layout: ac/<sha256 of the key>, cas/<sha256 of the bytes>. */
	file = entry_file(server.root, 7);
	assert_true(test_file_exists(file));
	free(file);
	file = blob_file(server.root, 7, 2, 3007);
	assert_true(test_file_exists(file));
	free(file);

	/* Another machine: every seed a hit, byte for byte; an unknown key a miss. */
	cache = open_cache(server.url, NULL, false, 0, &sink);
	assert_int_equal(lookup_seeds(cache, 1, 20, 3, false), 20);
	assert_int_equal(lookup_seeds(cache, 21, 2, 2, true), 2);
	assert_int_equal(lookup_seeds(cache, 100, 3, 3, false), 0);
	cli_cache_close(cache, -1, &stats);
	assert_int_equal(stats.hits, 22);
	assert_int_equal(stats.misses, 3);
	assert_int_equal(stats.errors, 0);
	assert_int_equal(diags.count, 0);
	test_nginx_release(&server);
	test_diags_release(&diags);
	free(dir);
}

static void remote_corrupt_entry(void **state)
{
	char *dir = test_tmpdir("remote_corrupt_entry"), *blob, *entry;
	test_nginx server;
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, NULL);
	cli_cache *cache;
	cli_cache_stats stats;

	(void)state;
	test_nginx_start(&server, dir, NULL, NULL);
	cache = open_cache(server.url, NULL, false, 0, &sink);
	store_seeds(cache, 1, 2, 2, false);
	cli_cache_close(cache, -1, NULL);

	/* A blob of seed 1 changed on the server, same size: a miss, warned of. */
	blob = blob_file(server.root, 1, 1, 3001);
	flip_byte(blob, 100);
	/* Seed 2's entry damaged. */
	entry = entry_file(server.root, 2);
	assert_int_equal(truncate(entry, 20), 0);
	cache = open_cache(server.url, NULL, false, 0, &sink);
	assert_int_equal(lookup_seeds(cache, 1, 2, 2, false), 0);
	cli_cache_close(cache, -1, &stats);
	assert_int_equal(stats.problems[CLI_CACHE_CORRUPT], 2);
	assert_int_equal(stats.misses, 2);
	/* Once per kind, however many of it. */
	assert_int_equal(test_diags_count(&diags, ANIMC_WARNING), 1);   /* the first */
	assert_int_equal(test_diags_count(&diags, ANIMC_NOTE), 1);      /* and the tally */

	/* Compiled again and stored, which mends both. */
	cache = open_cache(server.url, NULL, false, 0, &sink);
	store_seeds(cache, 1, 2, 2, false);
	cli_cache_close(cache, -1, NULL);
	cache = open_cache(server.url, NULL, false, 0, &sink);
	assert_int_equal(lookup_seeds(cache, 1, 2, 2, false), 2);
	cli_cache_close(cache, -1, &stats);
	assert_int_equal(stats.errors, 0);
	test_nginx_release(&server);
	test_diags_release(&diags);
	free(blob);
	free(entry);
	free(dir);
}

static size_t count_requests(const test_nginx *server, const char *prefix)
{
	return test_nginx_count_requests(server, prefix);
}

/* nginx logs a request just after answering it: wait (2 s at most) until
 * `want` requests starting with `prefix` are in the log; their count. */
static size_t await_requests(const test_nginx *server, const char *prefix, size_t want)
{
	size_t n = 0;

	for (int i = 0; i < 400 && (n = count_requests(server, prefix)) < want; i++)
		usleep(5000);
	return n;
}

/* Blobs go up before the entry that names them; identical sources (one
 * key) cost one lookup and one store. */
static void remote_order_and_sharing(void **state)
{
	char *dir = test_tmpdir("remote_order_and_sharing"), *path, *log, *line;
	test_nginx server;
	cli_cache *cache;
	cli_cache_stats stats;
	size_t cas_puts = 0, ac_puts = 0;

	(void)state;
	test_nginx_start(&server, dir, NULL, NULL);
	cache = open_cache(server.url, NULL, false, 0, NULL);
	store_seeds(cache, 1, 5, 3, false);
	store_seeds(cache, 1, 5, 3, false);   /* the same keys again: no request */
	cli_cache_close(cache, -1, &stats);
	assert_int_equal(stats.stored, 5);
	assert_int_equal(await_requests(&server, "PUT /ac/", 5), 5);
	/* Logged as each finishes: the k-th entry after 3k blobs at least
	 * (each store's own three). */
	path = test_format("%s/access.log", server.dir);
	log = (char *)test_read_file(path, NULL);
	for (line = log; *line; line += strcspn(line, "\n"), line += *line == '\n') {
		if (strncmp(line, "PUT /cas/", 9) == 0)
			cas_puts++;
		else if (strncmp(line, "PUT /ac/", 8) == 0)
			assert_true(cas_puts >= 3 * ++ac_puts);
	}
	assert_int_equal(cas_puts, 15);
	assert_int_equal(count_requests(&server, "PUT /ac/"), 5);
	free(log);
	free(path);

	/* Ten lookups of one key: one entry and three blobs fetched, ten
	 * whole copies. */
	cache = open_cache(server.url, NULL, false, 0, NULL);
	for (unsigned id = 0; id < 10; id++) {
		cli_cache_key key = key_of(2);

		cli_cache_lookup(cache, id, &key);
	}
	for (unsigned id = 0; id < 10; id++) {
		cli_cache_result got, want = make_result(2, 3, 3002, false);

		assert_int_equal(cli_cache_take(cache, id, true, &got), CLI_CACHE_HIT);
		assert_same_result(&got, &want);
		cli_cache_result_release(&got);
		cli_cache_result_release(&want);
	}
	/* Only the first of them (the queue is worked in order) would have a
	 * store worth making. */
	assert_true(cli_cache_wants_store(cache, 0));
	for (unsigned id = 1; id < 10; id++)
		assert_false(cli_cache_wants_store(cache, id));
	cli_cache_close(cache, -1, &stats);
	assert_int_equal(stats.hits, 10);
	assert_int_equal(await_requests(&server, "GET /ac/", 1), 1);
	assert_int_equal(await_requests(&server, "GET /cas/", 3), 3);
	test_nginx_release(&server);
	free(dir);
}

/* Keys made on the cache's thread; the seed is the id; odd ones fail. */
static bool seed_keyer(void *user, size_t id, cli_cache_key *key)
{
	unsigned *calls = user;

	__atomic_add_fetch(calls, 1, __ATOMIC_RELAXED);
	*key = key_of((unsigned)id);
	return id % 2 == 0;
}

/* Lookups keyed on the cache's thread, and stores under the key of the
 * lookup of the same id. */
static void remote_keys_on_the_thread(void **state)
{
	char *dir = test_tmpdir("remote_keys_on_the_thread");
	test_nginx server;
	cli_cache *cache;
	cli_cache_stats stats;
	unsigned calls = 0;

	(void)state;
	test_nginx_start(&server, dir, NULL, NULL);
	cache = open_cache(server.url, NULL, false, 0, NULL);
	assert_true(cli_cache_is_storing(cache));
	for (unsigned seed = 1; seed <= 10; seed++)
		cli_cache_lookup_with(cache, seed, seed_keyer, &calls);
	for (unsigned seed = 1; seed <= 10; seed++) {
		cli_cache_result got, r = make_result(seed, 2, 3000 + seed, false);

		assert_int_equal(cli_cache_take(cache, seed, true, &got), CLI_CACHE_MISS);
		cli_cache_store_id(cache, seed, &r);
		cli_cache_result_release(&r);
	}
	cli_cache_close(cache, -1, &stats);
	assert_int_equal(calls, 10);
	/* The even seeds had keys, so were stored: under the same keys as
	 * cli_cache_store would have used. */
	assert_int_equal(stats.stored, 5);
	cache = open_cache(server.url, NULL, true, 0, NULL);
	assert_false(cli_cache_is_storing(cache));
	assert_int_equal(lookup_seeds(cache, 1, 10, 2, false), 5);
	cli_cache_close(cache, -1, NULL);
	test_nginx_release(&server);
	free(dir);
}

/* --rebuild: keys for stores only, and the build closes the cache at
 * once (a small build compiles before libcurl is loaded).  The stores
 * still get their keys and are made: closing dropped every one. */
static void remote_stores_keyed_at_close_are_made(void **state)
{
	char *dir = test_tmpdir("remote_stores_keyed_at_close");
	test_nginx server;
	cli_cache *cache;
	cli_cache_stats stats;
	unsigned calls = 0;

	(void)state;
	test_nginx_start(&server, dir, NULL, NULL);
	cache = open_cache(server.url, NULL, false, 0, NULL);
	for (unsigned seed = 1; seed <= 4; seed++) {
		cli_cache_result r = make_result(seed, 2, 3000 + seed, false);

		cli_cache_key_with(cache, seed, seed_keyer, &calls);
		cli_cache_store_id(cache, seed, &r);
		cli_cache_result_release(&r);
	}
	cli_cache_close(cache, -1, &stats);
	assert_int_equal(calls, 4);
	assert_int_equal(stats.stored, 2);
	cache = open_cache(server.url, NULL, true, 0, NULL);
	assert_int_equal(lookup_seeds(cache, 1, 4, 2, false), 2);
	cli_cache_close(cache, -1, NULL);
	test_nginx_release(&server);
	free(dir);
}

/* The server goes away in the middle: warnings, misses, nothing wrong. */
static void remote_server_stopped(void **state)
{
	char *dir = test_tmpdir("remote_server_stopped");
	test_nginx server;
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, NULL);
	cli_cache *cache;
	cli_cache_stats stats;
	unsigned hits;
	double start;

	(void)state;
	test_nginx_start(&server, dir, NULL, NULL);
	cache = open_cache(server.url, NULL, false, 0, &sink);
	store_seeds(cache, 1, 300, 2, false);
	cli_cache_close(cache, -1, NULL);

	cache = open_cache(server.url, NULL, false, 2, &sink);
	assert_int_equal(lookup_seeds(cache, 1, 20, 2, false), 20);
	test_nginx_stop(&server);
	start = now_s();
	assert_int_equal(lookup_seeds(cache, 21, 20, 2, false), 0);
	/* Compiled locally, and stored: nowhere to store them. */
	store_seeds(cache, 21, 20, 2, false);
	cli_cache_close(cache, -1, &stats);
	assert_true(now_s() - start < 10);
	assert_int_equal(stats.hits, 20);
	assert_int_equal(stats.misses, 20);
	assert_true(stats.problems[CLI_CACHE_UNREACHABLE] >= 1);
	assert_int_equal(stats.stored, 0);
	assert_true(test_diags_count(&diags, ANIMC_WARNING) <= 2);
	test_diags_release(&diags);

	/* Stopped with a batch of lookups in flight: each is a whole hit or a
	 * miss, checked byte for byte. */
	test_nginx_release(&server);
	test_nginx_start(&server, dir, NULL, NULL);
	cache = open_cache(server.url, NULL, false, 2, &sink);
	for (unsigned seed = 1; seed <= 300; seed++) {
		cli_cache_key key = key_of(seed);

		
cli_cache_lookup(cache, seed, &key);
	}
	hits = 0;
	for (unsigned seed = 1; seed <= 300; seed++) {
		cli_cache_result got;

		/* Stopped once 30 are in: the rest are queued, in flight or done. */
		if (seed == 31)
			test_nginx_stop(&server);
		if (cli_cache_take(cache, seed, true, &got) == CLI_CACHE_HIT) {
			cli_cache_result want = make_result(seed, 2, 3000 + seed, false);

			assert_same_result(&got, &want);
			cli_cache_result_release(&want);
			hits++;
		} else {
			assert_true(seed > 30);
		}
		cli_cache_result_release(&got);
	}
	cli_cache_close(cache, -1, &stats);
	assert_int_equal(stats.hits, hits);
	assert_int_equal(stats.hits + stats.misses, 300);
	assert_true(stats.errors > 0 || hits == 300);
	print_message("stopped mid-batch: %u of 300 were hits\n", hits);
	test_nginx_release(&server);
	test_diags_release(&diags);
	free(dir);
}

/* A server that takes no stores (405): warned of once, reads still work. */
static void remote_refused_store(void **state)
{
	char *dir = test_tmpdir("remote_refused_store"), *ro;
	test_nginx server;
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, NULL);
	cli_cache *cache;
	cli_cache_stats stats;

	(void)state;
	test_nginx_start(&server, dir, NULL, NULL);
	ro = test_format("%s/ro", server.url);
	cache = open_cache(ro, NULL, false, 0, &sink);
	store_seeds(cache, 1, 30, 2, false);
	cli_cache_close(cache, -1, &stats);
	assert_int_equal(stats.stored, 0);
	assert_int_equal(stats.problems[CLI_CACHE_REFUSED], 1);
	/* One warning, whatever the timing: the tally of stores not made is
	 * a note (how many were still to come when the refusal came varies). */
	assert_int_equal(test_diags_count(&diags, ANIMC_WARNING), 1);
	assert_true(diags_mention(&diags, "405"));
	assert_int_equal(test_count_files(server.root), 0);

	/* What the writable location stored, the read-only one serves. */
	cache = open_cache(server.url, NULL, false, 0, &sink);
	store_seeds(cache, 1, 5, 2, false);
	cli_cache_close(cache, -1, NULL);
	cache = open_cache(ro, NULL, false, 0, &sink);
	assert_int_equal(lookup_seeds(cache, 1, 5, 2, false), 5);
	cli_cache_close(cache, -1, NULL);

	/* --cache-read-only: nothing is sent. */
	cache = open_cache(server.url, NULL, true, 0, &sink);
	store_seeds(cache, 50, 5, 2, false);
	assert_int_equal(lookup_seeds(cache, 1, 5, 2, false), 5);
	cli_cache_close(cache, -1, &stats);
	assert_int_equal(stats.stored, 0);
	{
		char *file = entry_file(server.root, 50);

		assert_false(test_file_exists(file));
		free(file);
	}
	test_nginx_release(&server);
	test_diags_release(&diags);
	free(ro);
	free(dir);
}

/* A socket listening on a free loopback port (the kernel accepts for it;
 * nobody reads unless the test does), and its URL into *url. */
static int listen_local(char **url)
{
	struct sockaddr_in addr = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof addr;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&addr, sizeof addr), 0);
	assert_int_equal(listen(fd, 64), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&addr, &len), 0);
	*url = test_format("http://127.0.0.1:%d", ntohs(addr.sin_port));
	return fd;
}

/* A server that takes the connection and never answers: the time-out. */
static void remote_stalled(void **state)
{
	char *url;
	int fd = listen_local(&url);
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, NULL);
	cli_cache *cache;
	cli_cache_stats stats;
	double start;

	(void)state;
	start = now_s();
	cache = open_cache(url, NULL, false, 1, &sink);
	assert_int_equal(lookup_seeds(cache, 1, 12, 2, false), 0);
	store_seeds(cache, 1, 12, 2, false);
	cli_cache_close(cache, -1, &stats);
	/* One time-out, then the remote is given up: seconds, not 12 of them. */
	assert_true(now_s() - start < 8);
	assert_int_equal(stats.misses, 12);
	assert_int_equal(stats.problems[CLI_CACHE_TIMEOUT], 1);
	assert_int_equal(stats.stored, 0);
	assert_true(test_diags_count(&diags, ANIMC_WARNING) <= 2);
	close(fd);
	test_diags_release(&diags);
	free(url);
}

/* A server that answers a lookup's headers and the start of its body, then
 * sends nothing more: the time-out counts from the last byte.  libcurl's
 * own low-speed check averages over seconds, and such a transfer ran 6 s
 * past a 1 s --cache-timeout. */
static void remote_stalled_mid_body(void **state)
{
	char *url;
	int fd = listen_local(&url);
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, NULL);
	cli_cache *cache;
	cli_cache_stats stats;
	double start, took;
	pid_t server;

	(void)state;
	server = fork();
	assert_true(server >= 0);
	if (server == 0) {
		static const char head[] = "HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n";
		char buf[4096] = { 0 };

		for (;;) {
			int c = accept(fd, NULL, NULL);

			if (c < 0)
				_exit(0);
			if (read(c, buf, sizeof buf) > 0 && write(c, head, sizeof head - 1) > 0)
				(void)!write(c, buf, sizeof buf);   /* 4 KiB of the 100 KB, then nothing */
		}
	}
	start = now_s();
	cache = open_cache(url, NULL, false, 1, &sink);
	assert_int_equal(lookup_seeds(cache, 1, 4, 2, false), 0);
	cli_cache_close(cache, -1, &stats);
	took = now_s() - start;
	kill(server, SIGKILL);
	waitpid(server, NULL, 0);
	close(fd);
	if (took >= 4)
		fail_msg("the lookups took %.1f s with a 1 s time-out", took);
	assert_int_equal(stats.misses, 4);
	assert_int_equal(stats.problems[CLI_CACHE_TIMEOUT], 1);
	if (!strstr(test_diags_first(&diags, ANIMC_WARNING)->message,
		    "made no progress within 1 s; not used for the rest of this run"))
		fail_msg("%s", test_diags_first(&diags, ANIMC_WARNING)->message);
	test_diags_release(&diags);
	free(url);
}

/* A server answering every lookup with 200 and a body that never ends,
 * with a huge Content-Length or none: each answer is refused at the entry
 * limit (from its Content-Length when there is one), counts as a failure,
 * and the remote is given up after three, as after three 5xx.  It read
 * 64 MB per lookup and was never given up. */
static void remote_oversized_entry(void **state)
{
	static const char *const heads[] = {
		"HTTP/1.1 200 OK\r\nContent-Length: 100000000000\r\n\r\n",
		"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n",
	};

	(void)state;
	for (size_t h = 0; h < 2; h++) {
		char *url;
		int fd = listen_local(&url);
		test_diags diags = { 0 };
		animc_diag_sink sink = test_diag_sink(&diags, NULL);
		size_t *sent = mmap(NULL, sizeof *sent, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		cli_cache *cache;
		cli_cache_stats stats;
		pid_t server;

		assert_true(sent != MAP_FAILED);
		*sent = 0;
		server = fork();
		assert_true(server >= 0);
		if (server == 0) {
			signal(SIGCHLD, SIG_IGN);
			for (;;) {
				int c = accept(fd, NULL, NULL);
				static char buf[65536];

				if (c < 0)
					_exit(0);
				if (fork() == 0) {
					signal(SIGPIPE, SIG_IGN);
					if (read(c, buf, sizeof buf) <= 0 ||
					    write(c, heads[h], strlen(heads[h])) <= 0)
						_exit(0);
					memset(buf, '\n', sizeof buf);
					for (ssize_t n; (n = write(c, buf, sizeof buf)) > 0;)
						__atomic_add_fetch(sent, (size_t)n, __ATOMIC_RELAXED);
					_exit(0);
				}
				close(c);
			}
		}
		cache = open_cache(url, NULL, false, 5, &sink);
		assert_int_equal(lookup_seeds(cache, 1, 12, 2, false), 0);
		cli_cache_close(cache, -1, &stats);
		kill(server, SIGKILL);
		waitpid(server, NULL, 0);
		close(fd);
		assert_int_equal(stats.misses, 12);
		assert_int_equal(stats.problems[CLI_CACHE_CORRUPT], 3);
		/* At most the limit per failed lookup, plus what the sockets of
		 * the lookups buffer (loopback grows them to several MiB each,
		 * more under a sanitizer's slower reads): far below the 64 MB
		 * each of the 12 lookups read before. */
		if (*sent > 3 * CLI_ACTION_MAX_BYTES + 12 * ((size_t)8 << 20))
			fail_msg("the server sent %zu bytes", *sent);
		if (!diags_mention(&diags, "is larger than 1048576 bytes; compiling instead"))
			fail_msg("%s", test_diags_first(&diags, ANIMC_WARNING)->message);
		munmap(sent, sizeof *sent);
		test_diags_release(&diags);
		free(url);
	}
}

/* A slow server when the build is done: close waits as long as it is told,
 * then drops the stores still to make. */
static void remote_close_gives_up_waiting(void **state)
{
	char *url;
	int fd = listen_local(&url);
	cli_cache *cache;
	cli_cache_stats stats;
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, NULL);
	double start;

	(void)state;
	cache = open_cache(url, NULL, false, 30, &sink);
	store_seeds(cache, 1, 20, 2, false);
	start = now_s();
	cli_cache_close(cache, 0.3, &stats);
	assert_true(now_s() - start < 5);
	assert_int_equal(stats.stored, 0);
	assert_int_equal(stats.abandoned_stores, 20);
	assert_int_equal(stats.errors, 0);
	assert_int_equal(test_diags_count(&diags, ANIMC_WARNING), 1);
	close(fd);
	test_diags_release(&diags);
	free(url);
}

static volatile int stop_flag;

/* What a signal's handler does, 0.3 s into a close. */
static void *stop_later(void *arg)
{
	struct timespec pause = { 0, 300 * 1000 * 1000 };

	(void)arg;
	nanosleep(&pause, NULL);
	stop_flag = 1;
	return NULL;
}

/* A run stopped while close waits for the stores with no limit (the
 * stores of --cache-wait): they are dropped at once, and the warning says
 * the stop is why (not a wait of -1 s that ran out). */
static void remote_close_stopped_says_why(void **state)
{
	char *url;
	int fd = listen_local(&url);
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, NULL);
	cli_cache_options opt = { .url = url, .timeout_s = 30, .sink = &sink, .stop = &stop_flag };
	cli_cache *cache = NULL;
	cli_cache_stats stats;
	cli_error err;
	pthread_t stopper;
	double start;

	(void)state;
	if (!cli_cache_open(&opt, &cache, &err))
		fail_msg("cli_cache_open: %s", err.message);
	store_seeds(cache, 1, 20, 2, false);
	start = now_s();
	assert_int_equal(pthread_create(&stopper, NULL, stop_later, NULL), 0);
	cli_cache_close(cache, -1, &stats);
	assert_int_equal(pthread_join(stopper, NULL), 0);
	assert_true(now_s() - start < 5);
	assert_int_equal(stats.stored, 0);
	assert_int_equal(stats.abandoned_stores, 20);
	assert_int_equal(test_diags_count(&diags, ANIMC_WARNING), 1);
	if (!diags_mention(&diags, "': 20 results not stored: the build was stopped") || diags_mention(&diags, " s before"))
		fail_msg("%s", test_diags_first(&diags, ANIMC_WARNING)->message);
	close(fd);
	test_diags_release(&diags);
	free(url);
}

/* Lookups taken without waiting, woken by the cache's descriptor. */
static void remote_poll_descriptor(void **state)
{
	char *dir = test_tmpdir("remote_poll_descriptor");
	test_nginx server;
	cli_cache *cache;
	cli_cache_stats stats;
	bool is_done[41] = { false };
	unsigned left = 40, hits = 0, wakes = 0;

	(void)state;
	test_nginx_start(&server, dir, NULL, NULL);
	cache = open_cache(server.url, NULL, false, 0, NULL);
	store_seeds(cache, 1, 20, 1, false);
	cli_cache_close(cache, -1, NULL);
	cache = open_cache(server.url, NULL, false, 0, NULL);
	assert_true(cli_cache_fd(cache) >= 0);
	for (unsigned seed = 1; seed <= 40; seed++) {
		cli_cache_key key = key_of(seed);

		
cli_cache_lookup(cache, seed, &key);
	}
	while (left) {
		struct pollfd p = { cli_cache_fd(cache), POLLIN, 0 };

		assert_int_equal(poll(&p, 1, 10000), 1);
		wakes++;
		for (unsigned seed = 1; seed <= 40; seed++) {
			cli_cache_result got;
			cli_cache_status status;

			if (is_done[seed])
				continue;
			status = cli_cache_take(cache, seed, false, &got);
			if (status == CLI_CACHE_PENDING)
				continue;
			is_done[seed] = true;
			left--;
			if (status == CLI_CACHE_HIT) {
				cli_cache_result want = make_result(seed, 1, 3000 + seed, false);

				assert_same_result(&got, &want);
				cli_cache_result_release(&want);
				hits++;
			}
			cli_cache_result_release(&got);
		}
	}
	cli_cache_close(cache, -1, &stats);
	assert_int_equal(hits, 20);
	assert_true(wakes >= 1);
	test_nginx_release(&server);
	free(dir);
}

/* Nothing listens: a miss at once. */
static void remote_unreachable(void **state)
{
	char *url = test_format("http://127.0.0.1:%d/cache", test_free_port());
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, NULL);
	cli_cache *cache;
	cli_cache_stats stats;

	(void)state;
	cache = open_cache(url, NULL, false, 0, &sink);
	assert_int_equal(lookup_seeds(cache, 1, 50, 1, false), 0);
	/* Given up: the caller can spare itself making results to store. */
	assert_false(cli_cache_is_storing(cache));
	store_seeds(cache, 1, 50, 1, false);
	cli_cache_close(cache, -1, &stats);
	assert_int_equal(stats.misses, 50);
	assert_int_equal(stats.problems[CLI_CACHE_UNREACHABLE], 1);
	assert_true(stats.skipped_lookups + stats.skipped_stores >= 90);
	/* Said once, with what follows; the tally of what was not asked is a note. */
	assert_int_equal(test_diags_count(&diags, ANIMC_WARNING), 1);
	assert_true(diags_mention(&diags, "/cache"));
	assert_true(diags_mention(&diags, "not used for the rest of this run (its sources are compiled here)"));
	test_diags_release(&diags);
	free(url);
}

/* Open /dev/null until this process may open no more (the limit lowered
 * to `most` first, limit_was keeping it); the descriptors into held. */
static size_t use_up_descriptors(int *held, size_t most, struct rlimit *limit_was)
{
	struct rlimit low;
	size_t n = 0;

	assert_int_equal(getrlimit(RLIMIT_NOFILE, limit_was), 0);
	low = *limit_was;
	if (low.rlim_cur > most)
		low.rlim_cur = most;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
	while (n < most && (held[n] = open("/dev/null", O_RDONLY | O_CLOEXEC)) >= 0)
		n++;
	assert_int_equal(errno, EMFILE);
	return n;
}

/* This process out of file descriptors (ulimit -n reached): the lookups
 * made then miss, with a warning that says so, and the server, never
 * asked, is not given up: once descriptors are free again it answers.  It
 * was "failed: Couldn't connect to server; not used for the rest of this
 * run". */
static void remote_out_of_descriptors(void **state)
{
	char *dir = test_tmpdir("remote_out_of_descriptors");
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, NULL);
	test_nginx server;
	cli_cache *cache;
	cli_cache_stats stats;
	struct rlimit limit;
	int held[256];
	size_t n;

	(void)state;
	test_nginx_start(&server, dir, NULL, NULL);
	cache = open_cache(server.url, NULL, false, 0, NULL);
	store_seeds(cache, 1, 10, 1, false);
	cli_cache_close(cache, -1, &stats);
	assert_int_equal(stats.stored, 10);

	cache = open_cache(server.url, NULL, false, 0, &sink);
	n = use_up_descriptors(held, sizeof held / sizeof *held, &limit);
	unsigned hits = lookup_seeds(cache, 1, 5, 1, false);
	while (n)
		close(held[--n]);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &limit), 0);
	assert_int_equal(hits, 0);
	assert_true(cli_cache_is_storing(cache));
	assert_int_equal(lookup_seeds(cache, 6, 5, 1, false), 5);
	cli_cache_close(cache, -1, &stats);
	assert_true(stats.problems[CLI_CACHE_NO_DESCRIPTOR] >= 1);
	assert_int_equal(stats.problems[CLI_CACHE_UNREACHABLE], 0);
	assert_int_equal(stats.skipped_lookups, 0);
	assert_int_equal(test_diags_count(&diags, ANIMC_WARNING), 1);
	if (!diags_mention(&diags, " not sent: too many open files (this process may open ") ||
	    diags_mention(&diags, "not used for the rest of this run"))
		fail_msg("%s", diags.count ? diags.items[0].message : "no diagnostic");
	test_nginx_release(&server);
	test_diags_release(&diags);
	free(dir);
}

static void unset_credentials(void)
{
	unsetenv("ANIMC_CACHE_USER");
	unsetenv("ANIMC_CACHE_PASSWORD");
	unsetenv("ANIMC_CACHE_NETRC");
	unsetenv("ANIMC_CACHE_HEADER");
}

static int teardown_credentials(void **state)
{
	unset_credentials();
	return test_nginx_teardown(state);
}

/* Credentials from the environment and from a netrc file; never printed. */
static void remote_credentials(void **state)
{
	static const char user[] = "animc-ci", password[] = "pw-7Hq2-secret";
	char *dir = test_tmpdir("remote_credentials"), *url, *netrc;
	test_nginx server;
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, NULL);
	cli_cache *cache;
	cli_cache_stats stats;
	FILE *fp;

	(void)state;
	unset_credentials();
	test_nginx_start(&server, dir, user, password);
	url = test_format("%s/auth", server.url);

	/* None given: 401, the remote is given up, the build goes on. */
	cache = open_cache(url, NULL, false, 0, &sink);
	assert_int_equal(lookup_seeds(cache, 1, 3, 1, false), 0);
	cli_cache_close(cache, -1, &stats);
	assert_int_equal(stats.problems[CLI_CACHE_DENIED], 1);

	/* From the environment. */
	setenv("ANIMC_CACHE_USER", user, 1);
	setenv("ANIMC_CACHE_PASSWORD", password, 1);
	cache = open_cache(url, NULL, false, 0, &sink);
	store_seeds(cache, 1, 3, 1, false);
	cli_cache_close(cache, -1, &stats);
	assert_int_equal(stats.stored, 3);
	cache = open_cache(url, NULL, false, 0, &sink);
	assert_int_equal(lookup_seeds(cache, 1, 3, 1, false), 3);
	cli_cache_close(cache, -1, NULL);

	/* A wrong password: denied, and the warning repeats neither. */
	setenv("ANIMC_CACHE_PASSWORD", "pw-wrong-0000", 1);
	cache = open_cache(url, NULL, false, 0, &sink);
	assert_int_equal(lookup_seeds(cache, 1, 3, 1, false), 0);
	cli_cache_close(cache, -1, &stats);
	assert_int_equal(stats.problems[CLI_CACHE_DENIED], 1);
	unset_credentials();

	/* From a netrc file. */
	netrc = test_format("%s/netrc", dir);
	fp = fopen(netrc, "w");
	assert_non_null(fp);
	fprintf(fp, "machine 127.0.0.1 login %s password %s\n", user, password);
	fclose(fp);
	setenv("ANIMC_CACHE_NETRC", netrc, 1);
	cache = open_cache(url, NULL, false, 0, &sink);
	assert_int_equal(lookup_seeds(cache, 1, 3, 1, false), 3);
	cli_cache_close(cache, -1, &stats);
	assert_int_equal(stats.errors, 0);
	unset_credentials();

	/* A token header (e.g. Authorization: Basic, as a CI secret). */
	setenv("ANIMC_CACHE_HEADER", "Authorization: Basic YW5pbWMtY2k6cHctN0hxMi1zZWNyZXQ=", 1);
	cache = open_cache(url, NULL, false, 0, &sink);
	assert_int_equal(lookup_seeds(cache, 1, 3, 1, false), 3);
	cli_cache_close(cache, -1, &stats);
	assert_int_equal(stats.errors, 0);
	unset_credentials();

	/* Server down with credentials set. */
	setenv("ANIMC_CACHE_USER", user, 1);
	setenv("ANIMC_CACHE_PASSWORD", password, 1);
	test_nginx_stop(&server);
	cache = open_cache(url, NULL, false, 0, &sink);
	assert_int_equal(lookup_seeds(cache, 1, 3, 1, false), 0);
	cli_cache_close(cache, -1, &stats);
	unset_credentials();

	assert_true(diags.count >= 3);
	for (size_t i = 0; i < diags.count; i++) {
		assert_null(strstr(diags.items[i].message, password));
		assert_null(strstr(diags.items[i].message, "pw-wrong"));
		assert_null(strstr(diags.items[i].message, user));
		assert_null(strstr(diags.items[i].message, "YW5pbWMt"));
	}
	test_nginx_release(&server);
	test_diags_release(&diags);
	free(netrc);
	free(url);
	free(dir);
}

/* ------------------------------------------------------------ folders */

static void dir_round_trip(void **state)
{
	char *dir = test_tmpdir("dir_round_trip"), *cache_dir = test_format("%s/cache", dir), *file;
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, NULL);
	cli_cache *cache;
	cli_cache_stats stats;

	(void)state;
	cache = open_cache(NULL, cache_dir, false, 0, &sink);
	assert_int_equal(lookup_seeds(cache, 1, 10, 3, false), 0);
	store_seeds(cache, 1, 10, 3, false);
	store_seeds(cache, 11, 1, 2, true);
	cli_cache_close(cache, -1, &stats);
	assert_int_equal(stats.stored, 11);
	file = entry_file(cache_dir, 4);
	assert_true(test_file_exists(file));
	free(file);
	/* The blobs and the entries, and no temporary file left behind. */
	assert_int_equal(test_count_files(cache_dir), 10 * 3 + 2 + 11);

	cache = open_cache(NULL, cache_dir, true, 0, &sink);
	assert_int_equal(lookup_seeds(cache, 1, 10, 3, false), 10);
	assert_int_equal(lookup_seeds(cache, 11, 1, 2, true), 1);
	cli_cache_close(cache, -1, &stats);
	assert_int_equal(stats.errors, 0);

	/* A damaged blob and a damaged entry: misses, removed, then mended. */
	file = blob_file(cache_dir, 3, 0, 3003);
	flip_byte(file, 0);
	free(file);
	file = entry_file(cache_dir, 5);
	assert_int_equal(truncate(file, 50), 0);
	cache = open_cache(NULL, cache_dir, false, 0, &sink);
	assert_int_equal(lookup_seeds(cache, 1, 10, 3, false), 8);
	cli_cache_close(cache, -1, &stats);
	assert_int_equal(stats.problems[CLI_CACHE_CORRUPT], 2);
	assert_false(test_file_exists(file));
	free(file);
	cache = open_cache(NULL, cache_dir, false, 0, &sink);
	store_seeds(cache, 3, 3, 3, false);
	assert_int_equal(lookup_seeds(cache, 100, 1, 3, false), 0);
	cli_cache_close(cache, -1, NULL);
	cache = open_cache(NULL, cache_dir, false, 0, &sink);
	assert_int_equal(lookup_seeds(cache, 1, 10, 3, false), 10);
	cli_cache_close(cache, -1, &stats);
	assert_int_equal(stats.errors, 0);
	test_diags_release(&diags);
	free(cache_dir);
	free(dir);
}

/* A read-only folder cache is only read: a blob that does not match its
 * digest, one longer than its digest says and a damaged entry are misses,
 * warned of without "removed", and stay as they were (they were unlinked);
 * a writing build then removes them. */
static void dir_read_only_changes_nothing(void **state)
{
	char *dir = test_tmpdir("dir_read_only_changes_nothing"), *cache_dir = test_format("%s/cache", dir);
	char *files[3] = { blob_file(cache_dir, 1, 0, 3001), blob_file(cache_dir, 2, 1, 3002), NULL };
	uint8_t *before[3];
	size_t sizes[3];
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, NULL);
	cli_cache *cache;
	cli_cache_stats stats;
	FILE *fp;

	(void)state;
	files[2] = entry_file(cache_dir, 3);
	cache = open_cache(NULL, cache_dir, false, 0, &sink);
	store_seeds(cache, 1, 4, 2, false);
	cli_cache_close(cache, -1, NULL);
	flip_byte(files[0], 10);
	assert_non_null(fp = fopen(files[1], "ab"));
	fputc('x', fp);
	fclose(fp);
	assert_int_equal(truncate(files[2], 50), 0);
	for (int i = 0; i < 3; i++)
		before[i] = test_read_file(files[i], &sizes[i]);

	cache = open_cache(NULL, cache_dir, true, 0, &sink);
	assert_int_equal(lookup_seeds(cache, 1, 4, 2, false), 1);
	cli_cache_close(cache, -1, &stats);
	assert_int_equal(stats.problems[CLI_CACHE_CORRUPT], 3);
	for (int i = 0; i < 3; i++) {
		size_t size;
		uint8_t *after = test_read_file(files[i], &size);

		if (!after || size != sizes[i] || memcmp(after, before[i], size) != 0)
			fail_msg("'%s' changed in a read-only cache", files[i]);
		free(after);
	}
	for (size_t i = 0; i < diags.count; i++)
		if (strstr(diags.items[i].message, "removed"))
			fail_msg("%s", diags.items[i].message);

	cache = open_cache(NULL, cache_dir, false, 0, &sink);
	assert_int_equal(lookup_seeds(cache, 1, 4, 2, false), 1);
	cli_cache_close(cache, -1, NULL);
	for (int i = 0; i < 3; i++) {
		assert_false(test_file_exists(files[i]));
		free(before[i]);
		free(files[i]);
	}
	assert_true(diags_mention(&diags, "removed, compiling instead"));
	test_diags_release(&diags);
	free(cache_dir);
	free(dir);
}

/* A store (such as --rebuild's) over a damaged blob of the right size
 * replaces it: the size alone kept it, and the next build met the damage
 * again.  A blob that is right is left alone (same inode). */
static void dir_store_replaces_damaged_blob(void **state)
{
	char *dir = test_tmpdir("dir_store_replaces_damaged_blob"), *cache_dir = test_format("%s/cache", dir);
	char *damaged = blob_file(cache_dir, 1, 0, 3001), *good = blob_file(cache_dir, 1, 1, 3001);
	uint8_t *want = pattern(1, 0, 3001), *got;
	struct stat before, after;
	size_t size;
	cli_cache *cache;

	(void)state;
	cache = open_cache(NULL, cache_dir, false, 0, NULL);
	store_seeds(cache, 1, 1, 2, false);
	cli_cache_close(cache, -1, NULL);
	flip_byte(damaged, 100);
	assert_int_equal(stat(good, &before), 0);
	cache = open_cache(NULL, cache_dir, false, 0, NULL);
	store_seeds(cache, 1, 1, 2, false);
	cli_cache_close(cache, -1, NULL);
	got = test_read_file(damaged, &size);
	assert_int_equal(size, 3001);
	assert_memory_equal(got, want, size);
	assert_int_equal(stat(good, &after), 0);
	assert_int_equal(after.st_ino, before.st_ino);
	free(got);
	free(want);
	free(good);
	free(damaged);
	free(cache_dir);
	free(dir);
}

/* An entry or a blob that is a symbolic link (to a file outside the cache
 * folder) is not read through: a miss, said, the file at its far end left
 * as it was; a store puts a file of its own in the link's place. */
static void dir_reads_nothing_through_a_link(void **state)
{
	char *dir = test_tmpdir("dir_reads_nothing_through_a_link"), *cache_dir = test_format("%s/cache", dir);
	char *entry = entry_file(cache_dir, 1), *blob = blob_file(cache_dir, 2, 0, 3002);
	char *away_entry = test_format("%s/entry", dir), *away_blob = test_format("%s/blob", dir);
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, NULL);
	cli_cache_stats stats;
	cli_cache *cache;
	struct stat st;

	(void)state;
	cache = open_cache(NULL, cache_dir, false, 0, &sink);
	store_seeds(cache, 1, 2, 3, false);
	cli_cache_close(cache, -1, NULL);
	assert_int_equal(rename(entry, away_entry), 0);
	assert_int_equal(symlink(away_entry, entry), 0);
	assert_int_equal(rename(blob, away_blob), 0);
	assert_int_equal(symlink(away_blob, blob), 0);
	cache = open_cache(NULL, cache_dir, true, 0, &sink);
	assert_int_equal(lookup_seeds(cache, 1, 2, 3, false), 0);
	cli_cache_close(cache, -1, &stats);
	assert_int_equal(stats.problems[CLI_CACHE_DIR_READ], 2);
	assert_int_equal(lstat(entry, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	cache = open_cache(NULL, cache_dir, false, 0, &sink);
	store_seeds(cache, 1, 2, 3, false);
	cli_cache_close(cache, -1, NULL);
	assert_int_equal(lstat(entry, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(lstat(blob, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_true(test_file_exists(away_entry));
	assert_true(test_file_exists(away_blob));
	test_diags_release(&diags);
	free(away_blob), free(away_entry), free(blob), free(entry), free(cache_dir), free(dir);
}

/* A result equal to seed's, without cmocka (for child processes). */
static bool is_seed_result(const cli_cache_result *got, unsigned seed)
{
	cli_cache_result want = make_result(seed, 2, 3000 + seed, false);
	bool same = got->output_count == want.output_count && got->meta_size == want.meta_size &&
		    memcmp(got->meta, want.meta, want.meta_size) == 0;

	for (size_t i = 0; same && i < want.output_count; i++)
		same = strcmp(got->outputs[i].path, want.outputs[i].path) == 0 &&
		       got->outputs[i].size == want.outputs[i].size &&
		       memcmp(got->outputs[i].data, want.outputs[i].data, want.outputs[i].size) == 0;
	cli_cache_result_release(&want);
	return same;
}

/* Two processes storing the same entries at once, a third reading them:
 * every hit is whole, no entry is ever damaged. */
static void dir_concurrent_writers(void **state)
{
	enum { ROUNDS = 150, SEEDS = 50 };
	char *dir = test_tmpdir("dir_concurrent_writers"), *cache_dir = test_format("%s/cache", dir);
	pid_t pids[3];

	(void)state;
	for (int p = 0; p < 3; p++) {
		pids[p] = fork();
		assert_true(pids[p] >= 0);
		if (pids[p] == 0) {
			/* No cmocka here: a failed assertion would go back into the
			 * parent's test runner.  Exit codes say what went wrong. */
			cli_cache_options opt = { .dir = cache_dir };
			cli_cache *cache;
			cli_cache_stats stats;
			cli_error err;
			int bad = 0;

			if (!cli_cache_open(&opt, &cache, &err))
				_exit(11);
			for (unsigned round = 0; round < ROUNDS; round++) {
				unsigned seed = round % SEEDS;
				cli_cache_key key = key_of(seed);

				
if (p < 2) {
					/* Both writers: the same seeds in the same order. */
					cli_cache_result r = make_result(seed, 2, 3000 + seed, false);

					cli_cache_store(cache, &key, &r);
					cli_cache_result_release(&r);
				} else {
					cli_cache_result got;

					cli_cache_lookup(cache, round, &key);
					if (cli_cache_take(cache, round, true, &got) == CLI_CACHE_HIT && !is_seed_result(&got, seed))
						bad = 12;
					cli_cache_result_release(&got);
				}
			}
			cli_cache_close(cache, -1, &stats);
			_exit(bad ? bad : stats.errors ? 10 : 0);
		}
	}
	for (int p = 0; p < 3; p++) {
		int status;

		assert_int_equal(waitpid(pids[p], &status, 0), pids[p]);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
	}
	/* Whole entries, and no temporary files. */
	{
		cli_cache *cache = open_cache(NULL, cache_dir, true, 0, NULL);
		cli_cache_stats stats;

		assert_int_equal(lookup_seeds(cache, 0, SEEDS, 2, false), SEEDS);
		cli_cache_close(cache, -1, &stats);
		assert_int_equal(stats.errors, 0);
		assert_int_equal(test_count_files(cache_dir), SEEDS + SEEDS * 2);
	}
	free(cache_dir);
	free(dir);
}

/* A folder in front of a remote: misses go on to the remote, whose hits
 * are kept in the folder. */
static void dir_in_front_of_remote(void **state)
{
	char *dir = test_tmpdir("dir_in_front_of_remote"), *cache_dir = test_format("%s/local", dir);
	test_nginx server;
	cli_cache *cache;
	cli_cache_stats stats;

	(void)state;
	test_nginx_start(&server, dir, NULL, NULL);
	cache = open_cache(server.url, NULL, false, 0, NULL);
	store_seeds(cache, 1, 6, 2, false);
	cli_cache_close(cache, -1, NULL);
	cache = open_cache(server.url, cache_dir, false, 0, NULL);
	assert_int_equal(lookup_seeds(cache, 1, 6, 2, false), 6);
	cli_cache_close(cache, -1, &stats);
	assert_int_equal(stats.errors, 0);
	test_nginx_stop(&server);
	cache = open_cache(NULL, cache_dir, true, 0, NULL);
	assert_int_equal(lookup_seeds(cache, 1, 6, 2, false), 6);
	cli_cache_close(cache, -1, &stats);
	assert_int_equal(stats.errors, 0);
	test_nginx_release(&server);
	free(cache_dir);
	free(dir);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(action_wire_format),
	cmocka_unit_test(action_round_trip),
	cmocka_unit_test(action_skips_server_fields),
	cmocka_unit_test(action_rejects_hostile),
	cmocka_unit_test(shard_parse_and_pick),
	cmocka_unit_test(shard_partition),
	cmocka_unit_test(url_redaction),
	cmocka_unit_test_teardown(remote_round_trip, test_nginx_teardown),
	cmocka_unit_test_teardown(remote_corrupt_entry, test_nginx_teardown),
	cmocka_unit_test_teardown(remote_order_and_sharing, test_nginx_teardown),
	cmocka_unit_test_teardown(remote_keys_on_the_thread, test_nginx_teardown),
	cmocka_unit_test_teardown(remote_stores_keyed_at_close_are_made, test_nginx_teardown),
	cmocka_unit_test_teardown(remote_server_stopped, test_nginx_teardown),
	cmocka_unit_test_teardown(remote_refused_store, test_nginx_teardown),
	cmocka_unit_test(remote_stalled),
	cmocka_unit_test(remote_stalled_mid_body),
	cmocka_unit_test(remote_oversized_entry),
	cmocka_unit_test(remote_unreachable),
	cmocka_unit_test_teardown(remote_out_of_descriptors, test_nginx_teardown),
	cmocka_unit_test(remote_close_gives_up_waiting),
	cmocka_unit_test(remote_close_stopped_says_why),
	cmocka_unit_test_teardown(remote_poll_descriptor, test_nginx_teardown),
	cmocka_unit_test_teardown(remote_credentials, teardown_credentials),
	cmocka_unit_test(dir_round_trip),
	cmocka_unit_test(dir_read_only_changes_nothing),
	cmocka_unit_test(dir_store_replaces_damaged_blob),
	cmocka_unit_test(dir_reads_nothing_through_a_link),
	cmocka_unit_test(dir_concurrent_writers),
	cmocka_unit_test_teardown(dir_in_front_of_remote, test_nginx_teardown),
};

ANIMC_TEST_GROUP(tests);
