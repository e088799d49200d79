/*
 * cache_digest.c - the digests of the remote cache protocol: SHA-256
 * (nettle) of a byte string with its size, and their lowercase hex names.
 */
#include <string.h>

#include <nettle/sha2.h>

#include "cache.h"

void cli_sha256(const void *data, size_t size, uint8_t out[CLI_SHA256_BYTES])
{
	struct sha256_ctx ctx;

	sha256_init(&ctx);
	sha256_update(&ctx, size, data);
	sha256_digest(&ctx, SHA256_DIGEST_SIZE, out);
}

void cli_digest_of(const void *data, size_t size, cli_digest *out)
{
	cli_sha256(data, size, out->sha256);
	out->size_bytes = size;
}

void cli_hex(const uint8_t *bytes, size_t size, char *out)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < size; i++) {
		out[2 * i] = digits[bytes[i] >> 4];
		out[2 * i + 1] = digits[bytes[i] & 15];
	}
	out[2 * size] = '\0';
}

bool cli_digest_equal(const cli_digest *a, const cli_digest *b)
{
	return a->size_bytes == b->size_bytes && memcmp(a->sha256, b->sha256, CLI_SHA256_BYTES) == 0;
}

bool cli_digest_matches(const void *data, size_t size, const cli_digest *want)
{
	cli_digest got;

	cli_digest_of(data, size, &got);
	return cli_digest_equal(&got, want);
}

/* Each lower-case hex digit's value + 1; 0 for any other byte. */
static const uint8_t hex_values[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
};

static int hex_digit(char c)
{
	return hex_values[(unsigned char)c] - 1;
}

bool cli_hex_decode(const char *hex, size_t size, uint8_t *out)
{
	for (size_t i = 0; i < size; i++) {
		int hi = hex_digit(hex[2 * i]), lo = hi < 0 ? -1 : hex_digit(hex[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return false;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return true;
}
