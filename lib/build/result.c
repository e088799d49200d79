/*
 * result.c - a compiled job's result: building it up, releasing it, and
 * its bytes on the pipe from a worker process to the parent.  The decoder
 * checks every length against what is left (a worker that died mid-write
 * leaves a record that is refused, never half read).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "result.h"
#include "said.h"

const char *build_status_name(build_status status)
{
	static const char *const names[] = { "compiled", "up-to-date", "skipped", "failed", "cached" };

	return status < BUILD_STATUS_COUNT ? names[status] : "failed";
}

bool build_said_add(build_said_list *l, animc_severity severity, const char *kind, const char *subject,
		    uint32_t line, const char *message)
{
	build_said *grown = realloc(l->items, (l->count + 1) * sizeof *grown);
	build_said *s;

	if (!grown)
		return false;
	l->items = grown;
	s = &grown[l->count];
	*s = (build_said){ severity, subject ? strdup(subject) : NULL, line, strdup(message),
			   severity == ANIMC_WARNING ? build_kind_name(kind) : NULL };
	if (!s->message || (subject && !s->subject)) {
		free(s->subject), free(s->message);
		return false;
	}
	l->count++;
	return true;
}

void build_said_release(build_said_list *l)
{
	for (size_t i = 0; i < l->count; i++)
		free(l->items[i].subject), free(l->items[i].message);
	free(l->items);
	l->items = NULL;
	l->count = 0;
}

void build_result_release(build_result *r)
{
	for (uint32_t i = 0; i < r->output_count; i++) {
		free(r->outputs[i].name);
		free(r->outputs[i].clip);
		free(r->outputs[i].bytes);
		free(r->outputs[i].staged);
	}
	free(r->outputs);
	for (uint32_t i = 0; i < r->diag_count; i++)
		free(r->diags[i].message);
	free(r->diags);
	free(r->kinds);
	for (uint32_t i = 0; i < r->dep_count; i++)
		free(r->deps[i].path);
	free(r->deps);
	for (uint32_t i = 0; i < r->held_clip_count; i++)
		free(r->held_clips[i]);
	free(r->held_clips);
	free(r->skip_reason);
	memset(r, 0, sizeof *r);
}

const char *build_kind_name(const char *name)
{
	const animc_warning_kind_info *info = animc_warning_kind_at(animc_warning_kind_find(name));

	return info ? info->name : NULL;
}

/* Where a message is about: its prefix before ": " when that names a
 * place (a JSON path, a clip or a bone in quotes), else none. */
size_t build_place_size(const char *message)
{
	const char *colon = strstr(message, ": ");

	if (!colon || (!memchr(message, '[', (size_t)(colon - message)) &&
		       !memchr(message, '\'', (size_t)(colon - message))))
		return 0;
	return (size_t)(colon - message);
}

/* The kind of a message: the text after its place, numbers and quoted
 * names masked. */
void build_message_kind(const char *message, char *out, size_t size)
{
	size_t place = build_place_size(message), n = 0;
	const char *p = message + (place ? place + 2 : 0);

	while (*p && n + 2 < size) {
		if (*p >= '0' && *p <= '9') {
			while ((*p >= '0' && *p <= '9') || *p == '.')
				p++;
			out[n++] = '#';
		} else if (*p == '\'' && strchr(p + 1, '\'')) {
			p = strchr(p + 1, '\'') + 1;
			out[n++] = '?';
		} else {
			out[n++] = *p++;
		}
	}
	out[n] = '\0';
}

/* The kinds of a result's kept warnings and notes, from the moment it
 * keeps no more: each later one alike (build_message_kind, severity and
 * warning kind) is counted into the first kept one. */
typedef struct build_kind_index {
	uint64_t hashes[4 * BUILD_KEPT_DIAGS + 1];
	uint32_t at[4 * BUILD_KEPT_DIAGS + 1];   /* its diag's index + 1; 0: empty */
} build_kind_index;

static uint64_t kind_hash(animc_severity severity, const char *kind, const char *message)
{
	char text[512];
	uint64_t h = 1469598103934665603ull ^ (uint64_t)severity;

	build_message_kind(message, text, sizeof text);
	for (const char *p = text; *p; p++)
		h = (h ^ (uint8_t)*p) * 1099511628211ull;
	for (const char *p = kind ? kind : ""; *p; p++)
		h = (h ^ (uint8_t)*p) * 1099511628211ull;
	return h ? h : 1;
}

/* The slot of `hash`: where it is, or the empty one it would take. */
static size_t kind_slot(const build_kind_index *x, uint64_t hash)
{
	size_t n = sizeof x->at / sizeof *x->at, i = hash % n;

	while (x->at[i] && x->hashes[i] != hash)
		i = (i + 1) % n;
	return i;
}

static build_kind_index *index_kinds(const build_result *r)
{
	build_kind_index *x = calloc(1, sizeof *x);

	for (uint32_t i = 0; x && i < r->diag_count; i++) {
		const build_diag *d = &r->diags[i];
		uint64_t hash;
		size_t slot;

		if (d->severity == ANIMC_ERROR)
			continue;
		hash = kind_hash(d->severity, d->kind, d->message);
		slot = kind_slot(x, hash);
		if (!x->at[slot])
			x->hashes[slot] = hash, x->at[slot] = i + 1;
	}
	return x;
}

/* A warning or note past BUILD_KEPT_DIAGS: counted into a kept one alike;
 * the first of a kind not kept yet is kept (up to as many kinds again);
 * past that, counted (a warning among the source's warnings, so that
 * --warnings-as-errors still sees it) and said by build_result_say_unkept.
 * False when it is to be kept. */
static bool count_unkept(build_result *r, animc_severity severity, const char *kind, const char *message)
{
	size_t slot;
	uint64_t hash;

	if (!r->kinds)
		r->kinds = index_kinds(r);
	hash = kind_hash(severity, build_kind_name(kind), message);
	slot = r->kinds ? kind_slot(r->kinds, hash) : 0;
	if (r->kinds && r->kinds->at[slot]) {
		r->diags[r->kinds->at[slot] - 1].more++;
		return true;
	}
	if (r->kinds && r->diag_count < 2 * BUILD_KEPT_DIAGS) {
		r->kinds->hashes[slot] = hash;
		r->kinds->at[slot] = r->diag_count + 1;
		return false;
	}
	r->unkept_diags++;
	r->warnings += severity == ANIMC_WARNING;
	return true;
}

static void add_diag(build_result *r, animc_severity severity, const char *kind, uint32_t line, uint32_t column,
		     int64_t byte_offset, const char *fmt, va_list ap) __attribute__((format(printf, 7, 0)));
static void append_diag(build_result *r, animc_severity severity, const char *kind, uint32_t line,
			uint32_t column, int64_t byte_offset, const char *message);

void build_result_say_unkept(build_result *r)
{
	char message[160];

	if (!r->unkept_diags)
		return;
	snprintf(message, sizeof message, "%u more %s, past the first %u kinds, %s not listed", r->unkept_diags,
		 r->unkept_diags == 1 ? "warning or note of another kind" : "warnings and notes of other kinds",
		 BUILD_KEPT_DIAGS, r->unkept_diags == 1 ? "is" : "are");
	/* A note: the warnings it counts are counted already. */
	append_diag(r, ANIMC_NOTE, NULL, 0, 0, -1, message);
}

static void add_diag(build_result *r, animc_severity severity, const char *kind, uint32_t line, uint32_t column,
		     int64_t byte_offset, const char *fmt, va_list ap)
{
	char message[2048];

	vsnprintf(message, sizeof message, fmt, ap);
	if (severity == ANIMC_ERROR || r->diag_count < BUILD_KEPT_DIAGS || !count_unkept(r, severity, kind, message))
		append_diag(r, severity, kind, line, column, byte_offset, message);
}

static void append_diag(build_result *r, animc_severity severity, const char *kind, uint32_t line,
			uint32_t column, int64_t byte_offset, const char *message)
{
	if (severity == ANIMC_ERROR)
		r->errors++;
	else if (severity == ANIMC_WARNING)
		r->warnings++;
	if (r->diag_count == r->diag_capacity) {
		uint32_t capacity = r->diag_capacity ? r->diag_capacity * 2 : 8;
		build_diag *grown = realloc(r->diags, capacity * sizeof *grown);

		if (!grown)
			return;
		r->diags = grown;
		r->diag_capacity = capacity;
	}
	r->diags[r->diag_count] = (build_diag){ severity, line, column, byte_offset, strdup(message),
						severity == ANIMC_WARNING ? build_kind_name(kind) : NULL, false, 0 };
	if (r->diags[r->diag_count].message)
		r->diag_count++;
}

void build_result_diag(build_result *r, animc_severity severity, uint32_t line, uint32_t column,
		       int64_t byte_offset, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_diag(r, severity, NULL, line, column, byte_offset, fmt, ap);
	va_end(ap);
}

void build_result_diag_kind(build_result *r, animc_severity severity, const char *kind, uint32_t line,
			    uint32_t column, int64_t byte_offset, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_diag(r, severity, kind, line, column, byte_offset, fmt, ap);
	va_end(ap);
}

/* ------------------------------------------------------------ encoding */

typedef cli_bytes writer;

static void put(writer *w, const void *p, size_t n)
{
	cli_bytes_put(w, p, n);
}

static void put_u8(writer *w, uint8_t v) { put(w, &v, 1); }
static void put_u32(writer *w, uint32_t v) { put(w, &v, 4); }
static void put_u64(writer *w, uint64_t v) { put(w, &v, 8); }
static void put_f64(writer *w, double v) { put(w, &v, 8); }

static void put_str(writer *w, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	put_u8(w, s != NULL);
	put_u32(w, (uint32_t)n);
	put(w, s ? s : "", n);
}

static void put_state(writer *w, const build_file_state *s)
{
	put_u64(w, s->size);
	put_u64(w, (uint64_t)s->mtime_ns);
	put_u64(w, s->ino);
	put_u64(w, s->dev);
}

bool build_result_encode(const build_result *r, uint8_t **out, size_t *size)
{
	writer w = { 0 };

	put_u8(&w, (uint8_t)r->status);
	put_str(&w, r->importer);
	put_str(&w, r->reader_version);
	put_str(&w, r->skip_reason);
	put_u32(&w, r->output_count);
	for (uint32_t i = 0; i < r->output_count; i++) {
		const build_output *o = &r->outputs[i];

		put_str(&w, o->name);
		put_str(&w, o->clip);
		put_str(&w, o->staged);
		put_u8(&w, o->is_unchanged);
		put_state(&w, &o->state);
		put_u64(&w, o->bytes ? o->size : 0);
		put_u64(&w, o->size);
		if (o->bytes)
			put(&w, o->bytes, o->size);
		put(&w, o->hash.bytes, 16);
		put_u32(&w, o->bones);
		put_u64(&w, o->keys);
		put(&w, &o->duration_s, 4);
		put_f64(&w, o->ticks_per_second);
		put_u8(&w, o->is_motion);
		put(&w, &o->passes, sizeof o->passes);
	}
	put_u32(&w, r->diag_count);
	for (uint32_t i = 0; i < r->diag_count; i++) {
		const build_diag *d = &r->diags[i];

		put_u8(&w, (uint8_t)d->severity);
		put_u32(&w, d->line);
		put_u32(&w, d->column);
		put_u64(&w, (uint64_t)d->byte_offset);
		put_str(&w, d->message);
		put_str(&w, d->kind ? d->kind : "");
	}
	put_u32(&w, r->errors);
	put_u32(&w, r->warnings);
	put_u8(&w, r->has_source);
	put_state(&w, &r->source_state);
	put(&w, r->source_hash.bytes, 16);
	put_u32(&w, r->dep_count);
	for (uint32_t i = 0; i < r->dep_count; i++) {
		put_str(&w, r->deps[i].path);
		put_state(&w, &r->deps[i].state);
		put(&w, r->deps[i].hash.bytes, 16);
	}
	put(&w, r->key.bytes, 16);
	put_f64(&w, r->time_s);
	put_u32(&w, r->held_clip_count);
	for (uint32_t i = 0; i < r->held_clip_count; i++)
		put_str(&w, r->held_clips[i]);
	if (w.is_broken) {
		free(w.data);
		return false;
	}
	*out = w.data;
	*size = w.size;
	return true;
}

/* ------------------------------------------------------------ decoding */

typedef struct reader {
	const uint8_t *data;
	size_t size, at;
	bool failed;
} reader;

static bool get(reader *r, void *p, size_t n)
{
	if (r->failed || n > r->size - r->at) {
		r->failed = true;
		memset(p, 0, n);
		return false;
	}
	memcpy(p, r->data + r->at, n);
	r->at += n;
	return true;
}

static uint8_t get_u8(reader *r) { uint8_t v; get(r, &v, 1); return v; }
static uint32_t get_u32(reader *r) { uint32_t v; get(r, &v, 4); return v; }
static uint64_t get_u64(reader *r) { uint64_t v; get(r, &v, 8); return v; }
static double get_f64(reader *r) { double v; get(r, &v, 8); return v; }

/* A string, or NULL when absent (or on damage: r->failed says which). */
static char *get_str(reader *r)
{
	bool present = get_u8(r) != 0;
	uint32_t n = get_u32(r);
	char *s;

	if (r->failed || n > r->size - r->at) {
		r->failed = true;
		return NULL;
	}
	if (!present)
		return NULL;
	s = malloc((size_t)n + 1);
	if (!s) {
		r->failed = true;
		return NULL;
	}
	memcpy(s, r->data + r->at, n);
	s[n] = '\0';
	r->at += n;
	if (strlen(s) != n) {   /* an embedded NUL: not what a worker writes */
		free(s);
		r->failed = true;
		return NULL;
	}
	return s;
}

static void get_state(reader *r, build_file_state *s)
{
	s->size = get_u64(r);
	s->mtime_ns = (int64_t)get_u64(r);
	s->ino = get_u64(r);
	s->dev = get_u64(r);
}

/* calloc for `count` items that must each take at least `min_bytes` of the
 * record: a count the record cannot hold is damage, not an allocation. */
static void *get_array(reader *r, uint32_t count, size_t item_size, size_t min_bytes)
{
	void *p;

	if (r->failed || (uint64_t)count * min_bytes > r->size - r->at) {
		r->failed = true;
		return NULL;
	}
	if (!count)
		return NULL;
	p = calloc(count, item_size);
	if (!p)
		r->failed = true;
	return p;
}

/* The names of the clips its source holds (build_result.held_clips). */
static void get_held_clips(reader *r, build_result *res)
{
	uint32_t count = get_u32(r);

	/* 5 bytes at least a name: its presence and its length */
	res->held_clips = get_array(r, count, sizeof *res->held_clips, 5);
	for (uint32_t i = 0; i < count && res->held_clips && !r->failed; i++) {
		res->held_clips[i] = get_str(r);
		if (!res->held_clips[i]) {
			r->failed = true;
			break;
		}
		res->held_clip_count++;
	}
}

bool build_result_decode(const uint8_t *data, size_t size, build_result *out)
{
	reader r = { data, size, 0, false };
	build_result *res = out;
	char *s;

	memset(res, 0, sizeof *res);
	res->status = (build_status)get_u8(&r);
	if (res->status >= BUILD_STATUS_COUNT)
		r.failed = true;
	s = get_str(&r);
	if (s && strlen(s) < sizeof res->importer)
		memcpy(res->importer, s, strlen(s) + 1);
	free(s);
	s = get_str(&r);
	if (s && strlen(s) < sizeof res->reader_version)
		memcpy(res->reader_version, s, strlen(s) + 1);
	else
		r.failed = true;
	free(s);
	res->skip_reason = get_str(&r);
	res->output_count = get_u32(&r);
	res->outputs = get_array(&r, res->output_count, sizeof *res->outputs, 40);
	if (!res->outputs)
		res->output_count = 0;
	for (uint32_t i = 0; i < res->output_count && !r.failed; i++) {
		build_output *o = &res->outputs[i];
		uint64_t held;

		o->name = get_str(&r);
		o->clip = get_str(&r);
		o->staged = get_str(&r);
		o->is_unchanged = get_u8(&r) != 0;
		get_state(&r, &o->state);
		held = get_u64(&r);
		o->size = get_u64(&r);
		if (!o->name || !o->clip || (held && held != o->size) || held > r.size - r.at) {
			r.failed = true;
			break;
		}
		if (held) {
			o->bytes = malloc((size_t)held);
			if (!o->bytes || !get(&r, o->bytes, (size_t)held)) {
				r.failed = true;
				break;
			}
		}
		get(&r, o->hash.bytes, 16);
		o->bones = get_u32(&r);
		o->keys = get_u64(&r);
		get(&r, &o->duration_s, 4);
		o->ticks_per_second = get_f64(&r);
		o->is_motion = get_u8(&r) != 0;
		get(&r, &o->passes, sizeof o->passes);
	}
	{
		uint32_t count = get_u32(&r);

		res->diags = get_array(&r, count, sizeof *res->diags, 27);
		res->diag_capacity = res->diags ? count : 0;
		for (uint32_t i = 0; i < count && res->diags && !r.failed; i++) {
			build_diag *d = &res->diags[i];

			d->severity = (animc_severity)get_u8(&r);
			d->line = get_u32(&r);
			d->column = get_u32(&r);
			d->byte_offset = (int64_t)get_u64(&r);
			d->message = get_str(&r);
			char *kind = get_str(&r);
			d->kind = kind && d->severity == ANIMC_WARNING ? build_kind_name(kind) : NULL;
			if (!kind || !d->message || d->severity > ANIMC_ERROR) {
				free(kind);
				free(d->message);
				d->message = NULL;
				r.failed = true;
				break;
			}
			free(kind);
			res->diag_count++;
		}
	}
	res->errors = get_u32(&r);
	res->warnings = get_u32(&r);
	res->has_source = get_u8(&r) != 0;
	get_state(&r, &res->source_state);
	get(&r, res->source_hash.bytes, 16);
	{
		uint32_t count = get_u32(&r);

		res->deps = get_array(&r, count, sizeof *res->deps, 53);
		for (uint32_t i = 0; i < count && res->deps && !r.failed; i++) {
			build_dep *d = &res->deps[i];

			d->path = get_str(&r);
			if (!d->path) {
				r.failed = true;
				break;
			}
			get_state(&r, &d->state);
			get(&r, d->hash.bytes, 16);
			res->dep_count++;
		}
	}
	get(&r, res->key.bytes, 16);
	res->time_s = get_f64(&r);
	get_held_clips(&r, res);
	if (r.failed || r.at != r.size) {
		build_result_release(res);
		return false;
	}
	return true;
}

bool build_dep_is_absent(const build_dep *d)
{
	static const build_dep zero;

	return memcmp(&d->state, &zero.state, sizeof d->state) == 0 &&
	       memcmp(&d->hash, &zero.hash, sizeof d->hash) == 0;
}

bool build_path_is_absent(const char *path)
{
	struct stat st;

	return stat(path, &st) != 0 && (errno == ENOENT || errno == ENOTDIR);
}
