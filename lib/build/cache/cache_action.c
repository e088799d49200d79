/*
 * cache_action.c - the action cache entry: REAPI's ActionResult protobuf
 * message, encoded by hand (the few fields animc writes) and decoded
 * strictly, since its bytes come from a server (see cache.h).  No I/O here.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "cli.h"
#include "cache_internal.h"

/* Field numbers and wire types of remote_execution.proto. */
enum {
	WIRE_VARINT = 0,
	WIRE_FIXED64 = 1,
	WIRE_LEN = 2,
	WIRE_FIXED32 = 5,

	RESULT_OUTPUT_FILES = 2,
	RESULT_OUTPUT_DIRECTORIES = 3,
	RESULT_EXIT_CODE = 4,
	RESULT_STDOUT_RAW = 5,
	RESULT_OUTPUT_FILE_SYMLINKS = 10,
	RESULT_OUTPUT_DIRECTORY_SYMLINKS = 11,
	RESULT_OUTPUT_SYMLINKS = 12,

	OUTPUT_FILE_PATH = 1,
	OUTPUT_FILE_DIGEST = 2,

	DIGEST_HASH = 1,
	DIGEST_SIZE_BYTES = 2
};

#define HEADER_PREFIX "animc-cache 1 outputs="

bool cli_action_path_is_safe(const char *path)
{
	const char *part = path;

	if (!path[0] || path[0] == '/' || strlen(path) > CLI_ACTION_MAX_PATH_BYTES)
		return false;
	for (;;) {
		size_t len = strcspn(part, "/");

		if (len == 0 || (len == 1 && part[0] == '.') || (len == 2 && part[0] == '.' && part[1] == '.'))
			return false;
		for (size_t i = 0; i < len; i++)
			if ((unsigned char)part[i] < 0x20 || part[i] == 0x7F || part[i] == '\\')
				return false;
		if (!part[len])
			return true;
		part += len + 1;
	}
}

void cli_action_release(cli_action *action)
{
	if (!action)
		return;
	for (size_t i = 0; i < action->output_count; i++)
		free(action->outputs[i].path);
	free(action->outputs);
	free(action->meta);
	memset(action, 0, sizeof *action);
}

/* ---------------------------------------------------------------- encode */

typedef cli_bytes buffer;

static void put(buffer *b, const void *data, size_t size)
{
	cli_bytes_put(b, data, size);
}

static void put_varint(buffer *b, uint64_t v)
{
	uint8_t bytes[10];
	size_t n = 0;

	do {
		bytes[n] = (uint8_t)(v & 0x7F);
		v >>= 7;
		if (v)
			bytes[n] |= 0x80;
		n++;
	} while (v);
	put(b, bytes, n);
}

static void put_tag(buffer *b, unsigned field, unsigned wire)
{
	put_varint(b, (uint64_t)field << 3 | wire);
}

static void put_bytes_field(buffer *b, unsigned field, const void *data, size_t size)
{
	put_tag(b, field, WIRE_LEN);
	put_varint(b, size);
	put(b, data, size);
}

/* Size of a varint, for the length prefix of a nested message. */
static size_t varint_size(uint64_t v)
{
	size_t n = 1;

	while (v >>= 7)
		n++;
	return n;
}

bool cli_action_encode(const cli_action *action, uint8_t **data, size_t *size)
{
	buffer b = { 0 };
	char header[64];
	int header_len = snprintf(header, sizeof header, HEADER_PREFIX "%zu\n", action->output_count);

	for (size_t i = 0; i < action->output_count; i++) {
		const cli_action_output *o = &action->outputs[i];
		char hex[CLI_SHA256_HEX_BYTES];
		size_t path_len = strlen(o->path);
		size_t digest_len = 1 + 1 + 64 + (o->digest.size_bytes ? 1 + varint_size(o->digest.size_bytes) : 0);
		size_t file_len = 1 + varint_size(path_len) + path_len + 1 + varint_size(digest_len) + digest_len;

		cli_hex(o->digest.sha256, CLI_SHA256_BYTES, hex);
		put_tag(&b, RESULT_OUTPUT_FILES, WIRE_LEN);
		put_varint(&b, file_len);
		put_bytes_field(&b, OUTPUT_FILE_PATH, o->path, path_len);
		put_tag(&b, OUTPUT_FILE_DIGEST, WIRE_LEN);
		put_varint(&b, digest_len);
		put_bytes_field(&b, DIGEST_HASH, hex, 64);
		/* proto3 leaves a zero scalar out. */
		if (o->digest.size_bytes) {
			put_tag(&b, DIGEST_SIZE_BYTES, WIRE_VARINT);
			put_varint(&b, o->digest.size_bytes);
		}
	}
	put_tag(&b, RESULT_STDOUT_RAW, WIRE_LEN);
	put_varint(&b, (size_t)header_len + action->meta_size);
	put(&b, header, (size_t)header_len);
	put(&b, action->meta, action->meta_size);
	if (b.is_broken) {
		free(b.data);
		return false;
	}
	*data = b.data;
	*size = b.size;
	return true;
}

/* ---------------------------------------------------------------- decode */

typedef struct reader {
	const uint8_t *data;
	size_t size, off;
	size_t base;        /* offset of data in the whole entry, for messages */
	char *message;      /* the error, "byte N: ..."; NULL: not kept */
	size_t message_size;
} reader;

__attribute__((format(printf, 2, 3))) static bool fail(reader *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!r->message || !r->message_size)
		return false;
	n = snprintf(r->message, r->message_size, "byte %zu: ", r->base + r->off);
	if (n < 0 || (size_t)n >= r->message_size)
		return false;
	va_start(ap, fmt);
	vsnprintf(r->message + n, r->message_size - (size_t)n, fmt, ap);
	va_end(ap);
	return false;
}

static bool get_varint(reader *r, uint64_t *v)
{
	uint64_t value = 0;

	for (unsigned i = 0; i < 10; i++) {
		uint8_t byte;

		if (r->off >= r->size)
			return fail(r, "varint cut short");
		byte = r->data[r->off++];
		if (i == 9 && byte > 1)
			return fail(r, "varint longer than 64 bits");
		value |= (uint64_t)(byte & 0x7F) << (7 * i);
		if (!(byte & 0x80)) {
			*v = value;
			return true;
		}
	}
	return fail(r, "varint longer than 10 bytes");
}

static bool get_tag(reader *r, unsigned *field, unsigned *wire)
{
	uint64_t tag;

	if (!get_varint(r, &tag))
		return false;
	if (tag >> 3 == 0 || tag >> 3 > 536870911u)
		return fail(r, "field number %llu out of range", (unsigned long long)(tag >> 3));
	*field = (unsigned)(tag >> 3);
	*wire = (unsigned)(tag & 7);
	return true;
}

/* A length-delimited field's bytes, as a reader of their own. */
static bool get_len(reader *r, reader *sub)
{
	uint64_t len;

	if (!get_varint(r, &len))
		return false;
	if (len > r->size - r->off)
		return fail(r, "field of %llu bytes, only %zu left", (unsigned long long)len, r->size - r->off);
	*sub = (reader){ r->data + r->off, (size_t)len, 0, r->base + r->off, r->message, r->message_size };
	r->off += (size_t)len;
	return true;
}

static bool skip_field(reader *r, unsigned wire)
{
	uint64_t v;
	reader sub;

	switch (wire) {
	case WIRE_VARINT:
		return get_varint(r, &v);
	case WIRE_FIXED64:
	case WIRE_FIXED32: {
		size_t n = wire == WIRE_FIXED64 ? 8 : 4;

		if (n > r->size - r->off)
			return fail(r, "fixed-width field cut short");
		r->off += n;
		return true;
	}
	case WIRE_LEN:
		return get_len(r, &sub);
	default:
		return fail(r, "wire type %u (groups or invalid)", wire);
	}
}

static bool expect_wire(reader *r, unsigned wire, unsigned want, const char *name)
{
	if (wire != want)
		return fail(r, "%s has wire type %u, not %u", name, wire, want);
	return true;
}

static bool decode_digest(reader *r, cli_digest *digest)
{
	bool has_hash = false, has_size = false;

	while (r->off < r->size) {
		unsigned field = 0, wire = 0;

		if (!get_tag(r, &field, &wire))
			return false;
		if (field == DIGEST_HASH) {
			reader hash;

			if (!expect_wire(r, wire, WIRE_LEN, "Digest.hash") || !get_len(r, &hash))
				return false;
			if (has_hash)
				return fail(r, "Digest.hash given twice");
			if (hash.size != 64)
				return fail(r, "hash of %zu characters, not 64", hash.size);
			if (!cli_hex_decode((const char *)hash.data, CLI_SHA256_BYTES, digest->sha256))
				return fail(r, "hash is not lowercase hexadecimal");
			has_hash = true;
		} else if (field == DIGEST_SIZE_BYTES) {
			uint64_t size;

			if (!expect_wire(r, wire, WIRE_VARINT, "Digest.size_bytes") || !get_varint(r, &size))
				return false;
			if (has_size)
				return fail(r, "Digest.size_bytes given twice");
			if (size > INT64_MAX)
				return fail(r, "negative size");
			digest->size_bytes = size;
			has_size = true;
		} else if (!skip_field(r, wire)) {
			return false;
		}
	}
	if (!has_hash)
		return fail(r, "Digest without a hash");
	return true;
}

static bool decode_output(reader *r, cli_action_output *out)
{
	bool has_digest = false;

	out->path = NULL;
	memset(&out->digest, 0, sizeof out->digest);
	while (r->off < r->size) {
		unsigned field = 0, wire = 0;
		reader sub;

		if (!get_tag(r, &field, &wire))
			return false;
		if (field == OUTPUT_FILE_PATH) {
			if (!expect_wire(r, wire, WIRE_LEN, "OutputFile.path") || !get_len(r, &sub))
				return false;
			if (out->path)
				return fail(r, "OutputFile.path given twice");
			if (sub.size == 0 || sub.size > CLI_ACTION_MAX_PATH_BYTES)
				return fail(r, "output path of %zu bytes", sub.size);
			if (memchr(sub.data, 0, sub.size))
				return fail(r, "output path holds a NUL byte");
			out->path = malloc(sub.size + 1);
			if (!out->path)
				return fail(r, "out of memory");
			memcpy(out->path, sub.data, sub.size);
			out->path[sub.size] = '\0';
			if (!cli_action_path_is_safe(out->path))
				return fail(r, "an output path is absolute, climbs out, has an empty part or a "
					       "control character");
		} else if (field == OUTPUT_FILE_DIGEST) {
			if (!expect_wire(r, wire, WIRE_LEN, "OutputFile.digest") || !get_len(r, &sub))
				return false;
			if (has_digest)
				return fail(r, "OutputFile.digest given twice");
			if (!decode_digest(&sub, &out->digest))
				return false;
			has_digest = true;
		} else if (!skip_field(r, wire)) {
			return false;
		}
	}
	if (!out->path)
		return fail(r, "OutputFile without a path");
	if (!has_digest)
		return fail(r, "OutputFile without a digest");
	return true;
}

static int compare_paths(const void *a, const void *b)
{
	return strcmp(((const cli_action_output *)a)->path, ((const cli_action_output *)b)->path);
}

/* "animc-cache 1 outputs=N\n": the meta payload after it, and N. */
static bool decode_header(reader *r, const reader *raw, size_t *count, size_t *header_len)
{
	size_t prefix = sizeof HEADER_PREFIX - 1, i;
	uint64_t n = 0;

	if (raw->size < prefix || memcmp(raw->data, HEADER_PREFIX, prefix) != 0)
		return fail(r, "stdout_raw does not start with '" HEADER_PREFIX "'");
	for (i = prefix; i < raw->size && raw->data[i] >= '0' && raw->data[i] <= '9' && i < prefix + 8; i++)
		n = n * 10 + (uint64_t)(raw->data[i] - '0');
	if (i == prefix || i >= raw->size || raw->data[i] != '\n')
		return fail(r, "header line without an output count");
	*count = (size_t)n;
	*header_len = i + 1;
	return true;
}

bool cli_action_decode(const uint8_t *data, size_t size, cli_action *action, cli_error *err)
{
	char *message = err ? err->message : NULL;
	size_t message_size = err ? sizeof err->message : 0;
	reader r = { data, size, 0, 0, message, message_size }, raw = { NULL, 0, 0, 0, message, message_size };
	size_t capacity = 0, count = 0, header_len = 0;
	bool has_raw = false;

	memset(action, 0, sizeof *action);
	if (size > CLI_ACTION_MAX_BYTES) {
		fail(&r, "action entry of %zu bytes (at most %zu)", size, CLI_ACTION_MAX_BYTES);
		return false;
	}
	while (r.off < r.size) {
		unsigned field = 0, wire = 0;
		reader sub;

		if (!get_tag(&r, &field, &wire))
			goto bad;
		switch (field) {
		case RESULT_OUTPUT_FILES:
			if (!expect_wire(&r, wire, WIRE_LEN, "output_files") || !get_len(&r, &sub))
				goto bad;
			if (action->output_count == CLI_ACTION_MAX_OUTPUTS) {
				fail(&r, "more than %u outputs", CLI_ACTION_MAX_OUTPUTS);
				goto bad;
			}
			if (action->output_count == capacity) {
				size_t grown_capacity = capacity ? capacity * 2 : 4;
				cli_action_output *grown =
					realloc(action->outputs, grown_capacity * sizeof *grown);

				if (!grown) {
					fail(&r, "out of memory");
					goto bad;
				}
				action->outputs = grown;
				capacity = grown_capacity;
			}
			if (!decode_output(&sub, &action->outputs[action->output_count])) {
				free(action->outputs[action->output_count].path);
				goto bad;
			}
			action->output_count++;
			break;
		case RESULT_OUTPUT_DIRECTORIES:
		case RESULT_OUTPUT_FILE_SYMLINKS:
		case RESULT_OUTPUT_DIRECTORY_SYMLINKS:
		case RESULT_OUTPUT_SYMLINKS:
			fail(&r, "output directories or symbolic links, which animc never stores");
			goto bad;
		case RESULT_EXIT_CODE: {
			uint64_t code;

			if (!expect_wire(&r, wire, WIRE_VARINT, "exit_code") || !get_varint(&r, &code))
				goto bad;
			if (code) {
				fail(&r, "exit code %lld", (long long)(int32_t)code);
				goto bad;
			}
			break;
		}
		case RESULT_STDOUT_RAW:
			if (!expect_wire(&r, wire, WIRE_LEN, "stdout_raw") || !get_len(&r, &raw))
				goto bad;
			if (has_raw) {
				fail(&r, "stdout_raw given twice");
				goto bad;
			}
			has_raw = true;
			break;
		default:
			if (!skip_field(&r, wire))
				goto bad;
		}
	}
	if (!has_raw) {
		fail(&r, "no animc header (stdout_raw): not an animc entry, or cut short");
		goto bad;
	}
	if (!decode_header(&r, &raw, &count, &header_len))
		goto bad;
	if (count != action->output_count) {
		fail(&r, "header names %zu outputs, the entry has %zu", count, action->output_count);
		goto bad;
	}
	if (action->output_count > 1) {
		cli_action_output *sorted = malloc(action->output_count * sizeof *sorted);

		if (!sorted) {
			fail(&r, "out of memory");
			goto bad;
		}
		memcpy(sorted, action->outputs, action->output_count * sizeof *sorted);
		qsort(sorted, action->output_count, sizeof *sorted, compare_paths);
		for (size_t i = 1; i < action->output_count; i++)
			if (strcmp(sorted[i - 1].path, sorted[i].path) == 0) {
				fail(&r, "output path '%s' given twice", sorted[i].path);
				free(sorted);
				goto bad;
			}
		free(sorted);
	}
	action->meta_size = raw.size - header_len;
	action->meta = malloc(action->meta_size + 1);
	if (!action->meta) {
		fail(&r, "out of memory");
		goto bad;
	}
	if (action->meta_size)
		memcpy(action->meta, raw.data + header_len, action->meta_size);
	action->meta[action->meta_size] = '\0';
	return true;
bad:
	cli_action_release(action);
	return false;
}

/* Move a decoded entry and its checked blobs into a result. */
bool cli_action_to_result(cli_action *action, uint8_t **blobs, cli_cache_result *result)
{
	memset(result, 0, sizeof *result);
	result->outputs = calloc(action->output_count ? action->output_count : 1, sizeof *result->outputs);
	if (!result->outputs)
		return false;
	for (size_t i = 0; i < action->output_count; i++) {
		result->outputs[i].path = action->outputs[i].path;
		result->outputs[i].data = blobs[i];
		result->outputs[i].size = action->outputs[i].digest.size_bytes;
		action->outputs[i].path = NULL;
		blobs[i] = NULL;
	}
	result->output_count = action->output_count;
	result->meta = action->meta;
	result->meta_size = action->meta_size;
	action->meta = NULL;
	cli_action_release(action);
	return true;
}
