/*
 * key.c - the source key and the hashes of the build engine.  A source's
 * key is a canonical byte string (docs/build.md, "The source key", gives it
 * exactly), version KEY_VERSION (3):
 *
 *   "animc-source-key 3\n"
 *   "tool animc <version> <build>\n"
 *   "libs <animc_formats_versions()>\n"
 *   "option <name> <length>\n<value>\n"          each byte-changing option,
 *                                                sorted by name, repeats in
 *                                                the order given
 *   "skeleton <size>\n<bytes>\n"                 with --skeleton
 *   "source <length>\n<name>\n<size>\n<bytes>\n" the source, by base name
 *   "job 0\n\n<size>\n<facts>\n"                  what applies to this source
 *                                                alone (plan.c), if anything
 *   "file <length>\n<name>\n<size>\n<bytes>\n"   each other file its import
 *                                                read, sorted by name
 *   "absent <length>\n<name>\n"                   each file a reader looked
 *                                                for and did not find
 *   "end\n"
 *
 * The manifest keeps its XXH3-128; a remote cache may hash the same bytes
 * with SHA-256.  The first part is the same for every source of a run, so
 * its hash state is computed once and copied.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "key.h"

#if __has_include(<build_id.h>)
#include <build_id.h>   /* made by the Makefile: the commit built from */
#endif
#ifndef ANIMC_BUILD_ID
#define ANIMC_BUILD_ID ""
#endif

#define KEY_VERSION "3"

void build_hash_bytes(const void *data, size_t size, build_hash *out)
{
	XXH128_canonical_t c;

	XXH128_canonicalFromHash(&c, XXH3_128bits(data, size));
	memcpy(out->bytes, c.digest, sizeof out->bytes);
}

void build_hash_from_state(XXH3_state_t *state, build_hash *out)
{
	XXH128_canonical_t c;

	XXH128_canonicalFromHash(&c, XXH3_128bits_digest(state));
	memcpy(out->bytes, c.digest, sizeof out->bytes);
}

void build_hash_bytes_and_prefix(const void *data, size_t prefix, size_t size, build_hash *first, build_hash *whole)
{
	XXH3_state_t *state = XXH3_createState();

	if (!state || XXH3_128bits_reset(state) != XXH_OK || XXH3_128bits_update(state, data, prefix) != XXH_OK) {
		XXH3_freeState(state);
		build_hash_bytes(data, prefix, first);
		build_hash_bytes(data, size, whole);
		return;
	}
	build_hash_from_state(state, first);
	if (XXH3_128bits_update(state, (const uint8_t *)data + prefix, size - prefix) == XXH_OK)
		build_hash_from_state(state, whole);
	else
		build_hash_bytes(data, size, whole);
	XXH3_freeState(state);
}

bool build_hash_equal(const build_hash *a, const build_hash *b)
{
	return memcmp(a->bytes, b->bytes, sizeof a->bytes) == 0;
}

void build_hash_hex(const build_hash *h, char out[33])
{
	static const char digits[] = "0123456789abcdef";

	for (int i = 0; i < 16; i++) {
		out[2 * i] = digits[h->bytes[i] >> 4];
		out[2 * i + 1] = digits[h->bytes[i] & 15];
	}
	out[32] = '\0';
}

bool build_hash_parse(const char *hex, build_hash *out)
{
	return cli_hex_decode(hex, sizeof out->bytes, out->bytes) && hex[32] == '\0';
}

bool build_hash_file(const char *path, build_hash *out, cli_error *err)
{
	uint8_t *data;
	size_t size;

	if (!cli_read_file(path, &data, &size, err))
		return false;
	build_hash_bytes(data, size, out);
	free(data);
	return true;
}

void build_file_state_from(const struct stat *st, build_file_state *out)
{
	out->size = (uint64_t)st->st_size;
	out->mtime_ns = (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
	out->ino = (uint64_t)st->st_ino;
	out->dev = (uint64_t)st->st_dev;
}

void build_source_state_from(const struct stat *st, build_file_state *out)
{
	int64_t ctime = (int64_t)st->st_ctim.tv_sec * 1000000000 + st->st_ctim.tv_nsec;

	build_file_state_from(st, out);
	if (ctime > out->mtime_ns)
		out->mtime_ns = ctime;
}

void build_file_state_distrust_recent(build_file_state *s)
{
	struct timespec now;

	/* A file changed within the last two seconds may change again within
	 * the file system's time granularity without its mtime moving (FAT, on
	 * USB sticks and SD cards, keeps mtime and ctime to 2 s): such a state
	 * is not trusted, and the next run compares contents. */
	clock_gettime(CLOCK_REALTIME, &now);
	if ((int64_t)now.tv_sec * 1000000000 + now.tv_nsec - s->mtime_ns < 2000000000)
		s->mtime_ns = 0;
}

bool build_file_written_between(const struct stat *st, int64_t from_ns, int64_t to_ns)
{
	int64_t mtime = (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
	int64_t ctime = (int64_t)st->st_ctim.tv_sec * 1000000000 + st->st_ctim.tv_nsec;

	return (mtime >= from_ns && mtime <= to_ns) || (ctime >= from_ns && ctime <= to_ns);
}

bool build_file_state_equal(const build_file_state *a, const build_file_state *b)
{
	return a->mtime_ns != 0 && a->mtime_ns == b->mtime_ns && a->size == b->size &&
	       a->ino == b->ino && a->dev == b->dev;
}

void build_key_emit_xxh3(void *state, const void *data, size_t size)
{
	XXH3_128bits_update(state, data, size);
}

static void emit_str(build_key_emit emit, void *user, const char *s)
{
	emit(user, s, strlen(s));
}

static void emit_header(build_key_emit emit, void *user, const char *word, uint64_t n)
{
	char line[64];

	snprintf(line, sizeof line, "%s %llu\n", word, (unsigned long long)n);
	emit_str(emit, user, line);
}

const char *build_tool_name(void)
{
	return ANIMC_BUILD_ID[0] ? "animc " ANIMC_VERSION_STRING " " ANIMC_BUILD_ID : "animc " ANIMC_VERSION_STRING;
}

void build_key_options(const build_options *o, build_key_emit emit, void *user)
{
	size_t pairs = o->key_options.count / 2;
	bool *done = pairs ? calloc(pairs, sizeof *done) : NULL;

	emit_str(emit, user, "animc-source-key " KEY_VERSION "\n");
	/* The build too: one version string covers commits that write
	 * other bytes. */
	emit_str(emit, user, "tool ");
	emit_str(emit, user, build_tool_name());
	emit_str(emit, user, "\n");
	emit_str(emit, user, "libs ");
	emit_str(emit, user, animc_formats_versions());
	emit_str(emit, user, "\n");
	/* By name, repeats of one option in the order given: pick the least
	 * name left each time (a handful of options; no allocation needed
	 * beyond the marks, and none at all when out of memory: then the
	 * order given, still a valid key). */
	for (size_t emitted = 0; emitted < pairs; emitted++) {
		size_t pick = emitted;

		if (done) {
			pick = SIZE_MAX;
			for (size_t i = 0; i < pairs; i++)
				if (!done[i] && (pick == SIZE_MAX ||
						 strcmp(o->key_options.items[2 * i], o->key_options.items[2 * pick]) < 0))
					pick = i;
			done[pick] = true;
		}
		emit_str(emit, user, "option ");
		emit_str(emit, user, o->key_options.items[2 * pick]);
		emit_header(emit, user, "", strlen(o->key_options.items[2 * pick + 1]));
		emit_str(emit, user, o->key_options.items[2 * pick + 1]);
		emit_str(emit, user, "\n");
	}
	free(done);
}

void build_key_prefix(const build_options *o, const uint8_t *skeleton, size_t skeleton_size,
		      build_key_emit emit, void *user)
{
	build_key_options(o, emit, user);
	if (skeleton) {
		emit_header(emit, user, "skeleton", skeleton_size);
		emit(user, skeleton, skeleton_size);
		emit_str(emit, user, "\n");
	}
}

void build_key_file(const char *role, const char *name, const uint8_t *data, size_t size,
		    build_key_emit emit, void *user)
{
	char line[32];

	emit_header(emit, user, role, strlen(name));
	emit_str(emit, user, name);
	snprintf(line, sizeof line, "\n%llu\n", (unsigned long long)size);
	emit_str(emit, user, line);
	emit(user, data, size);
	emit_str(emit, user, "\n");
}

void build_key_absent(const char *name, build_key_emit emit, void *user)
{
	emit_header(emit, user, "absent", strlen(name));
	emit_str(emit, user, name);
	emit_str(emit, user, "\n");
}

void build_key_end(build_key_emit emit, void *user)
{
	emit_str(emit, user, "end\n");
}
