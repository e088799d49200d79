/*
 * cache_http.c - the Bazel HTTP remote cache client: GET and PUT of
 * URL/ac/<hex> and URL/cas/<hex> through libcurl's multi interface, several
 * transfers at once over kept-alive connections, on the cache's thread.
 *
 * libcurl is loaded with dlopen() when a cache URL is used: linked in, its
 * TLS, LDAP, SSH and Kerberos libraries cost every animc process tens of
 * milliseconds to start, which a per-file build rule pays each time.  Its
 * ABI (libcurl.so.4) has been stable since 2006; the headers come from
 * libcurl4-openssl-dev through pkg-config.
 *
 * The remote is given up for the rest of the run when it cannot be reached,
 * times out, denies access, or fails three transfers in a row; stores alone
 * are given up when one is refused (4xx).  Each kind is warned of once.
 * A transfer that finds no file descriptor here gives nothing up.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include <curl/curl.h>

#include "cache_internal.h"
#include "clock.h"

#define LIBCURL_SONAME "libcurl.so.4"
/* Failed transfers in a row (not 404s) after which the remote is given up. */
#define MAX_FAILURES_IN_A_ROW 3
/* A transfer that keeps moving bytes still ends after this many
 * --cache-timeout (a server trickling a byte a second). */
#define TRANSFER_TIMEOUTS 12
/* The descriptors a connection may need at once: a socket; to look its
 * host's name up, a socket pair and the files the resolver reads. */
#define DESCRIPTORS_A_CONNECTION_TAKES 4

/* ---------------------------------------------------------------- libcurl */

typedef struct curl_api {
	CURLcode (*global_init)(long flags);
	void (*global_cleanup)(void);
	CURL *(*easy_init)(void);
	CURLcode (*easy_setopt)(CURL *easy, CURLoption option, ...);
	CURLcode (*easy_getinfo)(CURL *easy, CURLINFO info, ...);
	void (*easy_reset)(CURL *easy);
	void (*easy_cleanup)(CURL *easy);
	const char *(*easy_strerror)(CURLcode code);
	CURLM *(*multi_init)(void);
	CURLMcode (*multi_setopt)(CURLM *multi, CURLMoption option, ...);
	CURLMcode (*multi_add_handle)(CURLM *multi, CURL *easy);
	CURLMcode (*multi_remove_handle)(CURLM *multi, CURL *easy);
	CURLMcode (*multi_perform)(CURLM *multi, int *running);
	CURLMcode (*multi_poll)(CURLM *multi, struct curl_waitfd extra[], unsigned extra_count,
				int timeout_ms, int *ret);
	CURLMcode (*multi_wakeup)(CURLM *multi);
	CURLMsg *(*multi_info_read)(CURLM *multi, int *left);
	CURLMcode (*multi_cleanup)(CURLM *multi);
	struct curl_slist *(*slist_append)(struct curl_slist *list, const char *s);
	void (*slist_free_all)(struct curl_slist *list);
} curl_api;

static curl_api curl;
static bool is_curl_loaded;

/* Load the library once per process; false with the reason in *err. */
static bool load_curl(cli_error *err)
{
	void *lib;

	if (is_curl_loaded)
		return true;
	lib = dlopen(LIBCURL_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		const char *error = dlerror();

		cli_error_set(err, "%s", error ? error : "not found");
		return false;
	}
#define LOAD(field, name)                                                        \
	do {                                                                     \
		*(void **)&curl.field = dlsym(lib, name);                        \
		if (!curl.field) {                                               \
			cli_error_set(err, "%s has no %s", LIBCURL_SONAME, name); \
			return false;                                            \
		}                                                                \
	} while (0)
	LOAD(global_init, "curl_global_init");
	LOAD(global_cleanup, "curl_global_cleanup");
	LOAD(easy_init, "curl_easy_init");
	LOAD(easy_setopt, "curl_easy_setopt");
	LOAD(easy_getinfo, "curl_easy_getinfo");
	LOAD(easy_reset, "curl_easy_reset");
	LOAD(easy_cleanup, "curl_easy_cleanup");
	LOAD(easy_strerror, "curl_easy_strerror");
	LOAD(multi_init, "curl_multi_init");
	LOAD(multi_setopt, "curl_multi_setopt");
	LOAD(multi_add_handle, "curl_multi_add_handle");
	LOAD(multi_remove_handle, "curl_multi_remove_handle");
	LOAD(multi_perform, "curl_multi_perform");
	LOAD(multi_poll, "curl_multi_poll");
	LOAD(multi_wakeup, "curl_multi_wakeup");
	LOAD(multi_info_read, "curl_multi_info_read");
	LOAD(multi_cleanup, "curl_multi_cleanup");
	LOAD(slist_append, "curl_slist_append");
	LOAD(slist_free_all, "curl_slist_free_all");
#undef LOAD
	/* The library stays loaded: the process may open another cache. */
	is_curl_loaded = true;
	return true;
}

/* ------------------------------------------------------------- the remote */

typedef struct waiter {
	remote_done_fn fn;
	void *user;
} waiter;

/* A CAS blob this run stored, is storing, or fetched. */
typedef struct blob {
	char hex[CLI_SHA256_HEX_BYTES];
	bool is_present;         /* else a PUT of it is under way */
	waiter *waiters;         /* stores waiting for that PUT */
	size_t waiter_count, waiter_capacity;
} blob;

typedef struct transfer transfer;
struct transfer {
	cache_remote *remote;
	CURL *easy;
	bool is_put;
	char name[4 + CLI_SHA256_HEX_BYTES]; /* "ac/<hex>" or "cas/<hex>" */
	const uint8_t *put_data;
	size_t put_size, put_off;
	uint8_t *body;
	size_t size, capacity, max_bytes;
	bool is_too_large;
	/* Stall detection (on_progress): the bytes moved either way when they
	 * last changed, and when; set when no byte moved for the time-out. */
	curl_off_t moved;
	double started_s, moved_at_s;
	bool is_stalled;
	/* Why its socket could not be made (open_socket), else 0: libcurl
	 * says only that it could not connect, as of a server that is down. */
	int socket_errno;
	remote_done_fn fn;
	void *user;
	blob *blob;              /* a CAS PUT: its blob, whose waiters hear of it too */
	char error[CURL_ERROR_SIZE];
	transfer *next;
};

struct cache_remote {
	cli_cache *cache;
	const char *url, *shown_url;
	double timeout_s;
	unsigned max_transfers;
	CURLM *multi;
	struct curl_slist *headers;
	char *user, *password, *netrc, *header; /* from the environment; never printed */
	/* Queued: blobs of entries already fetched (a lookup half done is
	 * finished before others begin), entries, stores. */
	transfer *blob_gets, *blob_gets_tail, *gets, *gets_tail, *puts, *puts_tail;
	transfer **in_flight;
	size_t in_flight_count;
	CURL **idle;             /* easy handles to reuse */
	size_t idle_count;
	blob **blobs;            /* open addressing by hash */
	size_t blob_count, blob_capacity;
	bool is_down, is_put_down;
	bool has_few_descriptors;   /* a connection found none (judge_no_descriptor) */
	unsigned failures_in_a_row;
	size_t skipped_gets, skipped_puts;
};

static char *env_copy(const char *name)
{
	const char *value = getenv(name);

	return value && value[0] ? strdup(value) : NULL;
}

cache_remote *cache_remote_create(cli_cache *cache, const char *url, const char *shown_url, double timeout_s,
				  unsigned max_transfers)
{
	cache_remote *r;
	cli_error err;
	static bool is_initialised;

	if (!load_curl(&err)) {
		cache_warn(cache, CLI_CACHE_NO_LIBCURL,
			   "remote cache '%s' not used: cannot load libcurl (%s); install libcurl4", shown_url, err.message);
		return NULL;
	}
	if (!is_initialised) {
		if (curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
			cache_warn(cache, CLI_CACHE_NO_LIBCURL, "remote cache '%s' not used: libcurl failed to start",
				   shown_url);
			return NULL;
		}
		is_initialised = true;
	}
	r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	r->cache = cache;
	r->url = url;
	r->shown_url = shown_url;
	r->timeout_s = timeout_s;
	r->max_transfers = max_transfers;
	r->in_flight = calloc(max_transfers, sizeof *r->in_flight);
	r->idle = calloc(max_transfers, sizeof *r->idle);
	r->multi = curl.multi_init();
	r->user = env_copy("ANIMC_CACHE_USER");
	r->password = env_copy("ANIMC_CACHE_PASSWORD");
	r->netrc = env_copy("ANIMC_CACHE_NETRC");
	r->header = env_copy("ANIMC_CACHE_HEADER");
	/* No "Expect: 100-continue" round trip before each PUT. */
	r->headers = curl.slist_append(NULL, "Expect:");
	if (r->headers && r->header)
		r->headers = curl.slist_append(r->headers, r->header);
	if (!r->in_flight || !r->idle || !r->multi || !r->headers) {
		cache_remote_destroy(r);
		return NULL;
	}
	curl.multi_setopt(r->multi, CURLMOPT_MAX_HOST_CONNECTIONS, (long)max_transfers);
	curl.multi_setopt(r->multi, CURLMOPT_MAXCONNECTS, (long)max_transfers);
	return r;
}

void cache_remote_destroy(cache_remote *r)
{
	if (!r)
		return;
	/* The cache's thread has finished: nothing is in flight or queued. */
	for (size_t i = 0; i < r->idle_count; i++)
		curl.easy_cleanup(r->idle[i]);
	for (size_t i = 0; i < r->blob_capacity; i++)
		if (r->blobs[i]) {
			free(r->blobs[i]->waiters);
			free(r->blobs[i]);
		}
	free(r->blobs);
	if (r->multi)
		curl.multi_cleanup(r->multi);
	if (r->headers)
		curl.slist_free_all(r->headers);
	free(r->in_flight);
	free(r->idle);
	free(r->user);
	if (r->password)
		memset(r->password, 0, strlen(r->password));
	free(r->password);
	free(r->netrc);
	if (r->header)
		memset(r->header, 0, strlen(r->header));
	free(r->header);
	free(r);
}

void cache_remote_wakeup(cache_remote *r)
{
	curl.multi_wakeup(r->multi);
}

bool cache_remote_can_get(const cache_remote *r)
{
	return !r->is_down;
}

bool cache_remote_can_put(const cache_remote *r)
{
	return !r->is_down && !r->is_put_down;
}

bool cache_remote_is_busy(const cache_remote *r)
{
	return r->in_flight_count || r->blob_gets || r->gets || r->puts;
}

void cache_remote_skipped(const cache_remote *r, size_t *gets, size_t *puts)
{
	*gets = r->skipped_gets;
	*puts = r->skipped_puts;
}

/* ------------------------------------------------------------------ blobs */

static size_t blob_slot(const cache_remote *r, const char *hex)
{
	uint64_t h = 0;

	for (int i = 0; i < 16; i++)
		h = h << 4 | (uint64_t)(hex[i] <= '9' ? hex[i] - '0' : hex[i] - 'a' + 10);
	return (size_t)(h & (r->blob_capacity - 1));
}

static blob *blob_find(const cache_remote *r, const char *hex)
{
	if (!r->blob_capacity)
		return NULL;
	for (size_t i = blob_slot(r, hex);; i = (i + 1) & (r->blob_capacity - 1)) {
		if (!r->blobs[i])
			return NULL;
		if (strcmp(r->blobs[i]->hex, hex) == 0)
			return r->blobs[i];
	}
}

static bool blob_place(cache_remote *r, blob *b)
{
	size_t i;

	if (2 * (r->blob_count + 1) > r->blob_capacity) {
		size_t capacity = r->blob_capacity ? r->blob_capacity * 2 : 256;
		blob **old = r->blobs;
		size_t old_capacity = r->blob_capacity;

		r->blobs = calloc(capacity, sizeof *r->blobs);
		if (!r->blobs) {
			r->blobs = old;
			return false;
		}
		r->blob_capacity = capacity;
		for (size_t j = 0; j < old_capacity; j++)
			if (old[j]) {
				for (i = blob_slot(r, old[j]->hex); r->blobs[i]; i = (i + 1) & (capacity - 1))
					;
				r->blobs[i] = old[j];
			}
		free(old);
	}
	for (i = blob_slot(r, b->hex); r->blobs[i]; i = (i + 1) & (r->blob_capacity - 1))
		;
	r->blobs[i] = b;
	r->blob_count++;
	return true;
}

static blob *blob_add(cache_remote *r, const char *hex, bool is_present)
{
	blob *b = calloc(1, sizeof *b);

	if (!b)
		return NULL;
	snprintf(b->hex, sizeof b->hex, "%s", hex);
	b->is_present = is_present;
	if (!blob_place(r, b)) {
		free(b);
		return NULL;
	}
	return b;
}

/* Take a blob out again (its PUT failed), keeping the probe chains whole. */
static void blob_remove(cache_remote *r, blob *b)
{
	size_t i = blob_slot(r, b->hex);

	while (r->blobs[i] != b)
		i = (i + 1) & (r->blob_capacity - 1);
	r->blobs[i] = NULL;
	r->blob_count--;
	for (i = (i + 1) & (r->blob_capacity - 1); r->blobs[i]; i = (i + 1) & (r->blob_capacity - 1)) {
		blob *moved = r->blobs[i];

		r->blobs[i] = NULL;
		r->blob_count--;
		blob_place(r, moved);
	}
	free(b->waiters);
	free(b);
}

void cache_remote_note_present(cache_remote *r, const char *hex)
{
	blob *b = blob_find(r, hex);

	if (b)
		return;
	blob_add(r, hex, true);
}

/* -------------------------------------------------------------- transfers */

static void enqueue(transfer **head, transfer **tail, transfer *t)
{
	t->next = NULL;
	if (*tail)
		(*tail)->next = t;
	else
		*head = t;
	*tail = t;
}

static transfer *new_transfer(cache_remote *r, bool is_put, const char *kind, const char *hex,
			      remote_done_fn fn, void *user)
{
	transfer *t = calloc(1, sizeof *t);

	if (!t)
		return NULL;
	t->remote = r;
	t->is_put = is_put;
	snprintf(t->name, sizeof t->name, "%s/%s", kind, hex);
	t->fn = fn;
	t->user = user;
	return t;
}

bool cache_remote_get(cache_remote *r, const char *kind, const char *hex, size_t max_bytes, remote_done_fn fn,
		      void *user)
{
	transfer *t;

	if (r->is_down) {
		r->skipped_gets++;
		return false;
	}
	t = new_transfer(r, false, kind, hex, fn, user);
	if (!t)
		return false;
	t->max_bytes = max_bytes;
	if (strcmp(kind, "cas") == 0)
		enqueue(&r->blob_gets, &r->blob_gets_tail, t);
	else
		enqueue(&r->gets, &r->gets_tail, t);
	return true;
}

remote_put_status cache_remote_put(cache_remote *r, const char *kind, const char *hex, const uint8_t *data,
				   size_t size, remote_done_fn fn, void *user)
{
	bool is_cas = strcmp(kind, "cas") == 0;
	blob *b = is_cas ? blob_find(r, hex) : NULL;
	transfer *t;

	if (b && b->is_present)
		return REMOTE_PUT_PRESENT;
	if (r->is_down || r->is_put_down) {
		r->skipped_puts++;
		return REMOTE_PUT_REFUSED;
	}
	if (b) {
		if (b->waiter_count == b->waiter_capacity) {
			size_t capacity = b->waiter_capacity ? b->waiter_capacity * 2 : 4;
			waiter *grown = realloc(b->waiters, capacity * sizeof *grown);

			if (!grown)
				return REMOTE_PUT_REFUSED;
			b->waiters = grown;
			b->waiter_capacity = capacity;
		}
		b->waiters[b->waiter_count++] = (waiter){ fn, user };
		return REMOTE_PUT_QUEUED;
	}
	t = new_transfer(r, true, kind, hex, fn, user);
	if (!t)
		return REMOTE_PUT_REFUSED;
	if (is_cas && !(t->blob = blob_add(r, hex, false))) {
		free(t);
		return REMOTE_PUT_REFUSED;
	}
	t->put_data = data;
	t->put_size = size;
	enqueue(&r->puts, &r->puts_tail, t);
	return REMOTE_PUT_QUEUED;
}

static size_t on_body(char *data, size_t one, size_t n, void *user)
{
	transfer *t = user;
	size_t size = one * n;

	(void)one;
	if (t->is_put)
		return size;   /* what a server says to a PUT is of no use */
	if (size > t->max_bytes - t->size) {
		t->is_too_large = true;
		return 0;
	}
	if (t->size + size + 1 > t->capacity) {
		size_t capacity = t->capacity ? t->capacity : 4096;
		uint8_t *grown;

		while (capacity < t->size + size + 1)
			capacity *= 2;
		if (capacity > t->max_bytes + 1)
			capacity = t->max_bytes + 1;
		grown = realloc(t->body, capacity);
		if (!grown)
			return 0;
		t->body = grown;
		t->capacity = capacity;
	}
	memcpy(t->body + t->size, data, size);
	t->size += size;
	return size;
}

static size_t on_read(char *buffer, size_t one, size_t n, void *user)
{
	transfer *t = user;
	size_t size = one * n, left = t->put_size - t->put_off;

	if (size > left)
		size = left;
	memcpy(buffer, t->put_data + t->put_off, size);
	t->put_off += size;
	return size;
}

/* libcurl rewinds an upload to send it again on a fresh connection when a
 * kept-alive one turned out closed. */
static int on_seek(void *user, curl_off_t offset, int origin)
{
	transfer *t = user;

	if (origin != SEEK_SET || offset < 0 || (uint64_t)offset > t->put_size)
		return CURL_SEEKFUNC_FAIL;
	t->put_off = (size_t)offset;
	return CURL_SEEKFUNC_OK;
}

/* A transfer that moves no byte for --cache-timeout is ended (libcurl's
 * low-speed check averages the speed over seconds, so a transfer that
 * stalled after a burst ran on for 6 s past it).  libcurl calls this about
 * once a second while nothing moves, more often while bytes do. */
static int on_progress(void *user, curl_off_t down_total, curl_off_t down_now, curl_off_t up_total,
		       curl_off_t up_now)
{
	transfer *t = user;
	double now = build_now_s();

	(void)down_total, (void)up_total;
	if (down_now + up_now != t->moved) {
		t->moved = down_now + up_now;
		t->moved_at_s = now;
	} else if (now - t->moved_at_s >= t->remote->timeout_s) {
		t->is_stalled = true;
		return 1;
	}
	return 0;
}

/* The socket libcurl would make, keeping why it could not be made: out
 * of file descriptors (EMFILE, ENFILE), the server is not at fault. */
static curl_socket_t open_socket(void *user, curlsocktype purpose, struct curl_sockaddr *address)
{
	transfer *t = user;
	int fd = socket(address->family, address->socktype, address->protocol);

	(void)purpose;
	if (fd < 0)
		t->socket_errno = errno;
	return fd < 0 ? CURL_SOCKET_BAD : fd;
}

static bool start(cache_remote *r, transfer *t)
{
	CURL *easy = r->idle_count ? r->idle[--r->idle_count] : curl.easy_init();
	long timeout_ms = (long)(r->timeout_s * 1000);
	char *url;

	if (!easy)
		return false;
	if (asprintf(&url, "%s/%s", r->url, t->name) < 0) {
		curl.easy_cleanup(easy);
		return false;
	}
	curl.easy_reset(easy);
	curl.easy_setopt(easy, CURLOPT_URL, url);
	free(url);   /* libcurl keeps its own copy */
	curl.easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
	curl.easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
	curl.easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
	curl.easy_setopt(easy, CURLOPT_NOPROGRESS, 0L);
	curl.easy_setopt(easy, CURLOPT_XFERINFOFUNCTION, on_progress);
	curl.easy_setopt(easy, CURLOPT_XFERINFODATA, t);
	t->moved = 0;
	t->started_s = t->moved_at_s = build_now_s();
	t->is_stalled = false;
	t->socket_errno = 0;
	curl.easy_setopt(easy, CURLOPT_OPENSOCKETFUNCTION, open_socket);
	curl.easy_setopt(easy, CURLOPT_OPENSOCKETDATA, t);
	curl.easy_setopt(easy, CURLOPT_FORBID_REUSE, (long)r->has_few_descriptors);
	curl.easy_setopt(easy, CURLOPT_TIMEOUT_MS, TRANSFER_TIMEOUTS * timeout_ms);
	curl.easy_setopt(easy, CURLOPT_HTTPHEADER, r->headers);
	curl.easy_setopt(easy, CURLOPT_NETRC, (long)CURL_NETRC_OPTIONAL);
	if (r->netrc)
		curl.easy_setopt(easy, CURLOPT_NETRC_FILE, r->netrc);
	if (r->user)
		curl.easy_setopt(easy, CURLOPT_USERNAME, r->user);
	if (r->password)
		curl.easy_setopt(easy, CURLOPT_PASSWORD, r->password);
	curl.easy_setopt(easy, CURLOPT_WRITEFUNCTION, on_body);
	curl.easy_setopt(easy, CURLOPT_WRITEDATA, t);
	curl.easy_setopt(easy, CURLOPT_ERRORBUFFER, t->error);
	curl.easy_setopt(easy, CURLOPT_PRIVATE, (char *)t);
	if (t->is_put) {
		curl.easy_setopt(easy, CURLOPT_UPLOAD, 1L);
		curl.easy_setopt(easy, CURLOPT_READFUNCTION, on_read);
		curl.easy_setopt(easy, CURLOPT_READDATA, t);
		curl.easy_setopt(easy, CURLOPT_SEEKFUNCTION, on_seek);
		curl.easy_setopt(easy, CURLOPT_SEEKDATA, t);
		curl.easy_setopt(easy, CURLOPT_INFILESIZE_LARGE, (curl_off_t)t->put_size);
	} else {
		/* A Content-Length over the limit ends the transfer before its
		 * body (on_body ends one that has none). */
		curl.easy_setopt(easy, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)t->max_bytes);
		if (t->max_bytes < ((size_t)1 << 20)) {
			/* A blob's size is known: one allocation. */
			t->body = malloc(t->max_bytes + 1);
			t->capacity = t->body ? t->max_bytes + 1 : 0;
		}
	}
	if (curl.multi_add_handle(r->multi, easy) != CURLM_OK) {
		curl.easy_cleanup(easy);
		return false;
	}
	t->easy = easy;
	r->in_flight[r->in_flight_count++] = t;
	return true;
}

/* Hand a finished transfer back: to its caller, and to the stores waiting
 * for the same blob. */
static void finish(cache_remote *r, transfer *t, remote_outcome outcome)
{
	blob *b = t->blob;

	if (t->easy) {
		curl.multi_remove_handle(r->multi, t->easy);
		if (r->idle_count < r->max_transfers)
			r->idle[r->idle_count++] = t->easy;
		else
			curl.easy_cleanup(t->easy);
		for (size_t i = 0; i < r->in_flight_count; i++)
			if (r->in_flight[i] == t) {
				r->in_flight[i] = r->in_flight[--r->in_flight_count];
				break;
			}
	}
	if (outcome == REMOTE_OK && t->body)
		t->body[t->size] = 0;
	else if (outcome != REMOTE_OK) {
		free(t->body);
		t->body = NULL;
		t->size = 0;
	}
	if (b) {
		waiter *waiters = b->waiters;
		size_t count = b->waiter_count;

		b->waiters = NULL;
		b->waiter_count = b->waiter_capacity = 0;
		if (outcome == REMOTE_OK)
			b->is_present = true;
		else
			blob_remove(r, b);
		for (size_t i = 0; i < count; i++)
			waiters[i].fn(waiters[i].user, outcome, NULL, 0);
		free(waiters);
	}
	t->fn(t->user, outcome, t->body, t->size);
	free(t);
}

/* Give the remote up: every transfer queued or in flight fails now. */
static void go_down(cache_remote *r, bool is_puts_only)
{
	r->is_put_down = true;
	if (!is_puts_only)
		r->is_down = true;
	for (size_t i = 0; i < r->in_flight_count;) {
		transfer *t = r->in_flight[i];

		if (is_puts_only && !t->is_put) {
			i++;
			continue;
		}
		*(t->is_put ? &r->skipped_puts : &r->skipped_gets) += 1;
		finish(r, t, REMOTE_FAILED);   /* moves the last one into slot i */
	}
	while (r->puts) {
		transfer *t = r->puts;

		r->puts = t->next;
		r->skipped_puts++;
		finish(r, t, REMOTE_FAILED);
	}
	r->puts_tail = NULL;
	for (int q = 0; q < 2 && !is_puts_only; q++) {
		transfer **head = q ? &r->gets : &r->blob_gets;

		while (*head) {
			transfer *t = *head;

			*head = t->next;
			r->skipped_gets++;
			finish(r, t, REMOTE_FAILED);
		}
	}
	if (!is_puts_only)
		r->gets_tail = r->blob_gets_tail = NULL;
}

void cache_remote_abandon(cache_remote *r)
{
	size_t gets = r->skipped_gets, puts = r->skipped_puts;

	go_down(r, false);
	/* Not skipped after a failure: counted by the cache as abandoned. */
	r->skipped_gets = gets;
	r->skipped_puts = puts;
}

static void count_failure(cache_remote *r)
{
	if (++r->failures_in_a_row >= MAX_FAILURES_IN_A_ROW)
		go_down(r, false);
}

/* Are fewer than `needed` descriptors left to this process?  A connection
 * that failed then failed for that, not for the server, which libcurl does
 * not tell apart.  Counted in /proc/self/fd, whose opening fails too when
 * none is left (*error: EMFILE or ENFILE); false when it cannot be told. */
static bool descriptors_run_short(size_t needed, int *error)
{
	struct rlimit limit;
	DIR *fds = opendir("/proc/self/fd");
	size_t count = 0;

	if (!fds) {
		*error = errno;
		return errno == EMFILE || errno == ENFILE;
	}
	while (readdir(fds))
		count++;
	closedir(fds);
	*error = EMFILE;
	/* ".", ".." and the folder's own descriptor are none of the others */
	count = count > 3 ? count - 3 : 0;
	return getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY &&
	       count + needed > limit.rlim_cur;
}

/*
 * A transfer that found no file descriptor for its connection (the
 * process at its limit, `ulimit -n`, or the system at its own): libcurl
 * says it could not connect or resolve the name, as of a server that is
 * down.  Said as what it is, and the server is neither given up nor
 * counted a failure: it never was asked.  False for any other transfer.
 */
static bool judge_no_descriptor(cache_remote *r, transfer *t, CURLcode code)
{
	struct rlimit limit;
	int error = t->socket_errno;
	char why[160];

	/* What the transfers under way may take at once: the descriptors
	 * they left may be free again by now. */
	if (error != EMFILE && error != ENFILE &&
	    !((code == CURLE_COULDNT_CONNECT || code == CURLE_COULDNT_RESOLVE_HOST ||
	       code == CURLE_COULDNT_RESOLVE_PROXY) &&
	      descriptors_run_short(DESCRIPTORS_A_CONNECTION_TAKES * r->max_transfers, &error)))
		return false;
	if (error == ENFILE)
		snprintf(why, sizeof why, "too many open files in the system");
	else if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
		snprintf(why, sizeof why, "too many open files (this process may open %llu: ulimit -n)",
			 (unsigned long long)limit.rlim_cur);
	else
		snprintf(why, sizeof why, "too many open files");
	cache_warn(r->cache, CLI_CACHE_NO_DESCRIPTOR, "remote cache '%s': %s %s not sent: %s; %s", r->shown_url,
		   t->is_put ? "PUT" : "GET", t->name, why,
		   t->is_put ? "that result is not stored there" : "compiling instead");
	finish(r, t, REMOTE_FAILED);
	/* From now on one connection, closed after each transfer: the
	 * descriptors go back to the build, which needs them for its sources
	 * and outputs. */
	r->max_transfers = 1;
	r->has_few_descriptors = true;
	curl.multi_setopt(r->multi, CURLMOPT_MAX_HOST_CONNECTIONS, 1L);
	curl.multi_setopt(r->multi, CURLMOPT_MAXCONNECTS, 1L);
	return true;
}

/* What a finished transfer's status and code mean. */
static void judge(cache_remote *r, transfer *t, CURLcode code)
{
	const char *method = t->is_put ? "PUT" : "GET";
	long status = 0;

	curl.easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &status);
	if (code == CURLE_OK && (status == 200 || (t->is_put && (status == 201 || status == 204)))) {
		r->failures_in_a_row = 0;
		finish(r, t, REMOTE_OK);
		return;
	}
	if (code == CURLE_OK && status == 404 && !t->is_put) {
		r->failures_in_a_row = 0;
		finish(r, t, REMOTE_NOT_FOUND);
		return;
	}
	if (code == CURLE_OK && (status == 401 || status == 403 || status == 407) && !t->is_put) {
		cache_warn(r->cache, CLI_CACHE_DENIED,
			   "remote cache '%s': %s %s answered %ld (check ANIMC_CACHE_USER, ANIMC_CACHE_PASSWORD, "
			   "ANIMC_CACHE_HEADER or the netrc file); not used for the rest of this run",
			   r->shown_url, method, t->name, status);
		finish(r, t, REMOTE_FAILED);
		go_down(r, false);
		return;
	}
	if (code == CURLE_OK && t->is_put && status >= 400 && status < 500) {
		cache_warn(r->cache, CLI_CACHE_REFUSED,
			   "remote cache '%s': %s %s answered %ld; results of this run are not stored there",
			   r->shown_url, method, t->name, status);
		finish(r, t, REMOTE_FAILED);
		go_down(r, true);
		return;
	}
	if (code == CURLE_OK) {
		cache_warn(r->cache, CLI_CACHE_SERVER_ERROR, "remote cache '%s': %s %s answered %ld; %s",
			   r->shown_url, method, t->name, status,
			   t->is_put ? "that result is not stored there" : "compiling instead");
		finish(r, t, REMOTE_FAILED);
		count_failure(r);
		return;
	}
	if (t->is_too_large || code == CURLE_FILESIZE_EXCEEDED) {
		/* A server that answers with a page or an endless body: a failure
		 * like a 5xx, or every lookup would download it again. */
		if (t->name[0] == 'a')
			cache_warn(r->cache, CLI_CACHE_CORRUPT,
				   "remote cache '%s': entry %s is larger than %zu bytes; compiling instead",
				   r->shown_url, t->name, t->max_bytes);
		else
			cache_warn(r->cache, CLI_CACHE_CORRUPT,
				   "remote cache '%s': %s is longer than its digest says (%zu bytes); compiling "
				   "instead", r->shown_url, t->name, t->max_bytes);
		finish(r, t, REMOTE_FAILED);
		count_failure(r);
		return;
	}
	if (code == CURLE_OPERATION_TIMEDOUT && build_now_s() - t->started_s >= TRANSFER_TIMEOUTS * r->timeout_s) {
		cache_warn(r->cache, CLI_CACHE_TIMEOUT,
			   "remote cache '%s': %s %s did not finish within %g s; not used for the rest of this run",
			   r->shown_url, method, t->name, TRANSFER_TIMEOUTS * r->timeout_s);
		finish(r, t, REMOTE_FAILED);
		go_down(r, false);
		return;
	}
	if (code == CURLE_OPERATION_TIMEDOUT || (code == CURLE_ABORTED_BY_CALLBACK && t->is_stalled)) {
		cache_warn(r->cache, CLI_CACHE_TIMEOUT,
			   "remote cache '%s': %s %s made no progress within %g s; not used for the rest of this "
			   "run",
			   r->shown_url, method, t->name, r->timeout_s);
		finish(r, t, REMOTE_FAILED);
		go_down(r, false);
		return;
	}
	if (judge_no_descriptor(r, t, code))
		return;
	bool is_down = code == CURLE_COULDNT_CONNECT || code == CURLE_COULDNT_RESOLVE_HOST ||
		       code == CURLE_COULDNT_RESOLVE_PROXY || code == CURLE_SSL_CONNECT_ERROR ||
		       code == CURLE_PEER_FAILED_VERIFICATION;

	/* libcurl's message names the host and port, never the credentials. */
	cache_warn(r->cache, CLI_CACHE_UNREACHABLE, "remote cache '%s': %s %s failed: %s; %s",
		   r->shown_url, method, t->name, t->error[0] ? t->error : curl.easy_strerror(code),
		   is_down ? "not used for the rest of this run (its sources are compiled here)"
		   : t->is_put ? "that result is not stored there" : "compiling instead");
	finish(r, t, REMOTE_FAILED);
	if (is_down)
		go_down(r, false);
	else
		count_failure(r);
}

void cache_remote_step(cache_remote *r, int timeout_ms)
{
	CURLMsg *msg;
	int running = 0, left;

	/* Reads first, the blobs of lookups under way before new lookups: the
	 * build waits for them in order; stores can trail. */
	while (r->in_flight_count < r->max_transfers && (r->blob_gets || r->gets || r->puts)) {
		transfer **head = r->blob_gets ? &r->blob_gets : r->gets ? &r->gets : &r->puts;
		transfer **tail = r->blob_gets ? &r->blob_gets_tail : r->gets ? &r->gets_tail : &r->puts_tail;
		transfer *t = *head;

		*head = t->next;
		if (!*head)
			*tail = NULL;
		if (!start(r, t)) {
			*(t->is_put ? &r->skipped_puts : &r->skipped_gets) += 1;
			finish(r, t, REMOTE_FAILED);
		}
	}
	curl.multi_perform(r->multi, &running);
	while ((msg = curl.multi_info_read(r->multi, &left))) {
		char *private = NULL;
		transfer *t;

		if (msg->msg != CURLMSG_DONE)
			continue;
		curl.easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &private);
		t = (transfer *)(void *)private;
		/* go_down may already have finished it. */
		for (size_t i = 0; t && i < r->in_flight_count; i++)
			if (r->in_flight[i] == t) {
				judge(r, t, msg->data.result);
				break;
			}
	}
	if (r->in_flight_count &&
	    !((r->blob_gets || r->gets || r->puts) && r->in_flight_count < r->max_transfers))
		curl.multi_poll(r->multi, NULL, 0, timeout_ms, NULL);
}

/* ------------------------------------------------------------------- URLs */


void cli_url_redact(const char *url, char *out, size_t out_size)
{
	const char *scheme_end = strstr(url, "://");
	const char *authority = scheme_end ? scheme_end + 3 : url;
	size_t authority_len = strcspn(authority, "/?#");
	const char *at = NULL;
	size_t path_len;

	for (size_t i = 0; i < authority_len; i++)
		if (authority[i] == '@')
			at = authority + i;
	path_len = strcspn(authority + authority_len, "?#");
	if (at)
		snprintf(out, out_size, "%.*s%.*s%.*s", (int)(authority - url), url,
			 (int)(authority + authority_len - at - 1), at + 1, (int)path_len,
			 authority + authority_len);
	else
		snprintf(out, out_size, "%.*s", (int)(authority + authority_len + path_len - url), url);
}

static bool url_is_acceptable(const char *url, cli_error *err)
{
	const char *authority;
	size_t authority_len;

	if (strncasecmp(url, "http://", 7) != 0 && strncasecmp(url, "https://", 8) != 0) {
		cli_error_set(err, "the cache URL must start with http:// or https://");
		return false;
	}
	for (const unsigned char *p = (const unsigned char *)url; *p; p++)
		if (*p <= ' ' || *p == 0x7F) {
			cli_error_set(err, "the cache URL holds a space or control character");
			return false;
		}
	authority = strstr(url, "://") + 3;
	authority_len = strcspn(authority, "/?#");
	if (!authority_len) {
		cli_error_set(err, "the cache URL has no host");
		return false;
	}
	if (memchr(authority, '@', authority_len)) {
		cli_error_set(err, "the cache URL holds credentials; give them in ANIMC_CACHE_USER and "
		    "ANIMC_CACHE_PASSWORD, or in a netrc file (see 'animc help build')");
		return false;
	}
	if (strchr(url, '?') || strchr(url, '#')) {
		cli_error_set(err, "the cache URL has a query or fragment; the protocol appends /ac/ and /cas/ to it");
		return false;
	}
	return true;
}

bool cli_cache_url_check(const char *url, cli_error *err)
{
	return url_is_acceptable(url, err);
}
