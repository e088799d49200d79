/*
 * key.h - hashes (XXH3-128), file states, and the source key: a canonical
 * byte string covering everything that changes a source's outputs, hashed
 * for the manifest (key.c).  docs/build.md ("The source key") documents it.
 */
#ifndef ANIMC_BUILD_KEY_H
#define ANIMC_BUILD_KEY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include <xxhash.h>

#include "options.h"

typedef struct build_hash {
	uint8_t bytes[16];   /* XXH3-128, canonical (big-endian) form */
} build_hash;

void build_hash_bytes(const void *data, size_t size, build_hash *out);
void build_hash_from_state(XXH3_state_t *state, build_hash *out);
/* The hashes of data[0, prefix) and of data[0, size), in one pass. */
void build_hash_bytes_and_prefix(const void *data, size_t prefix, size_t size, build_hash *first, build_hash *whole);
bool build_hash_equal(const build_hash *a, const build_hash *b);
void build_hash_hex(const build_hash *h, char out[33]);
bool build_hash_parse(const char *hex, build_hash *out);
/* XXH3-128 of a file's bytes; false (err filled) when it cannot be read. */
bool build_hash_file(const char *path, build_hash *out, cli_error *err);

/* What identifies a file's version cheaply (the fast path): size, mtime,
 * inode and device.  mtime_ns 0 means "not trusted": compare by content. */
typedef struct build_file_state {
	uint64_t size;
	int64_t mtime_ns;
	uint64_t ino, dev;
} build_file_state;

void build_file_state_from(const struct stat *st, build_file_state *out);
/* The same for a source, a file its import read or the skeleton: the
 * later of mtime and ctime stands for mtime, so that a copy keeping the
 * size and mtime written over the file in place (cp -p, rsync -a
 * --inplace, a reproducible export) is compared by content, as git does.
 * Outputs, which only animc writes and the cache may link, keep mtime. */
void build_source_state_from(const struct stat *st, build_file_state *out);
bool build_file_state_equal(const build_file_state *a, const build_file_state *b);
/* Sources and what their imports read (not outputs, which only animc
 * writes): a state from the last two seconds is not trusted (mtime_ns 0). */
void build_file_state_distrust_recent(build_file_state *s);
/* Whether the file of `st` was written, or put in place, between from_ns
 * and to_ns (CLOCK_REALTIME): by its mtime, or by its ctime, which a copy
 * keeping an older mtime (cp -p, rsync -a, tar x) still moves. */
bool build_file_written_between(const struct stat *st, int64_t from_ns, int64_t to_ns);

/* ----------------------------------------------------------- the key */

/* "animc VERSION BUILD" (the commit animc was built from, as --version
 * says it; "animc VERSION" for a tree that names no commit): the key's tool line,
 * and the reports' "tool". */
const char *build_tool_name(void);

/* Emits the canonical key bytes somewhere (an XXH3 state, or a SHA-256). */
typedef void (*build_key_emit)(void *user, const void *data, size_t size);

/* The part of every source's key that the run shares: format version, tool
 * and library versions, the byte-changing options (sorted by name), and
 * the skeleton model's bytes (NULL when none). */
void build_key_prefix(const build_options *o, const uint8_t *skeleton, size_t skeleton_size,
		      build_key_emit emit, void *user);
/* The same without the skeleton's bytes: what the manifest compares. */
void build_key_options(const build_options *o, build_key_emit emit, void *user);
/* One file of a source: the source itself (role "source", name its base
 * name) or another file its import read (role "file", name relative to the
 * source's folder when under it). */
void build_key_file(const char *role, const char *name, const uint8_t *data, size_t size,
		    build_key_emit emit, void *user);
/* A file an import looked for beside the source and did not find (name
 * as for build_key_file): its absence shaped the output. */
void build_key_absent(const char *name, build_key_emit emit, void *user);
void build_key_end(build_key_emit emit, void *user);
/* An emitter feeding an XXH3_state_t. */
void build_key_emit_xxh3(void *state, const void *data, size_t size);

#endif
