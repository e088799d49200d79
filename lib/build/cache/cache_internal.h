/*
 * cache_internal.h - what the parts of the cache share: the queue and its
 * thread (cache_queue.c), the folder store (cache_dir.c), the HTTP client
 * (cache_http.c) and the action codec (cache_action.c).  Everything here
 * but cache_remote_wakeup runs on the cache's thread.
 */
#ifndef ANIMC_CMD_CACHE_INTERNAL_H
#define ANIMC_CMD_CACHE_INTERNAL_H

#include "cache.h"

/* Count one problem of `kind`; the first of each kind becomes a warning for
 * the caller. */
void cache_warn(cli_cache *cache, cli_cache_problem kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Move a decoded entry and its checked blobs (blobs[i] for output i, taken)
 * into a result; false when out of memory (nothing taken). */
bool cli_action_to_result(cli_action *action, uint8_t **blobs, cli_cache_result *result);

/* ------------------------------------------------------ the folder store */

typedef struct cache_dir {
	cli_cache *cache;          /* warned through */
	char *path;                /* DIR, without a trailing '/' */
	bool is_read_only;         /* --cache-read-only: nothing changed there, damage included */
	bool is_writable;          /* not read-only, and no write failed yet */
	bool has_kind[2];          /* ac/, cas/ made */
	char host[64];             /* in temporary names */
	unsigned long temp_counter;
} cache_dir;

/* False when out of memory. */
bool cache_dir_init(cache_dir *d, cli_cache *cache, const char *path, bool is_read_only);
void cache_dir_release(cache_dir *d);
/* A hit: the entry under `hex` and its blobs, each checked against its
 * digest, in *result.  A damaged file is warned of and removed (unless the
 * cache is read-only). */
bool cache_dir_lookup(cache_dir *d, const char *hex, cli_cache_result *result);
/* Blobs first, the entry last: a reader that finds the entry finds them.
 * A failed write is warned of and stops stores there (is_writable). */
void cache_dir_store(cache_dir *d, const char *hex, const cli_action *action, uint8_t *const *blobs,
		     const uint8_t *entry, size_t entry_size);

/* ------------------------------------------------------------ the remote */

typedef enum remote_outcome {
	REMOTE_OK,         /* a GET's body, or a PUT stored */
	REMOTE_NOT_FOUND,  /* GET: 404 */
	REMOTE_FAILED      /* anything else, already warned of */
} remote_outcome;

/* A finished transfer.  A GET's body (malloc()ed, NUL beyond size) passes to
 * the callee; NULL otherwise. */
typedef void (*remote_done_fn)(void *user, remote_outcome outcome, uint8_t *body, size_t size);

typedef struct cache_remote cache_remote;

/* Load libcurl and set up transfers to `url` (the cache's thread does, first
 * thing); NULL, warned of, when libcurl is missing. */
cache_remote *cache_remote_create(cli_cache *cache, const char *url, const char *shown_url,
				  double timeout_s, unsigned max_transfers);
void cache_remote_destroy(cache_remote *remote);
/* Make a cache_remote_step under way return now; any thread. */
void cache_remote_wakeup(cache_remote *remote);

/* Queue GET URL/kind/hex (kind "ac" or "cas"); a body longer than
 * `max_bytes` fails as corrupt.  False, and no callback, when the remote is
 * no longer used (it failed). */
bool cache_remote_get(cache_remote *remote, const char *kind, const char *hex, size_t max_bytes,
		      remote_done_fn fn, void *user);

typedef enum remote_put_status {
	REMOTE_PUT_QUEUED,   /* fn is called when done */
	REMOTE_PUT_PRESENT,  /* this run already stored or fetched the blob: no call */
	REMOTE_PUT_REFUSED   /* stores no longer made: no call */
} remote_put_status;

/* Queue PUT URL/kind/hex; `data` must live until fn is called.  Blobs of
 * "cas" are stored once per run: a second store of one waits for the first. */
remote_put_status cache_remote_put(cache_remote *remote, const char *kind, const char *hex,
				   const uint8_t *data, size_t size, remote_done_fn fn, void *user);
/* Note a blob known to be on the server (fetched), so it is not stored again. */
void cache_remote_note_present(cache_remote *remote, const char *hex);

bool cache_remote_is_busy(const cache_remote *remote);
/* Not given up (for reads; for stores). */
bool cache_remote_can_get(const cache_remote *remote);
bool cache_remote_can_put(const cache_remote *remote);
/* Run transfers: start queued ones, wait up to `timeout_ms` for progress,
 * call back for those done. */
void cache_remote_step(cache_remote *remote, int timeout_ms);
/* Stop: every transfer queued or in flight fails now (close's deadline). */
void cache_remote_abandon(cache_remote *remote);
/* Transfers not made because the remote had failed: lookups, stores. */
void cache_remote_skipped(const cache_remote *remote, size_t *gets, size_t *puts);

#endif
