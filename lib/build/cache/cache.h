/*
 * cache.h - the build cache and sharding: what compiling a source produced,
 * kept under the source's key in a Bazel HTTP remote cache (--cache-url), in
 * a folder with the same layout (--cache-dir), or both; and --shard, a stable
 * share of the sources for one machine of many.
 *
 *     cli_cache *cache;
 *     cli_cache_options opt = { .url = url };
 *
 *     if (!cli_cache_open(&opt, &cache, &err))   // a usage error
 *             ...
 *     for (i = 0; i < job_count; i++) {                      // all at once:
 *             cli_cache_key_of(key_bytes[i], key_size[i], &key[i]);
 *             cli_cache_lookup(cache, i, &key[i]);           // they run in parallel
 *     }
 *     for (i = 0; i < job_count; i++)
 *             if (cli_cache_take(cache, i, true, &result) == CLI_CACHE_HIT)
 *                     commit result.outputs (digests already checked);
 *             else
 *                     compile, commit, then cli_cache_store(cache, &key[i], ...);
 *     cli_cache_close(cache, 5.0, &stats);                   // waits for uploads
 *
 * The cache only ever saves work.  Every problem it meets (a server down,
 * slow, refusing, answering garbage, or bytes that do not match their digest)
 * is a warning, printed once per kind and run, and a miss: the caller
 * compiles.  No function here fails a build.
 *
 * Lookups and stores run on a thread of the cache's own; remote transfers
 * go through libcurl, which that thread loads when the first lookup or store
 * needs it (a build with nothing to look up loads nothing).
 * The caller's thread only queues work and takes results; warnings reach
 * the caller's sink from the caller's thread, inside cli_cache_lookup,
 * _take, _store, _before_fork and _close.  Identical keys within a run
 * cost one request: later lookups wait for the first and get copies.
 *
 * Credentials never come from the command line: a URL given with a user name
 * or password is refused.  They come from the environment
 * (ANIMC_CACHE_USER and ANIMC_CACHE_PASSWORD, or ANIMC_CACHE_HEADER for a
 * token header) or a netrc file (ANIMC_CACHE_NETRC, else ~/.netrc), and
 * messages never print them: URLs are shown through cli_url_redact.
 */
#ifndef ANIMC_CMD_CACHE_H
#define ANIMC_CMD_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <animc/animc.h>
#include "error.h"

/* --------------------------------------------------------------- digests */

/* SHA-256 (nettle) of a byte string; the digest of the protocol is the hash
 * and the size together. */
#define CLI_SHA256_BYTES 32
#define CLI_SHA256_HEX_BYTES 65 /* 64 lowercase hex digits and a NUL */

typedef struct cli_digest {
	uint8_t sha256[CLI_SHA256_BYTES];
	uint64_t size_bytes;
} cli_digest;

void cli_sha256(const void *data, size_t size, uint8_t out[CLI_SHA256_BYTES]);
void cli_digest_of(const void *data, size_t size, cli_digest *out);
bool cli_digest_equal(const cli_digest *a, const cli_digest *b);
/* Whether data[0..size) has the digest `want`. */
bool cli_digest_matches(const void *data, size_t size, const cli_digest *want);
/* Lowercase hex of `size` bytes into `out` (2 * size + 1 bytes). */
void cli_hex(const uint8_t *bytes, size_t size, char *out);
/* The reverse: 2 * size lowercase hex digits into out[0..size); false at
 * the first character that is not one (read no further). */
bool cli_hex_decode(const char *hex, size_t size, uint8_t *out);

/* ----------------------------------------------------- the action result */

/*
 * What the cache keeps for one source: its outputs (paths relative to the
 * output folder, with their bytes) and `meta`, bytes the caller wants back
 * with them (its stats and diagnostics), opaque here.
 */
typedef struct cli_cache_output {
	char *path;        /* '/'-separated, relative, no "." or ".." parts */
	uint8_t *data;
	size_t size;
} cli_cache_output;

typedef struct cli_cache_result {
	cli_cache_output *outputs;
	size_t output_count;
	uint8_t *meta;
	size_t meta_size;
} cli_cache_result;

/* Free what a result owns (all of it, for results the cache gave out);
 * accepts an empty result. */
void cli_cache_result_release(cli_cache_result *result);

/*
 * The action cache entry: REAPI's ActionResult protobuf message
 * (build.bazel.remote.execution.v2), so servers that validate entries
 * (bazel-remote) accept it.  Written: output_files = 2 (OutputFile: path = 1,
 * digest = 2 (Digest: hash = 1, size_bytes = 2)), then stdout_raw = 5, which
 * holds the line "animc-cache 1 outputs=N\n" followed by the caller's meta.
 * That line, written last, makes a cut-short entry unreadable rather than an
 * entry with fewer outputs.
 */
typedef struct cli_action_output {
	char *path;
	cli_digest digest;
} cli_action_output;

typedef struct cli_action {
	cli_action_output *outputs;
	size_t output_count;
	uint8_t *meta;
	size_t meta_size;
} cli_action;

#define CLI_ACTION_MAX_OUTPUTS 65536u
#define CLI_ACTION_MAX_PATH_BYTES 4096u
/* An entry animc writes holds paths, digests and a result without its
 * bytes: kilobytes.  A larger answer is the server's fault (a page, an
 * endless body), refused before it costs a download; an entry that would
 * encode larger is not stored. */
#define CLI_ACTION_MAX_BYTES ((size_t)1 << 20)

/* The encoded entry (malloc()ed) for `action`; false when out of memory. */
bool cli_action_encode(const cli_action *action, uint8_t **data, size_t *size);
/*
 * Decode an entry strictly: every length is bounds-checked, fields this
 * program does not write are skipped by wire type (servers add some), and
 * anything that cannot be a complete animc entry (a path that is absolute or
 * climbs, a bad hash, a duplicate path, output directories, a non-zero exit
 * code, no header line or the wrong output count) fails with the reason and
 * byte offset in *err.  On success the caller owns *action.
 */
bool cli_action_decode(const uint8_t *data, size_t size, cli_action *action, cli_error *err);
void cli_action_release(cli_action *action);
/* Whether a relative output path is safe to write under the output folder. */
bool cli_action_path_is_safe(const char *path);

/* ------------------------------------------------------------- the cache */

typedef struct cli_cache cli_cache;

typedef struct cli_cache_options {
	const char *url;          /* Bazel HTTP remote cache (http:// or https://), or NULL */
	const char *dir;          /* a folder with the same ac/ and cas/ layout, or NULL */
	bool is_read_only;        /* look up and fetch; never store */
	/* A remote transfer fails when its connection is not made, or it sends
	 * and receives nothing, for this long; and in any case after 12 times
	 * this.  0: 5 s.  Whole seconds (at least 1) but for the connection. */
	double timeout_s;
	unsigned max_transfers;   /* remote transfers in flight at once; 0: 8 */
	animc_diag_sink *sink;    /* warnings (NULL: printed to stderr) */
	/* A stop (a signal's handler sets it non-zero): cli_cache_close then
	 * gives up what is under way at once, whatever its wait (NULL: none). */
	const volatile int *stop;
} cli_cache_options;

typedef enum cli_cache_status {
	CLI_CACHE_PENDING,  /* not known yet (only when not waiting) */
	CLI_CACHE_HIT,      /* the outputs, each checked against its digest */
	CLI_CACHE_MISS      /* not there, not usable, or not asked */
} cli_cache_status;

/* What can go wrong; the first of each kind in a run is a warning. */
typedef enum cli_cache_problem {
	CLI_CACHE_NO_LIBCURL,     /* libcurl could not be loaded */
	CLI_CACHE_UNREACHABLE,    /* no connection, or it broke */
	CLI_CACHE_NO_DESCRIPTOR,  /* no file descriptor left here for a connection */
	CLI_CACHE_TIMEOUT,        /* no progress within the time-out */
	CLI_CACHE_DENIED,         /* a read answered 401, 403 or 407 */
	CLI_CACHE_REFUSED,        /* a store answered with another 4xx */
	CLI_CACHE_SERVER_ERROR,   /* 5xx, or a status the protocol has no place for */
	CLI_CACHE_CORRUPT,        /* bytes that do not match their digest, a bad entry */
	CLI_CACHE_DIR_READ,       /* the cache folder could not be read */
	CLI_CACHE_DIR_WRITE,      /* ... or written */
	CLI_CACHE_PROBLEM_COUNT
} cli_cache_problem;

typedef struct cli_cache_stats {
	size_t lookups, hits, misses, stored;
	size_t errors;            /* problems met, all kinds */
	size_t problems[CLI_CACHE_PROBLEM_COUNT];
	size_t skipped_lookups, skipped_stores; /* not made: the remote had been given up */
	size_t abandoned_stores;  /* not made: close's wait ran out, or the run stopped */
	uint64_t fetched_bytes, stored_bytes;
} cli_cache_stats;

/*
 * Check the options and make a cache, starting its thread; false, with the
 * reason in *err, for a URL that is not http(s)://, carries credentials or
 * a query, or for neither a URL nor a folder.  Nothing is contacted yet: a
 * server that is down shows later, as warnings.
 */
bool cli_cache_open(const cli_cache_options *options, cli_cache **cache, cli_error *err);
/* The URL checks of cli_cache_open alone (for option parsing). */
bool cli_cache_url_check(const char *url, cli_error *err);

/* A source's key as the cache names it: the SHA-256 of the key's bytes;
 * its entry is URL/ac/<the hash in hex>. */
typedef struct cli_cache_key {
	uint8_t sha256[CLI_SHA256_BYTES];
} cli_cache_key;

void cli_cache_key_of(const void *bytes, size_t size, cli_cache_key *key);

/* Around fork(): before_fork waits until the thread is parked where it
 * holds no lock, between two batches of work (a child forked while it is
 * inside malloc, libcurl or the dynamic loader, loading libcurl say, would
 * inherit their locks held);
 * after_fork, in the parent, lets it go on.  The child must not use the
 * cache. */
void cli_cache_before_fork(cli_cache *cache);
void cli_cache_after_fork(cli_cache *cache);

/* Look a key up in the background; `id` (small, caller-chosen, unique per
 * lookup) names it for cli_cache_take. */
void cli_cache_lookup(cli_cache *cache, size_t id, const cli_cache_key *key);
/* The same, with the key computed on the cache's thread by `keyer`
 * (reading a source and hashing it takes time a build's main loop does not
 * have); false from it makes the lookup a miss.  `user` must live until
 * the lookup is taken or the cache closed; keyer may run at any time until
 * then, but never for a lookup the cache no longer needs. */
typedef bool (*cli_cache_keyer)(void *user, size_t id, cli_cache_key *key);
void cli_cache_lookup_with(cli_cache *cache, size_t id, cli_cache_keyer keyer, void *user);
/* The key of `id` computed as cli_cache_lookup_with does, for a store by
 * id, and nothing fetched (--rebuild); no answer to take. */
void cli_cache_key_with(cli_cache *cache, size_t id, cli_cache_keyer keyer, void *user);

/* The outcome of lookup `id`; with `wait`, never CLI_CACHE_PENDING.  On a hit
 * the caller owns *result (cli_cache_result_release).  An id never looked up
 * is a miss.  A caller that does not wait polls cli_cache_fd. */
cli_cache_status cli_cache_take(cli_cache *cache, size_t id, bool wait, cli_cache_result *result);
/* Store a result under `key` in the background (the cache copies it); output
 * blobs go first, the action entry only once they are all stored.  Does
 * nothing for a read-only cache, or a result with no outputs. */
void cli_cache_store(cli_cache *cache, const cli_cache_key *key, const cli_cache_result *result);
/* Store under the key lookup `id` had (nothing, when it had none). */
void cli_cache_store_id(cli_cache *cache, size_t id, const cli_cache_result *result);
/* Whether a store could still be made (not read-only, nothing given up):
 * a caller can spare itself the work of making one. */
bool cli_cache_is_storing(cli_cache *cache);
/* Whether a store by id would be of use: stores are on, and no earlier
 * lookup of this run had the same key (one source in several folders is
 * stored once).  Known once the lookup has come back. */
bool cli_cache_wants_store(cli_cache *cache, size_t id);

/* A descriptor for a caller's poll() loop, armed by this call: it becomes
 * readable once a lookup has finished since the caller last called
 * cli_cache_take (at once, if one has).  cli_cache_take empties it; after
 * each wake the caller takes every lookup it still waits for.  Unarmed,
 * it costs the cache nothing.  -1 for a NULL cache. */
int cli_cache_fd(cli_cache *cache);
/* Wait for the stores still under way, `wait_s` seconds at most (< 0: as
 * long as they take, each bounded by the time-outs), then drop the rest;
 * stop the thread, print a closing warning when work was dropped or given
 * up, and free everything.  `stats` may be NULL; accepts a NULL cache. */
void cli_cache_close(cli_cache *cache, double wait_s, cli_cache_stats *stats);

/*
 * `url` without what may be secret: user name, password, query and fragment
 * ("https://user:pw@host/c?t=x" -> "https://host/c").  Into `out`.
 */
void cli_url_redact(const char *url, char *out, size_t out_size);

/* --------------------------------------------------------------- shards */

/*
 * --shard K/N: a source belongs to shard
 *     1 + (first 8 bytes of SHA-256(path), big-endian) mod N
 * where path is the source's path relative to its input root, as bytes.
 * Each path's shard depends on that path and N alone: the N shards are
 * disjoint, cover every source, and adding a source moves no other.
 */
typedef struct cli_shard {
	uint32_t index; /* K, 1-based */
	uint32_t count; /* N */
} cli_shard;

#define CLI_SHARD_MAX 65536u

/* Parse "K/N", 1 <= K <= N <= CLI_SHARD_MAX. */
bool cli_shard_parse(const char *text, cli_shard *shard);
uint32_t cli_shard_of(const char *relative_path, uint32_t count);
bool cli_shard_has(const cli_shard *shard, const char *relative_path);

#endif
