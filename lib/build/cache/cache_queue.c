/*
 * cache_queue.c - the build cache's front (see cache.h): the queue of
 * lookups and stores and the thread that works through them, against the
 * folder store (cache_dir.c) and the HTTP client (cache_http.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <nettle/sha2.h>

#include "cli.h"
#include "clock.h"
#include "cache_internal.h"

void cli_cache_result_release(cli_cache_result *result)
{
	if (!result)
		return;
	for (size_t i = 0; i < result->output_count; i++) {
		free(result->outputs[i].path);
		free(result->outputs[i].data);
	}
	free(result->outputs);
	free(result->meta);
	memset(result, 0, sizeof *result);
}

static bool copy_result(const cli_cache_result *from, cli_cache_result *to)
{
	memset(to, 0, sizeof *to);
	to->outputs = calloc(from->output_count ? from->output_count : 1, sizeof *to->outputs);
	to->meta = malloc(from->meta_size + 1);
	if (!to->outputs || !to->meta)
		goto fail;
	for (size_t i = 0; i < from->output_count; i++) {
		cli_cache_output *o = &to->outputs[i];

		to->output_count = i + 1;
		o->path = strdup(from->outputs[i].path);
		o->data = malloc(from->outputs[i].size + 1);
		if (!o->path || !o->data)
			goto fail;
		o->size = from->outputs[i].size;
		memcpy(o->data, from->outputs[i].data, o->size);
	}
	memcpy(to->meta, from->meta, from->meta_size);
	to->meta_size = from->meta_size;
	return true;
fail:
	cli_cache_result_release(to);
	return false;
}

/* ------------------------------------------------------------ the cache */

typedef struct lookup lookup;
typedef struct store store;

/* Hex names to pointers, open addressing; entries are never removed (a
 * value goes back to NULL instead). */
typedef struct keymap {
	char (*keys)[CLI_SHA256_HEX_BYTES];
	void **values;
	size_t count, capacity;
} keymap;

static char miss_mark, hit_mark, stored_mark;
#define MISS_MARK ((void *)&miss_mark)
#define HIT_MARK ((void *)&hit_mark)
#define STORED_MARK ((void *)&stored_mark)

static size_t keymap_hash(const char *hex, size_t capacity)
{
	uint64_t h = 0;

	for (int i = 0; i < 16; i++)
		h = h << 4 | (uint64_t)(hex[i] <= '9' ? hex[i] - '0' : hex[i] - 'a' + 10);
	return (size_t)(h & (capacity - 1));
}

/* The value slot of `hex`, made (NULL) when absent; NULL when out of memory. */
static void **keymap_slot(keymap *m, const char *hex)
{
	size_t i;

	if (2 * (m->count + 1) > m->capacity) {
		size_t capacity = m->capacity ? m->capacity * 2 : 256;
		char(*keys)[CLI_SHA256_HEX_BYTES] = calloc(capacity, sizeof *keys);
		void **values = calloc(capacity, sizeof *values);

		if (!keys || !values) {
			free(keys);
			free(values);
			return NULL;
		}
		for (size_t j = 0; j < m->capacity; j++) {
			if (!m->keys[j][0])
				continue;
			for (i = keymap_hash(m->keys[j], capacity); keys[i][0]; i = (i + 1) & (capacity - 1))
				;
			memcpy(keys[i], m->keys[j], CLI_SHA256_HEX_BYTES);
			values[i] = m->values[j];
		}
		free(m->keys);
		free(m->values);
		m->keys = keys;
		m->values = values;
		m->capacity = capacity;
	}
	for (i = keymap_hash(hex, m->capacity); m->keys[i][0]; i = (i + 1) & (m->capacity - 1))
		if (strcmp(m->keys[i], hex) == 0)
			return &m->values[i];
	memcpy(m->keys[i], hex, CLI_SHA256_HEX_BYTES);
	m->values[i] = NULL;
	m->count++;
	return &m->values[i];
}

static void keymap_release(keymap *m)
{
	free(m->keys);
	free(m->values);
	memset(m, 0, sizeof *m);
}

/* One output of a lookup, fetched from the remote. */
typedef struct blob_ref {
	lookup *lookup;
	size_t index;
} blob_ref;

struct lookup {
	cli_cache *cache;
	size_t id;
	char hex[CLI_SHA256_HEX_BYTES];  /* the action entry's name */
	cli_cache_status status;         /* under the lock */
	cli_cache_result result;         /* a hit's, until taken */
	/* The thread's, while it fetches from the remote. */
	cli_action action;
	uint8_t **blobs;
	blob_ref *refs;
	size_t blobs_pending;
	bool has_failed;
	lookup *followers;               /* lookups of the same key, waiting for this one */
	cli_cache_keyer keyer;           /* computes the key on the thread; NULL: hex is set */
	void *keyer_user;
	bool is_key_only;                /* the key for a store by id, nothing fetched */
	lookup *next;                    /* in the queue, or among the followers */
};

struct store {
	cli_cache *cache;
	char hex[CLI_SHA256_HEX_BYTES];
	bool is_by_id;             /* under the key lookup `id` computed */
	size_t id;
	cli_cache_result result;   /* a copy of the caller's */
	cli_action action;         /* its paths are result's */
	uint8_t *entry;            /* the encoded action entry */
	size_t entry_size;
	size_t puts_pending;
	bool has_failed;
	store *next;
};

struct cli_cache {
	char *url;
	cache_dir *dir;            /* the folder store; NULL: none */
	cache_dir folder;
	char shown_url[512];
	bool is_read_only;
	animc_diag_sink *sink;
	cache_remote *remote;

	pthread_mutex_t lock;
	pthread_cond_t work;       /* the thread: something queued, or stop */
	pthread_cond_t done;       /* the caller: a lookup finished */
	pthread_t thread;
	bool has_thread, is_stopping;
	double stop_deadline_s;    /* close: give up stores after this (< 0: never) */
	const volatile int *stop;  /* cli_cache_options.stop */
	bool is_kicked;            /* the thread was woken and has not taken the queue yet */
	/* fork() while the thread is inside malloc (or libcurl, or the
	 * sanitizers' allocator) leaves the child a lock nobody will release:
	 * around a fork the thread is parked where it holds none. */
	unsigned pause_count;      /* cli_cache_before_fork calls not yet undone */
	bool is_parked;
	pthread_cond_t parked;     /* the thread: parked; the caller: resume */
	double timeout_s;
	unsigned max_transfers;
	int wake[2];               /* cli_cache_fd: a byte when a lookup finishes */
	bool is_woken;
	bool is_wake_wanted;       /* cli_cache_fd armed it since the last take */
	size_t finished_count, seen_count;  /* lookups finished; as of the last take */
	bool is_polling;           /* the thread waits in curl's poll (else on `work`) */
	lookup *lookup_head, *lookup_tail;
	store *store_head, *store_tail;
	lookup **by_id;            /* lookups by id, until taken */
	size_t by_id_capacity;
	cli_strings messages;      /* warnings for the caller to print */
	bool is_warned[CLI_CACHE_PROBLEM_COUNT];
	cli_cache_stats stats;

	/* The thread's. */
	size_t active_lookups, active_stores;
	/* The thread's: entries asked of the remote, and how many it answered
	 * (found or not), so that a server that never answers is said. */
	size_t remote_asked, remote_answered;
	bool is_abandoned;
	bool is_abandoned_by_stop;  /* by the stop, not close's deadline */
	/* Keys this run asked for (a lookup under way, MISS_MARK, or HIT_MARK:
	 * a hit, whose copies went to their takers, is fetched again) and keys
	 * it stored: identical sources (one file in several folders) cost one
	 * lookup (while it is under way) and one store. */
	keymap asked, stored;
	/* The key of each lookup id, for stores by id ("" when none). */
	char (*hex_by_id)[CLI_SHA256_HEX_BYTES];
	size_t hex_by_id_capacity;
	/* Under the lock: lookups whose key an earlier lookup of the run asked
	 * for (a store of theirs would be the earlier one's again). */
	uint8_t *is_repeat_by_id;
	size_t is_repeat_capacity;
	bool can_store;            /* under the lock: a store could still be made */
};

void cache_warn(cli_cache *cache, cli_cache_problem kind, const char *fmt, ...)
{
	char *message = NULL;
	va_list ap;

	pthread_mutex_lock(&cache->lock);
	cache->stats.errors++;
	cache->stats.problems[kind]++;
	if (!cache->is_warned[kind]) {
		cache->is_warned[kind] = true;
		va_start(ap, fmt);
		if (vasprintf(&message, fmt, ap) < 0)
			message = NULL;
		va_end(ap);
		if (message)
			cli_strings_push(&cache->messages, message);
		free(message);
	}
	pthread_mutex_unlock(&cache->lock);
}

static void emit_as(cli_cache *cache, animc_severity severity, const char *message)
{
	if (cache->sink)
		animc_diag_report(cache->sink, severity, 0, 0, "%s", message);
	else
		cli_report(severity, NULL, "%s", message);
}

static void emit(cli_cache *cache, const char *message)
{
	emit_as(cache, ANIMC_WARNING, message);
}

/* Print the warnings the thread left, on the caller's thread. */
static void flush_warnings(cli_cache *cache)
{
	cli_strings messages;

	pthread_mutex_lock(&cache->lock);
	messages = cache->messages;
	memset(&cache->messages, 0, sizeof cache->messages);
	pthread_mutex_unlock(&cache->lock);
	for (size_t i = 0; i < messages.count; i++)
		emit(cache, messages.items[i]);
	cli_strings_release(&messages);
}


/* On the thread, under the lock: what cli_cache_is_storing says, known by
 * the time a lookup's answer is. */
static void update_can_store(cli_cache *cache)
{
	cache->can_store = !cache->is_read_only && !cache->is_abandoned &&
			   ((cache->dir && cache->dir->is_writable) ||
			    (cache->remote && cache_remote_can_put(cache->remote)));
}

static void finish_lookup(cli_cache *cache, lookup *l, cli_cache_status status)
{
	if (status != CLI_CACHE_HIT)
		cli_cache_result_release(&l->result);
	pthread_mutex_lock(&cache->lock);
	update_can_store(cache);
	l->status = status;
	if (status == CLI_CACHE_HIT) {
		cache->stats.hits++;
		for (size_t i = 0; i < l->result.output_count; i++)
			cache->stats.fetched_bytes += l->result.outputs[i].size;
	} else {
		cache->stats.misses++;
	}
	cache->finished_count++;
	if (cache->is_wake_wanted && !cache->is_woken && cache->wake[1] >= 0)
		cache->is_woken = write(cache->wake[1], "", 1) == 1;
	pthread_cond_broadcast(&cache->done);
	pthread_mutex_unlock(&cache->lock);
}

/* A lookup that asked the remote is done: the same answer for the lookups
 * of the same key that waited for it, then its own. */
static void complete_lookup(cli_cache *cache, lookup *l, cli_cache_status status)
{
	void **slot = keymap_slot(&cache->asked, l->hex);

	if (slot)
		*slot = status == CLI_CACHE_HIT ? HIT_MARK : MISS_MARK;
	while (l->followers) {
		lookup *f = l->followers;
		bool is_hit = status == CLI_CACHE_HIT && copy_result(&l->result, &f->result);

		l->followers = f->next;
		finish_lookup(cache, f, is_hit ? CLI_CACHE_HIT : CLI_CACHE_MISS);
	}
	finish_lookup(cache, l, status);
}

static void finish_remote_lookup(lookup *l)
{
	cli_cache *cache = l->cache;
	bool is_hit = false;

	cache->active_lookups--;
	if (!l->has_failed) {
		if (cache->dir && cache->dir->is_writable && !cache->is_read_only) {
			uint8_t *entry;
			size_t size;

			/* What the remote had, kept in the folder too. */
			if (cli_action_encode(&l->action, &entry, &size)) {
				cache_dir_store(cache->dir, l->hex, &l->action, l->blobs, entry, size);
				free(entry);
			}
		}
		is_hit = cli_action_to_result(&l->action, l->blobs, &l->result);
	}
	for (size_t i = 0; l->blobs && i < l->action.output_count; i++)
		free(l->blobs[i]);
	free(l->blobs);
	free(l->refs);
	l->blobs = NULL;
	l->refs = NULL;
	cli_action_release(&l->action);
	complete_lookup(cache, l, is_hit ? CLI_CACHE_HIT : CLI_CACHE_MISS);
}

static void on_blob(void *user, remote_outcome outcome, uint8_t *body, size_t size)
{
	blob_ref *ref = user;
	lookup *l = ref->lookup;
	const cli_digest *digest = &l->action.outputs[ref->index].digest;

	if (outcome == REMOTE_OK && cli_digest_matches(body, size, digest)) {
		char hex[CLI_SHA256_HEX_BYTES];

		cli_hex(digest->sha256, CLI_SHA256_BYTES, hex);
		cache_remote_note_present(l->cache->remote, hex);
		l->blobs[ref->index] = body;
		body = NULL;
	} else {
		if (outcome == REMOTE_OK) {
			char hex[CLI_SHA256_HEX_BYTES];

			cli_hex(digest->sha256, CLI_SHA256_BYTES, hex);
			cache_warn(l->cache, CLI_CACHE_CORRUPT,
				   "remote cache '%s': cas/%s does not match its digest; compiling instead",
				   l->cache->shown_url, hex);
		}
		l->has_failed = true;
	}
	free(body);
	if (--l->blobs_pending == 0)
		finish_remote_lookup(l);
}

static void on_entry(void *user, remote_outcome outcome, uint8_t *body, size_t size)
{
	lookup *l = user;
	cli_cache *cache = l->cache;
	cli_error err;
	size_t n;

	if (outcome != REMOTE_FAILED)
		cache->remote_answered++;
	if (outcome != REMOTE_OK) {
		free(body);
		l->has_failed = true;
		finish_remote_lookup(l);
		return;
	}
	if (!cli_action_decode(body, size, &l->action, &err)) {
		cache_warn(cache, CLI_CACHE_CORRUPT, "remote cache '%s': entry ac/%s is unusable (%s); compiling instead",
			   cache->shown_url, l->hex, err.message);
		free(body);
		l->has_failed = true;
		finish_remote_lookup(l);
		return;
	}
	free(body);
	n = l->action.output_count;
	l->blobs = calloc(n ? n : 1, sizeof *l->blobs);
	l->refs = calloc(n ? n : 1, sizeof *l->refs);
	if (!l->blobs || !l->refs) {
		l->has_failed = true;
		finish_remote_lookup(l);
		return;
	}
	/* One count for this function, so that no callback finishes the lookup
	 * before every blob is asked for. */
	l->blobs_pending = 1;
	for (size_t i = 0; i < n && !l->has_failed; i++) {
		const cli_digest *digest = &l->action.outputs[i].digest;
		char hex[CLI_SHA256_HEX_BYTES];

		if (!digest->size_bytes) {
			l->blobs[i] = calloc(1, 1);   /* an empty blob */
			l->has_failed = !l->blobs[i];
			continue;
		}
		cli_hex(digest->sha256, CLI_SHA256_BYTES, hex);
		l->refs[i] = (blob_ref){ l, i };
		if (digest->size_bytes > CLI_MAX_INPUT_BYTES ||
		    !cache_remote_get(cache->remote, "cas", hex, (size_t)digest->size_bytes, on_blob, &l->refs[i]))
			l->has_failed = true;
		else
			l->blobs_pending++;
	}
	if (--l->blobs_pending == 0)
		finish_remote_lookup(l);
}

/* Remember lookup id's key for the store that may follow. */
/* An array indexed by lookup id with room for index `id`, new items zero:
 * `items` itself, or moved; NULL when memory runs out (`items` is then as
 * it was). */
static void *grow_by_id(void *items, size_t *capacity, size_t id, size_t item_size)
{
	size_t n = *capacity ? *capacity : 64;
	uint8_t *grown;

	if (id < *capacity)
		return items;
	while (n <= id)
		n *= 2;
	grown = realloc(items, n * item_size);
	if (!grown)
		return NULL;
	memset(grown + *capacity * item_size, 0, (n - *capacity) * item_size);
	*capacity = n;
	return grown;
}

static void note_key(cli_cache *cache, size_t id, const char *hex)
{
	void *grown = grow_by_id(cache->hex_by_id, &cache->hex_by_id_capacity, id, sizeof *cache->hex_by_id);

	if (!grown)
		return;
	cache->hex_by_id = grown;
	memcpy(cache->hex_by_id[id], hex, CLI_SHA256_HEX_BYTES);
}

static void note_repeat(cli_cache *cache, size_t id)
{
	uint8_t *grown;

	pthread_mutex_lock(&cache->lock);
	grown = grow_by_id(cache->is_repeat_by_id, &cache->is_repeat_capacity, id, 1);
	if (grown) {
		cache->is_repeat_by_id = grown;
		grown[id] = 1;
	}
	pthread_mutex_unlock(&cache->lock);
}

static bool is_usable(const cli_cache *cache)
{
	return cache->dir || (cache->remote && cache_remote_can_get(cache->remote));
}

static void start_lookup(cli_cache *cache, lookup *l, bool is_stopping)
{
	void **slot;

	/* Nobody waits for a fetch still queued at close, and a remote given
	 * up is not worth the key.  A key for a store (--rebuild) is made
	 * even then: the store waits for it, and a small build closes the
	 * cache before libcurl is loaded. */
	if ((is_stopping && !l->is_key_only) || !is_usable(cache)) {
		finish_lookup(cache, l, CLI_CACHE_MISS);
		return;
	}
	if (l->keyer) {
		cli_cache_key key;

		if (!l->keyer(l->keyer_user, l->id, &key)) {
			finish_lookup(cache, l, CLI_CACHE_MISS);
			return;
		}
		cli_hex(key.sha256, CLI_SHA256_BYTES, l->hex);
	}
	note_key(cache, l->id, l->hex);
	slot = keymap_slot(&cache->asked, l->hex);
	if (slot && *slot) {
		note_repeat(cache, l->id);
	}
	if (l->is_key_only) {
		if (slot && !*slot)
			*slot = MISS_MARK;
		pthread_mutex_lock(&cache->lock);
		l->status = CLI_CACHE_MISS;
		pthread_mutex_unlock(&cache->lock);
		return;
	}
	if (slot && *slot == MISS_MARK) {
		finish_lookup(cache, l, CLI_CACHE_MISS);
		return;
	}
	if (slot && *slot && *slot != HIT_MARK) {
		lookup *leader = *slot;

		l->next = leader->followers;
		leader->followers = l;
		return;
	}
	if (cache->dir && cache_dir_lookup(cache->dir, l->hex, &l->result)) {
		if (slot)
			*slot = HIT_MARK;
		finish_lookup(cache, l, CLI_CACHE_HIT);
		return;
	}
	if (cache->remote &&
	    cache_remote_get(cache->remote, "ac", l->hex, CLI_ACTION_MAX_BYTES, on_entry, l)) {
		cache->active_lookups++;
		cache->remote_asked++;
		if (slot)
			*slot = l;
		return;
	}
	if (slot)
		*slot = MISS_MARK;
	finish_lookup(cache, l, CLI_CACHE_MISS);
}

/* --------------------------------------------------------------- stores */

static void free_store(store *s)
{
	cli_cache *cache = s->cache;

	pthread_mutex_lock(&cache->lock);
	cache->active_stores--;
	pthread_mutex_unlock(&cache->lock);
	cli_cache_result_release(&s->result);
	free(s->action.outputs);
	free(s->entry);
	free(s);
}

static void on_entry_stored(void *user, remote_outcome outcome, uint8_t *body, size_t size)
{
	store *s = user;

	(void)size;
	free(body);
	if (outcome == REMOTE_OK) {
		pthread_mutex_lock(&s->cache->lock);
		s->cache->stats.stored++;
		for (size_t i = 0; i < s->result.output_count; i++)
			s->cache->stats.stored_bytes += s->result.outputs[i].size;
		pthread_mutex_unlock(&s->cache->lock);
	}
	free_store(s);
}

static void store_entry(store *s)
{
	if (s->has_failed || cache_remote_put(s->cache->remote, "ac", s->hex, s->entry, s->entry_size,
					      on_entry_stored, s) != REMOTE_PUT_QUEUED)
		free_store(s);
}

static void on_blob_stored(void *user, remote_outcome outcome, uint8_t *body, size_t size)
{
	store *s = user;

	(void)size;
	free(body);
	if (outcome != REMOTE_OK)
		s->has_failed = true;
	if (--s->puts_pending == 0)
		store_entry(s);
}

static void start_store(cli_cache *cache, store *s)
{
	cli_cache_result *r = &s->result;
	void **slot;

	if (s->is_by_id) {
		if (s->id >= cache->hex_by_id_capacity || !cache->hex_by_id[s->id][0]) {
			free_store(s);   /* its lookup made no key */
			return;
		}
		memcpy(s->hex, cache->hex_by_id[s->id], CLI_SHA256_HEX_BYTES);
	}
	slot = keymap_slot(&cache->stored, s->hex);

	/* One store per key and run. */
	if (slot && *slot) {
		free_store(s);
		return;
	}
	if (slot)
		*slot = STORED_MARK;

	s->action.outputs = calloc(r->output_count, sizeof *s->action.outputs);
	if (!s->action.outputs) {
		free_store(s);
		return;
	}
	for (size_t i = 0; i < r->output_count; i++) {
		s->action.outputs[i].path = r->outputs[i].path;
		cli_digest_of(r->outputs[i].data, r->outputs[i].size, &s->action.outputs[i].digest);
	}
	s->action.output_count = r->output_count;
	s->action.meta = r->meta;
	s->action.meta_size = r->meta_size;
	/* An entry over the limit could never be fetched: not stored. */
	if (!cli_action_encode(&s->action, &s->entry, &s->entry_size) || s->entry_size > CLI_ACTION_MAX_BYTES) {
		free_store(s);
		return;
	}
	if (cache->dir && cache->dir->is_writable) {
		uint8_t **blobs = calloc(r->output_count, sizeof *blobs);

		for (size_t i = 0; blobs && i < r->output_count; i++)
			blobs[i] = r->outputs[i].data;
		if (blobs)
			cache_dir_store(cache->dir, s->hex, &s->action, blobs, s->entry, s->entry_size);
		free(blobs);
		if (!cache->remote) {
			pthread_mutex_lock(&cache->lock);
			cache->stats.stored++;
			for (size_t i = 0; i < r->output_count; i++)
				cache->stats.stored_bytes += r->outputs[i].size;
			pthread_mutex_unlock(&cache->lock);
		}
	}
	if (!cache->remote) {
		free_store(s);
		return;
	}
	s->puts_pending = 1;
	for (size_t i = 0; i < r->output_count && !s->has_failed; i++) {
		char hex[CLI_SHA256_HEX_BYTES];

		if (!r->outputs[i].size)
			continue;
		cli_hex(s->action.outputs[i].digest.sha256, CLI_SHA256_BYTES, hex);
		switch (cache_remote_put(cache->remote, "cas", hex, r->outputs[i].data, r->outputs[i].size,
					 on_blob_stored, s)) {
		case REMOTE_PUT_QUEUED:
			s->puts_pending++;
			break;
		case REMOTE_PUT_PRESENT:
			break;
		case REMOTE_PUT_REFUSED:
			s->has_failed = true;
			break;
		}
	}
	if (--s->puts_pending == 0)
		store_entry(s);
}

/* ------------------------------------------------------------ the thread */

/* Past the deadline close gave, or the run stopped (`by_stop`): drop the
 * stores still to make. */
static void abandon(cli_cache *cache, bool by_stop)
{
	size_t dropped;

	pthread_mutex_lock(&cache->lock);
	dropped = cache->active_stores;
	pthread_mutex_unlock(&cache->lock);
	cache->is_abandoned = true;
	cache->is_abandoned_by_stop = by_stop;
	if (cache->remote)
		cache_remote_abandon(cache->remote);
	pthread_mutex_lock(&cache->lock);
	cache->stats.abandoned_stores = dropped;
	pthread_mutex_unlock(&cache->lock);
}

static void *thread_main(void *arg)
{
	cli_cache *cache = arg;
	bool is_remote_made = false;

	for (;;) {
		lookup *lookups;
		store *stores;
		bool is_busy, is_stopping;
		double deadline;
		int wait_ms = 1000;

		pthread_mutex_lock(&cache->lock);
		for (;;) {
			/* The one place a fork may happen: nothing held but this. */
			if (cache->pause_count) {
				cache->is_parked = true;
				pthread_cond_broadcast(&cache->parked);
				while (cache->pause_count)
					pthread_cond_wait(&cache->parked, &cache->lock);
				cache->is_parked = false;
			}
			is_busy = cache->remote && cache_remote_is_busy(cache->remote);
			if (cache->lookup_head || cache->store_head || is_busy || cache->is_stopping)
				break;
			/* A kick that came after the queue was last taken left
			 * is_kicked set, with nothing queued: cleared here, or the
			 * next kick would not signal and a lookup would wait forever. */
			cache->is_kicked = false;
			pthread_cond_wait(&cache->work, &cache->lock);
		}
		/* libcurl (tens of milliseconds to load) once a lookup or a store
		 * needs it: a build whose sources all skip the cache, or one with
		 * nothing to compile, never loads it.  Loaded between two
		 * parkings (no fork happens during the load), before the queue
		 * is taken (what was queued meanwhile goes in the same batch). */
		if ((cache->lookup_head || cache->store_head) && cache->url && !is_remote_made) {
			cache_remote *remote;

			pthread_mutex_unlock(&cache->lock);
			remote = cache_remote_create(cache, cache->url, cache->shown_url, cache->timeout_s,
						     cache->max_transfers);
			pthread_mutex_lock(&cache->lock);
			cache->remote = remote;
			is_remote_made = true;
		}
		lookups = cache->lookup_head;
		stores = cache->store_head;
		cache->lookup_head = cache->lookup_tail = NULL;
		cache->store_head = cache->store_tail = NULL;
		cache->is_kicked = false;
		is_stopping = cache->is_stopping;
		deadline = cache->stop_deadline_s;
		pthread_mutex_unlock(&cache->lock);

		/* A stopped run waits for no transfer (a --cache-wait build
		 * waited for a silent server up to --cache-timeout). */
		if (is_stopping && cache->stop && !cache->is_abandoned) {
			if (*cache->stop)
				abandon(cache, true);
			else
				wait_ms = 200;
		}
		if (is_stopping && deadline >= 0 && !cache->is_abandoned) {
			double left = deadline - build_now_s();

			if (left <= 0)
				abandon(cache, false);
			else if (left < 1)
				wait_ms = (int)(left * 1000) + 1;
		}
		/* Lookups first: the caller waits for them. */
		while (lookups) {
			lookup *next = lookups->next;

			start_lookup(cache, lookups, is_stopping);
			lookups = next;
		}
		while (stores) {
			store *next = stores->next;

			if (cache->is_abandoned)
				free_store(stores);
			else
				start_store(cache, stores);
			stores = next;
		}
		if (cache->remote && cache_remote_is_busy(cache->remote)) {
			bool is_kicked;

			/* From here a kick wakes curl's poll; one that came before
			 * (it only signalled `work`) means no waiting at all. */
			pthread_mutex_lock(&cache->lock);
			is_kicked = cache->is_kicked;
			cache->is_polling = true;
			pthread_mutex_unlock(&cache->lock);
			cache_remote_step(cache->remote, is_kicked ? 0 : wait_ms);
			pthread_mutex_lock(&cache->lock);
			cache->is_polling = false;
			pthread_mutex_unlock(&cache->lock);
		}
		pthread_mutex_lock(&cache->lock);
		update_can_store(cache);
		pthread_mutex_unlock(&cache->lock);
		if (cache->remote && cache_remote_is_busy(cache->remote))
			continue;
		pthread_mutex_lock(&cache->lock);
		if (cache->is_stopping && !cache->lookup_head && !cache->store_head && !cache->active_lookups &&
		    !cache->active_stores) {
			pthread_mutex_unlock(&cache->lock);
			break;
		}
		pthread_mutex_unlock(&cache->lock);
	}
	return NULL;
}

/* Start the thread on first use, with every signal blocked in it: signals
 * stay the caller's. */
static void ensure_thread(cli_cache *cache)
{
	sigset_t all, old;

	if (cache->has_thread)
		return;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	cache->has_thread = pthread_create(&cache->thread, NULL, thread_main, cache) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* Wake the thread, wherever it waits; once until it takes the queue, not
 * once per item (a build queues thousands in a row). */
static void kick(cli_cache *cache)
{
	bool is_needed;

	cache_remote *remote;

	pthread_mutex_lock(&cache->lock);
	is_needed = !cache->is_kicked;
	cache->is_kicked = true;
	/* Waiting in curl's poll: only its wakeup reaches it. */
	remote = cache->is_polling ? cache->remote : NULL;
	pthread_mutex_unlock(&cache->lock);
	if (!is_needed)
		return;
	pthread_cond_signal(&cache->work);
	if (remote)
		cache_remote_wakeup(remote);
}

/* -------------------------------------------------------------- the API */


bool cli_cache_open(const cli_cache_options *options, cli_cache **out, cli_error *err)
{
	cli_cache *cache;

	*out = NULL;
	if ((!options->url || !options->url[0]) && (!options->dir || !options->dir[0])) {
		cli_error_set(err, "a cache needs a URL or a folder");
		return false;
	}
	if (options->url && options->url[0] && !cli_cache_url_check(options->url, err))
		return false;
	if (options->timeout_s < 0 || options->timeout_s > 3600) {
		cli_error_set(err, "the cache time-out must be between 0 and 3600 seconds");
		return false;
	}
	cache = calloc(1, sizeof *cache);
	if (!cache) {
		cli_error_set(err, "out of memory");
		return false;
	}
	pthread_mutex_init(&cache->lock, NULL);
	pthread_cond_init(&cache->work, NULL);
	pthread_cond_init(&cache->done, NULL);
	pthread_cond_init(&cache->parked, NULL);
	if (pipe2(cache->wake, O_CLOEXEC | O_NONBLOCK) != 0)
		cache->wake[0] = cache->wake[1] = -1;
	cache->stop_deadline_s = -1;
	cache->is_read_only = options->is_read_only;
	cache->can_store = !options->is_read_only;
	cache->sink = options->sink;
	cache->stop = options->stop;
	if (options->dir && options->dir[0] && cache_dir_init(&cache->folder, cache, options->dir,
							     options->is_read_only))
		cache->dir = &cache->folder;
	if (options->url && options->url[0]) {
		size_t len = strlen(options->url);

		while (len > 8 && options->url[len - 1] == '/')
			len--;
		cache->url = strndup(options->url, len);
		if (cache->url) {
			cli_url_redact(cache->url, cache->shown_url, sizeof cache->shown_url);
			cache->timeout_s = options->timeout_s > 0 ? options->timeout_s : 5;
			cache->max_transfers = options->max_transfers ? options->max_transfers : 8;
		}
	}
	if ((options->dir && options->dir[0] && !cache->dir) || (options->url && options->url[0] && !cache->url)) {
		cli_error_set(err, "out of memory");
		cli_cache_close(cache, -1, NULL);
		return false;
	}
	*out = cache;
	ensure_thread(cache);
	if (!cache->has_thread) {
		cli_error_set(err, "cannot start a thread");
		cli_cache_close(cache, -1, NULL);
		*out = NULL;
		return false;
	}
	return true;
}

void cli_cache_before_fork(cli_cache *cache)
{
	cache_remote *remote;

	if (!cache || !cache->has_thread)
		return;
	pthread_mutex_lock(&cache->lock);
	cache->pause_count++;
	remote = cache->is_polling ? cache->remote : NULL;
	pthread_cond_signal(&cache->work);
	pthread_mutex_unlock(&cache->lock);
	if (remote)
		cache_remote_wakeup(remote);
	pthread_mutex_lock(&cache->lock);
	while (!cache->is_parked)
		pthread_cond_wait(&cache->parked, &cache->lock);
	/* Returns holding nothing: the thread stays parked until after_fork. */
	pthread_mutex_unlock(&cache->lock);
}

void cli_cache_after_fork(cli_cache *cache)
{
	if (!cache || !cache->has_thread)
		return;
	pthread_mutex_lock(&cache->lock);
	if (cache->pause_count)
		cache->pause_count--;
	pthread_cond_broadcast(&cache->parked);
	pthread_mutex_unlock(&cache->lock);
	flush_warnings(cache);
}

void cli_cache_key_of(const void *bytes, size_t size, cli_cache_key *key)
{
	cli_sha256(bytes, size, key->sha256);
}

static void enqueue_lookup(cli_cache *cache, lookup *l)
{
	size_t id = l->id;
	lookup **grown;

	pthread_mutex_lock(&cache->lock);
	grown = grow_by_id(cache->by_id, &cache->by_id_capacity, id, sizeof *cache->by_id);
	if (!grown) {
		pthread_mutex_unlock(&cache->lock);
		free(l);
		return;
	}
	cache->by_id = grown;
	if (cache->by_id[id]) {
		/* A second lookup under one id: the first one's answer stands. */
		pthread_mutex_unlock(&cache->lock);
		free(l);
		return;
	}
	cache->by_id[id] = l;
	cache->stats.lookups++;
	if (cache->lookup_tail)
		cache->lookup_tail->next = l;
	else
		cache->lookup_head = l;
	cache->lookup_tail = l;
	pthread_mutex_unlock(&cache->lock);
	ensure_thread(cache);
	kick(cache);
	flush_warnings(cache);
}

static lookup *new_lookup(cli_cache *cache, size_t id)
{
	lookup *l = calloc(1, sizeof *l);

	if (l) {
		l->cache = cache;
		l->id = id;
		l->status = CLI_CACHE_PENDING;
	}
	return l;
}

void cli_cache_lookup(cli_cache *cache, size_t id, const cli_cache_key *key)
{
	lookup *l = cache ? new_lookup(cache, id) : NULL;

	if (!l)
		return;
	cli_hex(key->sha256, CLI_SHA256_BYTES, l->hex);
	enqueue_lookup(cache, l);
}

static void lookup_keyed(cli_cache *cache, size_t id, cli_cache_keyer keyer, void *user, bool is_key_only)
{
	lookup *l = cache ? new_lookup(cache, id) : NULL;

	if (!l)
		return;
	l->keyer = keyer;
	l->keyer_user = user;
	l->is_key_only = is_key_only;
	enqueue_lookup(cache, l);
}

void cli_cache_lookup_with(cli_cache *cache, size_t id, cli_cache_keyer keyer, void *user)
{
	lookup_keyed(cache, id, keyer, user, false);
}

void cli_cache_key_with(cli_cache *cache, size_t id, cli_cache_keyer keyer, void *user)
{
	lookup_keyed(cache, id, keyer, user, true);
}

bool cli_cache_is_storing(cli_cache *cache)
{
	bool can_store;

	if (!cache)
		return false;
	pthread_mutex_lock(&cache->lock);
	can_store = cache->can_store;
	pthread_mutex_unlock(&cache->lock);
	return can_store;
}

cli_cache_status cli_cache_take(cli_cache *cache, size_t id, bool wait, cli_cache_result *result)
{
	cli_cache_status status = CLI_CACHE_MISS;
	lookup *l;

	memset(result, 0, sizeof *result);
	if (!cache)
		return CLI_CACHE_MISS;
	pthread_mutex_lock(&cache->lock);
	cache->seen_count = cache->finished_count;
	cache->is_wake_wanted = false;
	if (cache->is_woken) {
		char byte;

		/* One byte per arming, written once. */
		if (read(cache->wake[0], &byte, 1) == 1)
			cache->is_woken = false;
	}
	l = id < cache->by_id_capacity ? cache->by_id[id] : NULL;
	if (l && cache->has_thread) {
		while (wait && l->status == CLI_CACHE_PENDING)
			pthread_cond_wait(&cache->done, &cache->lock);
		status = l->status;
		if (status != CLI_CACHE_PENDING) {
			/* The thread is done with it. */
			cache->by_id[id] = NULL;
			*result = l->result;
			free(l);
		}
	}
	pthread_mutex_unlock(&cache->lock);
	flush_warnings(cache);
	return status;
}

static void enqueue_store(cli_cache *cache, const cli_cache_key *key, size_t id, const cli_cache_result *result)
{
	store *s;
	bool ok = true;

	if (!cache || cache->is_read_only || !result->output_count)
		return;
	for (size_t i = 0; i < result->output_count; i++)
		if (!cli_action_path_is_safe(result->outputs[i].path))
			return;
	s = calloc(1, sizeof *s);
	if (!s)
		return;
	s->cache = cache;
	if (key) {
		cli_hex(key->sha256, CLI_SHA256_BYTES, s->hex);
	} else {
		s->is_by_id = true;
		s->id = id;
	}
	s->result.outputs = calloc(result->output_count, sizeof *s->result.outputs);
	s->result.meta = malloc(result->meta_size + 1);
	ok = s->result.outputs && s->result.meta;
	for (size_t i = 0; ok && i < result->output_count; i++) {
		cli_cache_output *o = &s->result.outputs[i];

		o->path = strdup(result->outputs[i].path);
		o->data = malloc(result->outputs[i].size + 1);
		o->size = result->outputs[i].size;
		s->result.output_count = i + 1;
		ok = o->path && o->data;
		if (ok && o->size)
			memcpy(o->data, result->outputs[i].data, o->size);
	}
	if (!ok) {
		cli_cache_result_release(&s->result);
		free(s);
		return;
	}
	if (result->meta_size)
		memcpy(s->result.meta, result->meta, result->meta_size);
	s->result.meta_size = result->meta_size;
	pthread_mutex_lock(&cache->lock);
	/* Counted here, so the thread never sees the count drop to zero while
	 * the store waits in the queue. */
	cache->active_stores++;
	if (cache->store_tail)
		cache->store_tail->next = s;
	else
		cache->store_head = s;
	cache->store_tail = s;
	pthread_mutex_unlock(&cache->lock);
	ensure_thread(cache);
	kick(cache);
	flush_warnings(cache);
}

void cli_cache_store(cli_cache *cache, const cli_cache_key *key, const cli_cache_result *result)
{
	enqueue_store(cache, key, 0, result);
}

void cli_cache_store_id(cli_cache *cache, size_t id, const cli_cache_result *result)
{
	enqueue_store(cache, NULL, id, result);
}

bool cli_cache_wants_store(cli_cache *cache, size_t id)
{
	bool wants;

	if (!cache)
		return false;
	pthread_mutex_lock(&cache->lock);
	wants = cache->can_store && !(id < cache->is_repeat_capacity && cache->is_repeat_by_id[id]);
	pthread_mutex_unlock(&cache->lock);
	return wants;
}

int cli_cache_fd(cli_cache *cache)
{
	if (!cache)
		return -1;
	pthread_mutex_lock(&cache->lock);
	cache->is_wake_wanted = true;
	/* Some finished already since the caller last took: readable now. */
	if (cache->finished_count != cache->seen_count && !cache->is_woken && cache->wake[1] >= 0)
		cache->is_woken = write(cache->wake[1], "", 1) == 1;
	pthread_mutex_unlock(&cache->lock);
	return cache->wake[0];
}

void cli_cache_close(cli_cache *cache, double wait_s, cli_cache_stats *stats)
{
	size_t skipped_gets = 0, skipped_puts = 0;

	if (stats)
		memset(stats, 0, sizeof *stats);
	if (!cache)
		return;
	if (cache->has_thread) {
		pthread_mutex_lock(&cache->lock);
		cache->is_stopping = true;
		cache->stop_deadline_s = wait_s >= 0 ? build_now_s() + wait_s : -1;
		cache->is_kicked = false;   /* this wake must go through */
		pthread_mutex_unlock(&cache->lock);
		kick(cache);
		pthread_join(cache->thread, NULL);
	}
	if (cache->remote) {
		cache_remote_skipped(cache->remote, &skipped_gets, &skipped_puts);
		cache_remote_destroy(cache->remote);
	}
	flush_warnings(cache);
	if (cache->stats.abandoned_stores) {
		char message[1024], why[96];

		/* The wait the build gave them ran out, or it was stopped
		 * (--cache-wait gives them no wait to run out: wait_s < 0). */
		if (cache->is_abandoned_by_stop)
			snprintf(why, sizeof why, "the build was stopped");
		else
			snprintf(why, sizeof why, "the build was done %g s before they were", wait_s);
		snprintf(message, sizeof message, "cache '%s': %zu result%s not stored: %s",
			 cache->url ? cache->shown_url : cache->dir->path, cache->stats.abandoned_stores,
			 cache->stats.abandoned_stores == 1 ? "" : "s", why);
		emit(cache, message);
	}
	/* (Not of a stopped run, whose sources were not compiled.) */
	if (cache->remote_asked && !cache->remote_answered && !cache->stats.errors && !skipped_gets &&
	    !(cache->stop && *cache->stop)) {
		char message[1024];

		/* Nothing failed, nothing came back: connected, then silent. */
		snprintf(message, sizeof message,
			 "remote cache '%s' answered none of the %zu lookups made while the build ran; those "
			 "sources were compiled here (--cache-wait waits for answers, up to --cache-timeout)",
			 cache->shown_url, cache->remote_asked);
		emit(cache, message);
	}
	if (skipped_gets || skipped_puts) {
		char message[1024], gets[160] = "", puts[64] = "";

		if (skipped_gets)
			snprintf(gets, sizeof gets, "%zu lookup%s not made (%s compiled here)", skipped_gets,
				 skipped_gets == 1 ? "" : "s", skipped_gets == 1 ? "its source was" : "their sources were");
		if (skipped_puts)
			snprintf(puts, sizeof puts, "%zu result%s not stored", skipped_puts, skipped_puts == 1 ? "" : "s");
		snprintf(message, sizeof message, "remote cache '%s' given up after the problem above: %s%s%s",
			 cache->shown_url, gets, gets[0] && puts[0] ? " and " : "", puts);
		/* A note, as the recap below: it tallies what the warning above
		 * caused, and how many requests were still to come when it came
		 * depends on timing, which a count of warnings must not. */
		emit_as(cache, ANIMC_NOTE, message);
	} else if (cache->stats.errors > 1) {
		char message[128];

		snprintf(message, sizeof message, "cache: %zu problems in all, the first of each kind shown above",
			 cache->stats.errors);
		/* A note: it recaps the warnings above, and is no problem of its own to count. */
		emit_as(cache, ANIMC_NOTE, message);
	}
	cache->stats.skipped_lookups = skipped_gets;
	cache->stats.skipped_stores = skipped_puts;
	if (stats)
		*stats = cache->stats;
	for (size_t i = 0; i < cache->by_id_capacity; i++)
		if (cache->by_id[i]) {
			cli_cache_result_release(&cache->by_id[i]->result);
			free(cache->by_id[i]);
		}
	free(cache->by_id);
	/* Lookups still queued (the thread never started) were in by_id. */
	for (store *s = cache->store_head, *next; s; s = next) {
		next = s->next;
		cli_cache_result_release(&s->result);
		free(s);
	}
	cli_strings_release(&cache->messages);
	keymap_release(&cache->asked);
	keymap_release(&cache->stored);
	free(cache->hex_by_id);
	free(cache->is_repeat_by_id);
	if (cache->wake[0] >= 0) {
		close(cache->wake[0]);
		close(cache->wake[1]);
	}
	pthread_mutex_destroy(&cache->lock);
	pthread_cond_destroy(&cache->work);
	pthread_cond_destroy(&cache->done);
	pthread_cond_destroy(&cache->parked);
	free(cache->url);
	cache_dir_release(&cache->folder);
	free(cache);
}
