/*
 * shard.c - --shard K/N: which of N machines compiles a source, from the
 * SHA-256 of its path relative to its input root (see cache.h).
 */
#include <stdlib.h>
#include <string.h>

#include "cache.h"

static bool parse_count(const char *s, const char *end, uint32_t *out)
{
	uint64_t v = 0;

	if (s == end || end - s > 6)
		return false;
	for (; s < end; s++) {
		if (*s < '0' || *s > '9')
			return false;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = (uint32_t)v;
	return true;
}

bool cli_shard_parse(const char *text, cli_shard *shard)
{
	const char *slash = strchr(text, '/');
	uint32_t k, n;

	if (!slash || !parse_count(text, slash, &k) || !parse_count(slash + 1, slash + strlen(slash), &n))
		return false;
	if (n < 1 || n > CLI_SHARD_MAX || k < 1 || k > n)
		return false;
	shard->index = k;
	shard->count = n;
	return true;
}

uint32_t cli_shard_of(const char *relative_path, uint32_t count)
{
	uint8_t hash[CLI_SHA256_BYTES];
	uint64_t h = 0;

	cli_sha256(relative_path, strlen(relative_path), hash);
	for (int i = 0; i < 8; i++)
		h = h << 8 | hash[i];
	return count ? (uint32_t)(h % count) + 1 : 1;
}

bool cli_shard_has(const cli_shard *shard, const char *relative_path)
{
	return !shard || shard->count <= 1 || cli_shard_of(relative_path, shard->count) == shard->index;
}
