/*
 * manifest.c - OUTDIR/.animc/manifest: what the last build wrote, for the
 * next one to skip what is up to date and for `animc clean` to remove.  A
 * text file of tab-separated fields, one record a line, names escaped:
 *
 *   animc-manifest 1
 *   options <hash>
 *   cwd <path>    (optional: the working folder of the run that wrote it,
 *          from the manifest's folder; relative source, dep and skeleton
 *          paths start there)
 *   skeleton <path> <size> <mtime_ns> <ino> <dev> <hash>        (optional)
 *   source <path> <status> <importer> <skip reason> <out base> <size>
 *          <mtime_ns> <ino> <dev> <hash> <key> <run key> <time_s>
 *   dep <path> <size> <mtime_ns> <ino> <dev> <hash>             (of the source above)
 *   output <path> <clip> <size> <hash> <mtime_ns> <ino> <dev> <bones> <keys> <duration_s>
 *          [root-motion]   (a --root-motion CLIP.motion file, not a clip)
 *   warning <line> <column> <byte offset + 1> <message> [<kind>]  (of the source above;
 *          the kind, a name of animc_warning_kinds, when it has one)
 *   orphan ...as output...                     (written by animc, now no source's)
 *   end <XXH3-128 of every byte before this line>
 *
 * Hashes are XXH3-128 in hex; an mtime of 0 means "compare by content".
 * Written atomically (temporary file, rename).  The reader refuses damage
 * as a whole (the closing hash), so a damaged manifest means a full build,
 * never a wrong skip.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <sys/file.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "manifest.h"
#include "engine.h"
#include "fold.h"

#define MANIFEST_MAGIC "animc-manifest"
#define MANIFEST_VERSION 1

/* The path of a dependency or output record of a lazy entry, as read. */
struct manifest_lazy_path {
	const char *at;     /* in the manifest's text, escaped */
	size_t size;
	size_t entry;       /* the index of its entry */
	bool is_output;     /* else a dependency */
};

/* ------------------------------------------------------------- memory */

void manifest_output_release(manifest_output *o)
{
	free(o->path);
	free(o->clip);
	memset(o, 0, sizeof *o);
}

/* What entry e owns, freed; the entry itself is left as it was. */
static void entry_free(manifest_entry *e)
{
	if (e->is_borrowed || e->is_lazy)
		return;   /* its strings are another's, or the arena's */
	free(e->source);
	free(e->skip_reason);
	free(e->out_base);
	for (uint32_t i = 0; i < e->dep_count; i++)
		free(e->deps[i].path);
	free(e->deps);
	for (uint32_t i = 0; i < e->output_count; i++)
		manifest_output_release(&e->outputs[i]);
	free(e->outputs);
	for (uint32_t i = 0; i < e->warning_count; i++)
		free(e->warnings[i].message);
	free(e->warnings);
}

void manifest_entry_release(manifest_entry *e)
{
	entry_free(e);
	memset(e, 0, sizeof *e);
}

void manifest_release(manifest *m)
{
	/* Entries not cleared one by one: a page of them that a worker
	 * forked since shares is then not copied only to be freed. */
	for (size_t i = 0; i < m->count; i++)
		entry_free(&m->entries[i]);
	free(m->entries);
	free(m->index);
	free(m->base_index);
	for (size_t i = 0; i < m->orphan_count; i++)
		manifest_output_release(&m->orphans[i]);
	free(m->orphans);
	free(m->skeleton.path);
	free(m->cwd);
	if (m->text_mapped)
		munmap(m->text, m->text_mapped);
	else
		free(m->text);
	free(m->arena);
	free(m->lazy_paths);
	free(m->take_error);
	memset(m, 0, sizeof *m);
}

static size_t string_hash(const char *s)
{
	return (size_t)XXH3_64bits(s, strlen(s));
}

static bool index_build(manifest *m, size_t size)
{
	size_t *index = calloc(size, sizeof *index);

	if (!index)
		return false;
	for (size_t k = 0; k < m->count; k++) {
		size_t i;

		for (i = string_hash(m->entries[k].source) & (size - 1); index[i]; i = (i + 1) & (size - 1))
			;
		index[i] = k + 1;
	}
	free(m->index);
	m->index = index;
	m->index_size = size;
	return true;
}

static bool index_grow(manifest *m)
{
	return index_build(m, m->index_size ? m->index_size * 2 : 256);
}

/* The index is keyed by source alone, so that every entry of a source
 * (one per output folder and stem) lies on one probe sequence. */
manifest_entry *manifest_find_output(const manifest *m, const char *source, const char *out_base)
{
	size_t mask = m->index_size - 1;

	if (!m->index_size)
		return NULL;
	for (size_t i = string_hash(source) & mask; m->index[i]; i = (i + 1) & mask) {
		manifest_entry *e = &m->entries[m->index[i] - 1];

		if (strcmp(e->source, source) == 0 && (!out_base || strcmp(e->out_base, out_base) == 0))
			return e;
	}
	return NULL;
}

manifest_entry *manifest_find(const manifest *m, const char *source)
{
	return manifest_find_output(m, source, NULL);
}

manifest_entry *manifest_find_ours(const manifest *m, const char *source)
{
	size_t mask = m->index_size - 1;

	if (!m->index_size)
		return NULL;
	for (size_t i = string_hash(source) & mask; m->index[i]; i = (i + 1) & mask) {
		manifest_entry *e = &m->entries[m->index[i] - 1];

		if (e->is_ours && strcmp(e->source, source) == 0)
			return e;
	}
	return NULL;
}

/* The entries by out_base, made once (the entries do not move while a
 * plan is checked). */
static bool base_index_make(manifest *m)
{
	size_t size = 256;

	while (size < 2 * m->count)
		size *= 2;
	m->base_index = calloc(size, sizeof *m->base_index);
	if (!m->base_index)
		return false;
	m->base_index_size = size;
	for (size_t k = 0; k < m->count; k++) {
		size_t i;

		for (i = string_hash(m->entries[k].out_base) & (size - 1); m->base_index[i]; i = (i + 1) & (size - 1))
			;
		m->base_index[i] = k + 1;
	}
	return true;
}

/* Whether paths a and b name one file in one folder: the folder too, for
 * the files an import reads beside its source (a glTF's .bin) are found
 * from there.  A link to the file from another folder is another source. */
static bool same_file_and_folder(const char *a, const struct stat *a_st, const char *b)
{
	struct stat b_st, a_dir, b_dir;
	char *da = strndup(a, (size_t)(cli_basename(a) - a)), *db = strndup(b, (size_t)(cli_basename(b) - b));
	bool same = da && db && stat(b, &b_st) == 0 && b_st.st_dev == a_st->st_dev && b_st.st_ino == a_st->st_ino &&
		    stat(da[0] ? da : ".", &a_dir) == 0 && stat(db[0] ? db : ".", &b_dir) == 0 &&
		    a_dir.st_dev == b_dir.st_dev && a_dir.st_ino == b_dir.st_ino;

	free(da);
	free(db);
	return same;
}

manifest_entry *manifest_find_same_file(manifest *m, const char *source, const char *out_base)
{
	struct stat now;
	size_t mask;

	if (!m->count || (!m->base_index && !base_index_make(m)) || stat(source, &now) != 0)
		return NULL;
	mask = m->base_index_size - 1;
	for (size_t i = string_hash(out_base) & mask; m->base_index[i]; i = (i + 1) & mask) {
		manifest_entry *e = &m->entries[m->base_index[i] - 1];
		char *copy;

		if (strcmp(e->out_base, out_base) != 0 || strcmp(e->source, source) == 0 ||
		    !same_file_and_folder(source, &now, e->source) || !manifest_take(m, e))
			continue;
		/* Known by this spelling from now on: on another probe sequence. */
		copy = strdup(source);
		if (!copy)
			return NULL;
		free(e->source);
		e->source = copy;
		e->is_renamed = true;
		e->raw = NULL;
		return index_build(m, m->index_size ? m->index_size : 256) ? e : NULL;
	}
	return NULL;
}

bool manifest_reserve(manifest *m, size_t more)
{
	size_t size = m->index_size ? m->index_size : 256;
	manifest_entry *grown;

	if (m->count + more > m->capacity) {
		if (!(grown = realloc(m->entries, (m->count + more) * sizeof *grown)))
			return false;
		m->entries = grown;
		m->capacity = m->count + more;
	}
	while ((m->count + more + 1) * 2 >= size)
		size *= 2;
	return size == m->index_size || index_build(m, size);
}

manifest_entry *manifest_add(manifest *m, const manifest_entry *e)
{
	size_t i, mask;

	if (m->count == m->capacity) {
		size_t capacity = m->capacity ? m->capacity * 2 : 64;
		manifest_entry *grown = realloc(m->entries, capacity * sizeof *grown);

		if (!grown)
			return NULL;
		m->entries = grown;
		m->capacity = capacity;
	}
	if ((m->count + 1) * 2 >= m->index_size && !index_grow(m))
		return NULL;
	m->entries[m->count] = *e;
	mask = m->index_size - 1;
	for (i = string_hash(e->source) & mask; m->index[i]; i = (i + 1) & mask)
		;
	m->index[i] = ++m->count;
	free(m->base_index);   /* made again when asked */
	m->base_index = NULL;
	m->base_index_size = 0;
	return &m->entries[m->count - 1];
}

/* manifest_add of an entry no other has the source and out base of (as
 * manifest_find_output finds them, but hashing the source once); NULL
 * with *is_repeat when one has, or when out of memory. */
static manifest_entry *add_unless_repeated(manifest *m, const manifest_entry *e, bool *is_repeat)
{
	size_t mask = m->index_size - 1, i;

	*is_repeat = false;
	if (m->count == m->capacity || (m->count + 1) * 2 >= m->index_size) {
		*is_repeat = manifest_find_output(m, e->source, e->out_base) != NULL;
		return *is_repeat ? NULL : manifest_add(m, e);
	}
	for (i = string_hash(e->source) & mask; m->index[i]; i = (i + 1) & mask) {
		const manifest_entry *o = &m->entries[m->index[i] - 1];

		if (strcmp(o->source, e->source) == 0 && strcmp(o->out_base, e->out_base) == 0) {
			*is_repeat = true;
			return NULL;
		}
	}
	m->entries[m->count] = *e;
	m->index[i] = ++m->count;
	free(m->base_index);
	m->base_index = NULL;
	m->base_index_size = 0;
	return &m->entries[m->count - 1];
}

size_t manifest_output_total(const manifest *m)
{
	size_t n = m->orphan_count;

	for (size_t i = 0; i < m->count; i++)
		n += m->entries[i].output_count;
	return n;
}

bool manifest_add_orphan(manifest *m, const manifest_output *o)
{
	if (m->orphan_count == m->orphan_capacity) {
		size_t capacity = m->orphan_capacity ? m->orphan_capacity * 2 : 16;
		manifest_output *grown = realloc(m->orphans, capacity * sizeof *grown);

		if (!grown)
			return false;
		m->orphans = grown;
		m->orphan_capacity = capacity;
	}
	m->orphans[m->orphan_count++] = *o;
	return true;
}

/* -------------------------------------------------------------- writing */

typedef cli_bytes text;

static void put(text *t, const char *s, size_t n)
{
	cli_bytes_put(t, s, n);
}

static void put_s(text *t, const char *s)
{
	put(t, s, strlen(s));
}

/* A field: tab first, then the string with \\ \t \n \r and other control
 * bytes escaped. */
static void put_field(text *t, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	put(t, "\t", 1);
	while (*p) {
		const unsigned char *run = p;
		char esc[8];

		while (*p && *p != '\\' && *p >= 0x20 && *p != 0x7F)
			p++;
		put(t, (const char *)run, (size_t)(p - run));
		if (!*p)
			break;
		if (*p == '\\') {
			put(t, "\\\\", 2);
		} else {
			snprintf(esc, sizeof esc, "\\x%02x", *p);
			put_s(t, esc);
		}
		p++;
	}
}

static void put_u64(text *t, uint64_t v)
{
	char buf[24], *p = buf + sizeof buf;

	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	*--p = '\t';
	put(t, p, (size_t)(buf + sizeof buf - p));
}

static void put_hash(text *t, const build_hash *h)
{
	char hex[34];

	hex[0] = '\t';
	build_hash_hex(h, hex + 1);
	put(t, hex, 33);
}

static void put_state(text *t, const build_file_state *s)
{
	put_u64(t, s->size);
	put_u64(t, (uint64_t)s->mtime_ns);
	put_u64(t, s->ino);
	put_u64(t, s->dev);
}

void manifest_output_put(cli_bytes *t, const char *word, const manifest_output *o)
{
	char buf[64];

	put_s(t, word);
	put_field(t, o->path);
	put_field(t, o->clip);
	put_u64(t, o->size);
	put_hash(t, &o->hash);
	put_u64(t, (uint64_t)o->state.mtime_ns);
	put_u64(t, o->state.ino);
	put_u64(t, o->state.dev);
	put_u64(t, o->bones);
	put_u64(t, o->keys);
	snprintf(buf, sizeof buf, "%.9g", (double)o->duration_s);
	put_field(t, buf);
	if (o->is_motion)
		put_field(t, "root-motion");
	put(t, "\n", 1);
}

/* An entry's records: its source line, then its dependencies, outputs
 * and warnings. */
static void put_entry(text *t, const manifest_entry *e)
{
	char buf[64];

	put_s(t, "source");
	put_field(t, e->source);
	put_field(t, build_status_name(e->status));
	put_field(t, e->importer);
	put_field(t, e->skip_reason);
	put_field(t, e->out_base);
	put_state(t, &e->state);
	put_hash(t, &e->hash);
	put_hash(t, &e->key);
	put_hash(t, &e->run_key);
	snprintf(buf, sizeof buf, "%.6f", e->time_s);
	put_field(t, buf);
	put(t, "\n", 1);
	for (uint32_t d = 0; d < e->dep_count; d++) {
		put_s(t, "dep");
		put_field(t, e->deps[d].path);
		put_state(t, &e->deps[d].state);
		put_hash(t, &e->deps[d].hash);
		put(t, "\n", 1);
	}
	for (uint32_t o = 0; o < e->output_count; o++)
		manifest_output_put(t, "output", &e->outputs[o]);
	for (uint32_t w = 0; w < e->warning_count; w++) {
		const build_diag *d = &e->warnings[w];

		put_s(t, "warning");
		put_u64(t, d->line);
		put_u64(t, d->column);
		put_u64(t, d->byte_offset < 0 ? 0 : (uint64_t)d->byte_offset + 1);
		put_field(t, d->message);
		if (d->kind)
			put_field(t, d->kind);
		put(t, "\n", 1);
	}
}

/* The text of a manifest in pieces: those formatted, in `t`, and the
 * records carried as read, in the text they were read from (not copied:
 * a per-file rule carries thousands). */
typedef struct pieces {
	text t;
	cli_piece *items;   /* a formatted piece's data is its offset in t */
	bool *is_formatted;
	size_t count, capacity, formatted_end;
	bool is_broken;
} pieces;

static void piece_add(pieces *p, const void *data, size_t size, bool is_formatted)
{
	if (p->is_broken || !size)
		return;
	if (p->count && !is_formatted && !p->is_formatted[p->count - 1] &&
	    (const char *)p->items[p->count - 1].data + p->items[p->count - 1].size == data) {
		p->items[p->count - 1].size += size;   /* carried records one after the other */
		return;
	}
	if (p->count == p->capacity) {
		size_t capacity = p->capacity ? 2 * p->capacity : 16;
		cli_piece *items = realloc(p->items, capacity * sizeof *items);
		bool *flags = items ? realloc(p->is_formatted, capacity * sizeof *flags) : NULL;

		if (items)
			p->items = items;
		if (!flags) {
			p->is_broken = true;
			return;
		}
		p->is_formatted = flags;
		p->capacity = capacity;
	}
	p->is_formatted[p->count] = is_formatted;
	p->items[p->count++] = (cli_piece){ data, size };
}

/* What was formatted into t since the last piece, as a piece. */
static void piece_close(pieces *p)
{
	piece_add(p, (const void *)(uintptr_t)p->formatted_end, p->t.size - p->formatted_end, true);
	p->formatted_end = p->t.size;
}

/* Records carried as read. */
static void piece_raw(pieces *p, const char *raw, size_t size)
{
	piece_close(p);
	piece_add(p, raw, size, false);
}

/* Piece i's bytes (a formatted one's, where t holds them now). */
static const void *piece_data(const pieces *p, size_t i)
{
	return p->is_formatted[i] ? p->t.data + (uintptr_t)p->items[i].data : p->items[i].data;
}

/* The pieces' data pointers, once t grows no more. */
static void pieces_settle(pieces *p)
{
	for (size_t i = 0; i < p->count; i++)
		if (p->is_formatted[i]) {
			p->items[i].data = piece_data(p, i);
			p->is_formatted[i] = false;
		}
}

static void pieces_release(pieces *p)
{
	free(p->t.data);
	free(p->items);
	free(p->is_formatted);
	memset(p, 0, sizeof *p);
}

/* The closing line, "end" and the hash of the records before it; *whole
 * the hash of all the text with it, from the same pass over the records.
 * The pieces are settled. */
static bool put_closing(pieces *p, build_hash *whole)
{
	XXH3_state_t *state = XXH3_createState();
	build_hash closing;
	size_t body;
	bool ok = state && XXH3_128bits_reset(state) == XXH_OK;

	piece_close(p);
	body = p->count;
	for (size_t i = 0; ok && i < body; i++)
		ok = XXH3_128bits_update(state, piece_data(p, i), p->items[i].size) == XXH_OK;
	if (ok) {
		build_hash_from_state(state, &closing);
		put_s(&p->t, "end");
		put_hash(&p->t, &closing);
		put(&p->t, "\n", 1);
		piece_close(p);
		ok = !p->t.is_broken && !p->is_broken && p->count == body + 1 &&
		     XXH3_128bits_update(state, piece_data(p, body), p->items[body].size) == XXH_OK;
	}
	if (ok)
		build_hash_from_state(state, whole);
	XXH3_freeState(state);
	if (ok)
		pieces_settle(p);
	return ok;
}

static void put_one(pieces *p, const manifest_entry *e)
{
	if (e->raw)
		piece_raw(p, e->raw, e->raw_size);
	else
		put_entry(&p->t, e);
}

/* m's entries, and those it carries in their place. */
static void put_entries(pieces *p, const manifest *m)
{
	size_t k = m->carries ? m->carry_at : m->count;

	for (size_t i = 0; i < k; i++)
		put_one(p, &m->entries[i]);
	for (size_t i = 0; m->carries && i < m->carries->count; i++) {
		const manifest_entry *e = &m->carries->entries[i];

		if (e->is_lazy)
			piece_raw(p, e->raw, e->raw_size);
		else if (k < m->count && m->entries[k].carried_from == i + 1)
			put_one(p, &m->entries[k++]);
	}
	for (; k < m->count; k++)
		put_one(p, &m->entries[k]);
}

/* The text form in pieces, and the hash of all of it. */
static bool format_pieces(const manifest *m, pieces *p, build_hash *whole)
{
	char buf[64];
	size_t formatted = 0;

	/* The records of the entries carried as read, not counted: not
	 * copied. */
	memset(p, 0, sizeof *p);
	for (size_t i = 0; i < m->count; i++)
		formatted += m->entries[i].raw ? 0 : 512;
	p->t.data = malloc(4096 + 512 * m->orphan_count + formatted);
	p->t.capacity = p->t.data ? 4096 + 512 * m->orphan_count + formatted : 0;
	snprintf(buf, sizeof buf, "%s %d\noptions", MANIFEST_MAGIC, MANIFEST_VERSION);
	put_s(&p->t, buf);
	put_hash(&p->t, &m->options);
	put(&p->t, "\n", 1);
	if (m->cwd) {
		put_s(&p->t, "cwd");
		put_field(&p->t, m->cwd);
		put(&p->t, "\n", 1);
	}
	if (m->has_skeleton) {
		put_s(&p->t, "skeleton");
		put_field(&p->t, m->skeleton.path);
		put_state(&p->t, &m->skeleton.state);
		put_hash(&p->t, &m->skeleton.hash);
		put(&p->t, "\n", 1);
	}
	put_entries(p, m);
	for (size_t i = 0; i < m->orphan_count; i++)
		manifest_output_put(&p->t, "orphan", &m->orphans[i]);
	if (p->t.is_broken || p->is_broken || !put_closing(p, whole)) {
		pieces_release(p);
		return false;
	}
	return true;
}

/* The text form, and the hash of all of it, in one buffer. */
static bool format_text(const manifest *m, char **out, size_t *size, build_hash *whole)
{
	pieces p;
	text t = { 0 };

	if (!format_pieces(m, &p, whole))
		return false;
	for (size_t i = 0; i < p.count; i++)
		put(&t, p.items[i].data, p.items[i].size);
	pieces_release(&p);
	if (t.is_broken) {
		free(t.data);
		return false;
	}
	*out = (char *)t.data;
	*size = t.size;
	return true;
}

bool manifest_format(const manifest *m, char **out, size_t *size)
{
	build_hash whole;

	return format_text(m, out, size, &whole);
}

/* ------------------------------------------------------ working folders */

/* `path` relative to the folder `from` (absolute, with no link in it, as
 * getcwd() and realpath() give: its parent is what ".." names), made
 * absolute and tidied.  Leading ".." parts climb `from`; later ones stay
 * as spelt.  NULL when out of memory. */
static char *absolute_of(const char *path, const char *from)
{
	size_t n = strlen(from);
	const char *rest = path;
	char *whole;

	while (n > 1 && from[n - 1] == '/')
		n--;
	for (;;) {
		if (rest[0] == '.' && rest[1] == '/') {
			rest += 2;
		} else if (rest[0] == '.' && rest[1] == '.' && (rest[2] == '/' || rest[2] == '\0')) {
			while (n > 1 && from[n - 1] != '/')
				n--;
			if (n > 1)
				n--;
			rest += rest[2] ? 3 : 2;
		} else {
			break;
		}
	}
	whole = malloc(n + strlen(rest) + 2);
	if (!whole)
		return NULL;
	memcpy(whole, from, n);
	whole[n] = '/';
	strcpy(whole + n + 1, rest);
	cli_path_tidy(whole);
	return whole;
}

/* The absolute, tidied `path` spelt from the folder `to` (the same): with
 * `to` /proj/build, /proj/art/Walk.Animation is ../art/Walk.Animation.
 * NULL when out of memory. */
static char *relative_to(const char *path, const char *to)
{
	const char *a = path + 1, *b = to + 1;
	size_t ups = 0;
	char *out;

	/* Past the folders both share, whole parts. */
	while (*a && *b) {
		size_t la = strcspn(a, "/"), lb = strcspn(b, "/");

		if (la != lb || memcmp(a, b, la) != 0)
			break;
		a += la + (a[la] == '/');
		b += lb + (b[lb] == '/');
	}
	for (const char *p = b; *p; p += strcspn(p, "/"), p += *p == '/')
		ups++;
	out = malloc(3 * ups + strlen(a) + 2);
	if (!out)
		return NULL;
	out[0] = '\0';
	for (size_t i = 0; i < ups; i++)
		strcat(out, "../");
	strcat(out, a);
	if (!out[0])
		strcpy(out, ".");
	else if (!*a)
		out[strlen(out) - 1] = '\0';
	return out;
}

/* The folder holding the manifest at `path`, as realpath() gives it. */
static char *manifest_folder(const char *path)
{
	const char *base = cli_basename(path);
	char *dir = strndup(path, (size_t)(base - path)), *real;

	if (!dir)
		return NULL;
	real = realpath(dir[0] ? dir : ".", NULL);
	free(dir);
	return real;
}

/* This process's working folder, from the manifest's folder (for its cwd
 * record); NULL when either is not known. */
static char *cwd_record(const char *path)
{
	char *here = getcwd(NULL, 0), *folder = manifest_folder(path), *rel = NULL;

	if (here && folder)
		rel = relative_to(here, folder);
	free(here);
	free(folder);
	return rel;
}

/* A path recorded relative to `from`, spelt from `to`: what the record
 * means, the file there or gone.  Kept as written (an absolute one too)
 * only when `from` itself is gone: the tree moved apart from the output
 * folder, its paths true from here.  A file that happens to lie at the
 * written spelling from `to` is another file: taken for the recorded one,
 * it called a stale output up to date, and a deleted one's too. */
static bool rebase_path(char **path, const char *from, bool from_is_there, const char *to)
{
	char *whole, *moved;

	if ((*path)[0] == '/' || !from_is_there)
		return true;
	whole = absolute_of(*path, from);
	moved = whole ? relative_to(whole, to) : NULL;
	free(whole);
	if (!moved)
		return false;
	free(*path);
	*path = moved;
	return true;
}

/* The paths a run in another working folder recorded (its cwd record, from
 * the manifest's folder at `path`), spelt from this process's
 * (manifest_load).  A tree moved whole, the output folder with it, keeps
 * its working folders. */
static bool rebase(manifest *m, const char *path)
{
	char *here, *folder, *from;
	bool ok = true;

	if (!m->cwd)
		return true;   /* spelt as written */
	here = getcwd(NULL, 0);
	folder = manifest_folder(path);
	from = here && folder ? absolute_of(m->cwd, folder) : NULL;
	if (from && strcmp(from, here) != 0) {
		struct stat st;
		bool is_there = stat(from, &st) == 0 && S_ISDIR(st.st_mode);

		ok = manifest_take_all(m);   /* every path spelt anew */
		for (size_t i = 0; ok && i < m->count; i++) {
			manifest_entry *e = &m->entries[i];

			e->raw = NULL;   /* its paths are spelt from here now */
			ok = rebase_path(&e->source, from, is_there, here);
			for (uint32_t d = 0; ok && d < e->dep_count; d++)
				ok = rebase_path(&e->deps[d].path, from, is_there, here);
		}
		if (ok && m->has_skeleton)
			ok = rebase_path(&m->skeleton.path, from, is_there, here);
		if (ok && m->count)
			ok = index_build(m, m->index_size);
	}
	free(from);
	free(folder);
	free(here);
	return ok;
}

/* manifest_save as `name` in the folder open at `at`. */
static bool save_at(const manifest *m, int at, const char *name, const char *path, build_hash *written,
		    cli_error *err)
{
	manifest with_cwd = *m;
	pieces p;
	size_t size = 0;
	build_hash h;
	bool ok;

	/* The working folder of this process, which the paths start from. */
	with_cwd.cwd = cwd_record(path);
	if (!format_pieces(&with_cwd, &p, &h)) {
		free(with_cwd.cwd);
		cli_error_set(err, "out of memory");
		return false;
	}
	free(with_cwd.cwd);
	if (written)
		*written = h;
	for (size_t i = 0; i < p.count; i++)
		size += p.items[i].size;
	/* What is there already stays, untouched (a no-op build writes nothing). */
	if (m->loaded_hash_known && size == m->loaded_size && build_hash_equal(&h, &m->loaded_hash)) {
		pieces_release(&p);
		return true;
	}
	ok = cli_write_atomic_pieces_at(at, name, path, p.items, p.count, err);
	pieces_release(&p);
	return ok;
}

bool manifest_save(const manifest *m, const char *path, build_hash *written, cli_error *err)
{
	return save_at(m, AT_FDCWD, path, path, written, err);
}

bool build_manifest_save_as(const build_ctx *ctx, const manifest *m, const char *path, build_hash *written,
			    cli_error *err)
{
	const char *name;
	int at = build_state_at(ctx, path, &name);

	return save_at(m, at, name, path, written, err);
}

/* -------------------------------------------------------------- reading */

#define FIELDS_MAX 16

typedef struct line {
	char *fields[FIELDS_MAX];   /* unescaped, in place */
	int count;
} line;

/* Split a line (NUL-terminated, no newline) at tabs and unescape each field
 * in place; false on a bad escape or too many fields. */
static bool split(char *s, line *l)
{
	l->count = 0;
	if (!strchr(s, '\\')) {
		/* No escape, as in most lines: cut at the tabs. */
		for (char *tab;; s = tab + 1) {
			if (l->count == FIELDS_MAX)
				return false;
			l->fields[l->count++] = s;
			if (!(tab = strchr(s, '\t')))
				return true;
			*tab = '\0';
		}
	}
	for (;;) {
		char *field = s, *out;

		if (l->count == FIELDS_MAX)
			return false;
		/* Up to its first escape, a field stays as it is. */
		s += strcspn(s, "\t\\");
		out = s;
		while (*s && *s != '\t') {
			if (*s != '\\') {
				*out++ = *s++;
				continue;
			}
			if (s[1] == '\\') {
				*out++ = '\\';
				s += 2;
			} else if (s[1] == 'x' && s[2] && s[3]) {
				char hex[3] = { s[2], s[3], 0 }, *end;
				unsigned long v = strtoul(hex, &end, 16);

				if (*end || v == 0)
					return false;
				*out++ = (char)v;
				s += 4;
			} else {
				return false;
			}
		}
		l->fields[l->count++] = field;
		if (!*s) {
			*out = '\0';
			return true;
		}
		s++;
		*out = '\0';
	}
}

/* A number as put_u64 writes it: decimal digits alone (leading zeros
 * read, no sign, no space), not past UINT64_MAX. */
static bool get_u64(const char *s, uint64_t *v)
{
	uint64_t n = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		unsigned digit = (unsigned)(unsigned char)*s - '0';

		if (digit > 9 || n > (UINT64_MAX - digit) / 10)
			return false;
		n = n * 10 + digit;
	}
	*v = n;
	return true;
}

static bool get_state(char **f, build_file_state *s)
{
	uint64_t mtime;

	if (!get_u64(f[0], &s->size) || !get_u64(f[1], &mtime) || !get_u64(f[2], &s->ino) ||
	    !get_u64(f[3], &s->dev) || mtime > INT64_MAX)
		return false;
	s->mtime_ns = (int64_t)mtime;
	return true;
}

/* A plain decimal ("0.052248", "1.5"; no sign, no exponent) of at most
 * 15 digits: the digits as an integer, and how many follow the point.
 * False for any other number, which strtod reads. */
static bool plain_decimal(const char *s, uint64_t *digits, int *decimals)
{
	uint64_t n = 0;
	int count = 0, after = -1;

	for (; *s; s++) {
		if (*s == '.' && after < 0) {
			after = 0;
			continue;
		}
		if (*s < '0' || *s > '9' || ++count > 15)
			return false;
		n = n * 10 + (uint64_t)(*s - '0');
		after += after >= 0;
	}
	*digits = n;
	*decimals = after < 0 ? 0 : after;
	return count > 0;
}

/* Where both the digits and the power of ten are exact in the type, one
 * division gives the number correctly rounded, as strtod and strtof do
 * (Clinger's fast path); only where arithmetic is done in the type
 * itself. */
static const double powers_of_ten[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13,
					1e14, 1e15 };

static bool get_double(const char *s, double *v)
{
	char *end;
	uint64_t digits;
	int decimals;

	if (FLT_EVAL_METHOD == 0 && plain_decimal(s, &digits, &decimals)) {
		*v = (double)digits / powers_of_ten[decimals];
		return *v < 1e12;
	}
	*v = strtod(s, &end);
	return *s && !*end && *v >= 0 && *v < 1e12;
}

/* A clip's duration as put_output writes it: any float a clip may last
 * (finite, not negative), in "%.9g", which gives the float back exactly. */
static bool get_duration(const char *s, float *v)
{
	char *end;
	uint64_t digits;
	int decimals;

	if (FLT_EVAL_METHOD == 0 && plain_decimal(s, &digits, &decimals) && digits < (1u << 24) && decimals <= 10) {
		*v = (float)digits / (float)powers_of_ten[decimals];
		return true;
	}
	*v = strtof(s, &end);
	return *s && !*end && isfinite(*v) && *v >= 0;   /* past FLT_MAX: HUGE_VALF */
}

bool manifest_path_is_inside(const char *path)
{
	const char *part = path;

	if (!path[0] || path[0] == '/')
		return false;
	for (;;) {
		if (part[0] == '.' && part[1] == '.' && (part[2] == '/' || part[2] == '\0'))
			return false;
		part = strchr(part, '/');
		if (!part)
			return true;
		part++;
	}
}

/* An output record's fields (l->fields[0] is its word). */
static manifest_record_status get_output(const line *l, manifest_output *o)
{
	uint64_t bones, mtime;

	memset(o, 0, sizeof *o);
	/* A twelfth field marks a root-motion file; a record without it (one
	 * written before the mark) is a clip. */
	if ((l->count != 11 && (l->count != 12 || strcmp(l->fields[11], "root-motion") != 0)) ||
	    !l->fields[1][0] || !get_u64(l->fields[3], &o->size) ||
	    !build_hash_parse(l->fields[4], &o->hash) || !get_u64(l->fields[5], &mtime) ||
	    mtime > INT64_MAX || !get_u64(l->fields[6], &o->state.ino) ||
	    !get_u64(l->fields[7], &o->state.dev) || !get_u64(l->fields[8], &bones) ||
	    bones > UINT32_MAX || !get_u64(l->fields[9], &o->keys) ||
	    !get_duration(l->fields[10], &o->duration_s))
		return MANIFEST_RECORD_BAD;
	/* A path that climbs out of OUTDIR is not one animc wrote. */
	if (!manifest_path_is_inside(l->fields[1]))
		return MANIFEST_RECORD_OUTSIDE;
	o->state.size = o->size;
	o->state.mtime_ns = (int64_t)mtime;
	o->bones = (uint32_t)bones;
	o->is_motion = l->count == 12;
	o->path = strdup(l->fields[1]);
	o->clip = strdup(l->fields[2]);
	if (!o->path || !o->clip) {
		manifest_output_release(o);
		return MANIFEST_RECORD_BAD;
	}
	return MANIFEST_RECORD_OK;
}

manifest_record_status manifest_output_parse(char *s, const char *word, manifest_output *o)
{
	line l;

	memset(o, 0, sizeof *o);
	if (!split(s, &l) || strcmp(l.fields[0], word) != 0)
		return MANIFEST_RECORD_BAD;
	return get_output(&l, o);
}

static bool append_dep(manifest_entry *e, const build_dep *d)
{
	build_dep *grown = realloc(e->deps, (e->dep_count + 1) * sizeof *grown);

	if (!grown)
		return false;
	e->deps = grown;
	e->deps[e->dep_count++] = *d;
	return true;
}

static bool append_output(manifest_entry *e, const manifest_output *o)
{
	manifest_output *grown = realloc(e->outputs, (e->output_count + 1) * sizeof *grown);

	if (!grown)
		return false;
	e->outputs = grown;
	e->outputs[e->output_count++] = *o;
	return true;
}

/* A "warning" record: line, column, byte offset + 1 (0: none), message,
 * and its kind when it has one (records of animc before kinds have none;
 * a kind this animc does not know reads as none). */
static bool append_warning(manifest_entry *e, char **f, bool has_kind)
{
	uint64_t at_line, column, offset;
	build_diag *grown;

	if (!get_u64(f[0], &at_line) || !get_u64(f[1], &column) || !get_u64(f[2], &offset) ||
	    at_line > UINT32_MAX || column > UINT32_MAX || offset > (uint64_t)INT64_MAX ||
	    e->warning_count == UINT32_MAX)
		return false;
	grown = realloc(e->warnings, (e->warning_count + 1) * sizeof *grown);
	if (!grown)
		return false;
	e->warnings = grown;
	grown[e->warning_count] = (build_diag){ ANIMC_WARNING, (uint32_t)at_line, (uint32_t)column,
						(int64_t)offset - 1, strdup(f[3]),
						has_kind ? build_kind_name(f[4]) : NULL, false, 0 };
	if (!grown[e->warning_count].message)
		return false;
	e->warning_count++;
	return true;
}

static bool parse_status(const char *s, build_status *status)
{
	for (int i = 0; i < BUILD_STATUS_COUNT; i++)
		if (strcmp(s, build_status_name((build_status)i)) == 0 && i != BUILD_UP_TO_DATE) {
			*status = (build_status)i;
			return true;
		}
	return false;
}

/* The version line of a manifest not of MANIFEST_VERSION (`rest` follows
 * the magic and its space): a number is another animc's format version.
 * Version 1 is the first, so another is a later animc's, which a build
 * refuses to save over; an animc that writes a later version reads (or
 * rebuilds over) the earlier ones instead of refusing them. */
static manifest_load_status other_version(const char *rest, size_t size, cli_error *err)
{
	size_t n = 0;

	while (n < size && n < 16 && rest[n] >= '0' && rest[n] <= '9')
		n++;
	if (n == 0 || n == size || rest[n] != '\n') {
		cli_error_set(err, "it is of another format version than %d", MANIFEST_VERSION);
		return MANIFEST_FOREIGN;
	}
	cli_error_set(err, "a manifest of format version %.*s, which another animc writes (this one writes version "
		      "%d)", (int)n, rest, MANIFEST_VERSION);
	return MANIFEST_OTHER_VERSION;
}

/* What surrounds the records: the magic and version, no NUL byte, and the
 * closing line "end\t<hash>\n" whose hash covers everything before it.
 * MANIFEST_LOADED when they are right, *body then the records' length and
 * *whole the hash of all `size` bytes. */
static manifest_load_status check_envelope(const char *data, size_t size, size_t *body, build_hash *whole,
					   cli_error *err)
{
	build_hash closing, want;
	char hex[33];

	if (size < sizeof MANIFEST_MAGIC || memcmp(data, MANIFEST_MAGIC " ", sizeof MANIFEST_MAGIC) != 0) {
		cli_error_set(err, "it is not an animc manifest");
		return MANIFEST_FOREIGN;
	}
	if (size < 2 + sizeof MANIFEST_MAGIC || memcmp(data + sizeof MANIFEST_MAGIC, "1\n", 2) != 0)
		return other_version(data + sizeof MANIFEST_MAGIC, size - sizeof MANIFEST_MAGIC, err);
	if (memchr(data, '\0', size)) {
		cli_error_set(err, "it holds a NUL byte");
		return MANIFEST_DAMAGED;
	}
	if (size < 38 || data[size - 1] != '\n' || memcmp(data + size - 37, "end\t", 4) != 0 ||
	    data[size - 38] != '\n') {
		cli_error_set(err, "it is cut short (no closing line)");
		return MANIFEST_DAMAGED;
	}
	*body = size - 37;
	memcpy(hex, data + size - 33, 32);
	hex[32] = '\0';
	if (!build_hash_parse(hex, &want)) {
		cli_error_set(err, "its closing line is damaged");
		return MANIFEST_DAMAGED;
	}
	build_hash_bytes_and_prefix(data, *body, size, &closing, whole);
	if (!build_hash_equal(&closing, &want)) {
		cli_error_set(err, "its checksum does not match its content");
		return MANIFEST_DAMAGED;
	}
	return MANIFEST_LOADED;
}

/* Room for every source record at once: no array copied as it grows. */
static void reserve_entries(manifest *m, const char *records)
{
	size_t sources = 0;

	for (const char *p = records; (p = strstr(p, "\nsource\t")); p++)
		sources++;
	if (sources) {
		m->entries = malloc(sources * sizeof *m->entries);
		if (m->entries)
			m->capacity = sources;
	}
}

/* Room for the entries of `size` bytes, guessed from their size: the
 * records of a source with an output take about 280 bytes.  (More entries
 * than that grow the arrays; an index too large costs a page each of its
 * slots filled lands in.) */
static void reserve_lazily(manifest *m, size_t size)
{
	size_t sources = size / 256 + 16;

	m->lazy_paths = malloc(sources * sizeof *m->lazy_paths);
	m->lazy_path_capacity = m->lazy_paths ? sources : 0;

	m->entries = malloc(sources * sizeof *m->entries);
	if (m->entries)
		m->capacity = sources;
	manifest_reserve(m, sources);
}

static bool parse_source(manifest *m, line *l, int line_no, manifest_entry **current, cli_error *err)
{
	manifest_entry e = { 0 };
	double time_s;

	if (!l->fields[1][0] || manifest_find_output(m, l->fields[1], l->fields[5]) ||
	    !parse_status(l->fields[2], &e.status) ||
	    strlen(l->fields[3]) >= sizeof e.importer || !get_state(&l->fields[6], &e.state) ||
	    !build_hash_parse(l->fields[10], &e.hash) || !build_hash_parse(l->fields[11], &e.key) ||
	    !build_hash_parse(l->fields[12], &e.run_key) || !get_double(l->fields[13], &time_s))
		return cli_error_set(err, "line %d: a bad source record", line_no);
	memcpy(e.importer, l->fields[3], strlen(l->fields[3]) + 1);
	e.time_s = time_s;
	e.source = strdup(l->fields[1]);
	e.skip_reason = l->fields[4][0] ? strdup(l->fields[4]) : NULL;
	e.out_base = strdup(l->fields[5]);
	if (!e.source || !e.out_base || (l->fields[4][0] && !e.skip_reason) || !(*current = manifest_add(m, &e))) {
		manifest_entry_release(&e);
		return cli_error_set(err, "out of memory");
	}
	return true;
}

/* An output of the current source, or an orphan (which closes the source
 * records). */
static bool parse_output(manifest *m, const line *l, int line_no, manifest_entry **current, cli_error *err)
{
	manifest_output o;

	if (get_output(l, &o) != MANIFEST_RECORD_OK)
		return cli_error_set(err, "line %d: a bad output record", line_no);
	if (l->fields[0][1] == 'r') {
		*current = NULL;
		if (!manifest_add_orphan(m, &o)) {
			manifest_output_release(&o);
			return cli_error_set(err, "out of memory");
		}
	} else if (!append_output(*current, &o)) {
		manifest_output_release(&o);
		return cli_error_set(err, "out of memory");
	}
	return true;
}

/* A line that starts no record of this animc: a word it does not know
 * starts one of a later animc's (records were added within format version
 * 1, as `cwd` was), said so; anything else is damage. */
static bool unknown_record(const line *l, int line_no, cli_error *err)
{
	static const char *const known[] = { "options", "cwd", "skeleton", "source", "dep", "output", "orphan",
					     "warning" };
	const char *kind = l->fields[0];
	size_t n = strspn(kind, "abcdefghijklmnopqrstuvwxyz-");
	bool is_word = n > 0 && n <= 32 && kind[n] == '\0';

	for (size_t i = 0; is_word && i < sizeof known / sizeof known[0]; i++)
		is_word = strcmp(kind, known[i]) != 0;
	if (is_word)
		return cli_error_set(err, "line %d is a '%s' record, which this animc does not know (one a later "
				     "animc writes?)", line_no, kind);
	return cli_error_set(err, "line %d is not a record animc writes", line_no);
}

/* One record after the magic line (line_no >= 2). */
static bool parse_record(manifest *m, line *l, int line_no, manifest_entry **current, cli_error *err)
{
	const char *kind = l->fields[0];

	if (strcmp(kind, "options") == 0 && l->count == 2 && line_no == 2) {
		if (!build_hash_parse(l->fields[1], &m->options))
			return cli_error_set(err, "line %d: a bad hash", line_no);
	} else if (line_no == 2) {
		return cli_error_set(err, "line 2 is not the options line");
	} else if (strcmp(kind, "cwd") == 0 && l->count == 2 && line_no == 3) {
		if (!l->fields[1][0] || l->fields[1][0] == '/' || !(m->cwd = strdup(l->fields[1])))
			return cli_error_set(err, "line %d: a bad working folder record", line_no);
	} else if (strcmp(kind, "skeleton") == 0 && l->count == 7 && !m->has_skeleton && m->count == 0) {
		m->skeleton.path = strdup(l->fields[1]);
		if (!m->skeleton.path || !get_state(&l->fields[2], &m->skeleton.state) ||
		    !build_hash_parse(l->fields[6], &m->skeleton.hash))
			return cli_error_set(err, "line %d: a bad skeleton record", line_no);
		m->has_skeleton = true;
	} else if (strcmp(kind, "source") == 0 && l->count == 14) {
		return parse_source(m, l, line_no, current, err);
	} else if (strcmp(kind, "dep") == 0 && l->count == 7 && *current) {
		build_dep d = { 0 };

		d.path = strdup(l->fields[1]);
		if (!d.path || !l->fields[1][0] || !get_state(&l->fields[2], &d.state) ||
		    !build_hash_parse(l->fields[6], &d.hash) || !append_dep(*current, &d)) {
			free(d.path);
			return cli_error_set(err, "line %d: a bad dependency record", line_no);
		}
	} else if ((strcmp(kind, "output") == 0 && *current) || strcmp(kind, "orphan") == 0) {
		return parse_output(m, l, line_no, current, err);
	} else if (strcmp(kind, "warning") == 0 && (l->count == 5 || l->count == 6) && *current) {
		if (!append_warning(*current, &l->fields[1], l->count == 6))
			return cli_error_set(err, "line %d: a bad warning record", line_no);
	} else {
		return unknown_record(l, line_no, err);
	}
	return true;
}

/* Entry e's raw records take in the line at original[start, end): it
 * starts them when it is e's source line. */
static void extend_raw(manifest_entry *e, const char *original, size_t start, size_t end)
{
	if (!e->raw)
		e->raw = original + start;
	e->raw_size = (size_t)(original + end - e->raw);
}

/* Line l of the manifest, from the `size` bytes at `at`, copied into
 * *scratch (grown as needed; its size in *cap), cut into fields there.
 * False, *err set, when it is not well-formed or memory runs out. */
static bool split_copy(const char *at, size_t size, char **scratch, size_t *cap, line *l, int line_no,
		       cli_error *err)
{
	if (size + 1 > *cap) {
		size_t want = size + 1 > 2 * *cap ? size + 1 : 2 * *cap;
		char *grown = realloc(*scratch, want);

		if (!grown)
			return cli_error_set(err, "out of memory");
		*scratch = grown;
		*cap = want;
	}
	memcpy(*scratch, at, size);
	(*scratch)[size] = '\0';
	if (!split(*scratch, l))
		return cli_error_set(err, "line %d is not well-formed", line_no);
	return true;
}


/* The field [at, end), unescaped, NUL-terminated, in m's arena; NULL on
 * a bad escape. */
static char *arena_copy(manifest *m, const char *at, const char *end)
{
	size_t size = (size_t)(end - at);
	char *out = m->arena + m->arena_used;
	line l;

	memcpy(out, at, size);
	out[size] = '\0';
	m->arena_used += size + 1;
	if (memchr(out, '\\', size) && (!split(out, &l) || l.count != 1))
		return NULL;
	return out;
}

/* The source and out base of the source line [at, end) into e, in m's
 * arena; false when it has no such fields, or a bad escape. */
static bool source_fields(manifest *m, const char *at, const char *end, manifest_entry *e)
{
	const char *field = at + sizeof "source", *tab = memchr(field, '\t', (size_t)(end - field));

	if (!tab || !(e->source = arena_copy(m, field, tab)))
		return false;
	/* Past the status, importer and skip reason. */
	for (int i = 0; i < 3; i++)
		if (!(tab = memchr(tab + 1, '\t', (size_t)(end - tab - 1))))
			return false;
	field = tab + 1;
	tab = memchr(field, '\t', (size_t)(end - field));
	return (e->out_base = arena_copy(m, field, tab ? tab : end)) != NULL;
}

static bool starts_word(const char *at, const char *end, const char *word, size_t n)
{
	return (size_t)(end - at) > n && memcmp(at, word, n) == 0 && at[n] == '\t';
}

/* The path of the record at [at, end), n bytes into it, noted for the
 * last entry; false when memory runs out. */
static bool note_path(manifest *m, const char *at, const char *end, size_t n, bool is_output)
{
	const char *field = at + n + 1, *field_end = memchr(field, '\t', (size_t)(end - field));

	if (m->lazy_path_count == m->lazy_path_capacity) {
		size_t capacity = m->lazy_path_capacity ? 2 * m->lazy_path_capacity : 1024;
		struct manifest_lazy_path *grown = realloc(m->lazy_paths, capacity * sizeof *grown);

		if (!grown)
			return false;
		m->lazy_paths = grown;
		m->lazy_path_capacity = capacity;
	}
	m->lazy_paths[m->lazy_path_count++] = (struct manifest_lazy_path){
		field, (size_t)((field_end ? field_end : end) - field), m->count - 1, is_output };
	return true;
}

/* A line read lazily: a source line starts a lazy entry (its source and
 * destination read, and checked not to repeat another's, as parse_source
 * does), a dependency, output or warning line of it is kept as it is.  1
 * when so, 0 for a line parse_record reads, -1 (*err set) on damage. */
static int lazy_record(manifest *m, const char *at, const char *end, int line_no, manifest_entry **current,
		       cli_error *err)
{
	manifest_entry e = { 0 };
	bool is_dep = starts_word(at, end, "dep", 3), is_output = !is_dep && starts_word(at, end, "output", 6);

	if (*current && (is_dep || is_output) && !note_path(m, at, end, is_dep ? 3 : 6, is_output)) {
		cli_error_set(err, "out of memory");
		return -1;
	}
	if (*current && (is_dep || is_output || starts_word(at, end, "warning", 7)))
		return 1;
	if (!starts_word(at, end, "source", 6))
		return 0;
	bool is_repeat = false;

	if (!source_fields(m, at, end, &e) || !e.source[0] ||
	    (e.is_lazy = true, !(*current = add_unless_repeated(m, &e, &is_repeat)) && is_repeat)) {
		cli_error_set(err, "line %d: a bad source record", line_no);
		return -1;
	}
	if (!*current) {
		cli_error_set(err, "out of memory");
		return -1;
	}
	m->lazy_count++;
	return 1;
}

/* Room for the arena of a lazy read of `size` bytes: a source line is
 * over 100 bytes long, and gives two fields and their NULs. */
static bool arena_make(manifest *m, size_t size)
{
	m->arena = malloc(size + size / 32 + 16);
	return m->arena != NULL;
}

/* The parser proper: `bytes` (size + 1 bytes, the last one a NUL the
 * caller put there) is read a line at a time, each cut into fields in a
 * copy, so that it stays as it is: each entry's raw records point into
 * it.  *whole gets the hash of its `size` bytes. */
static manifest_load_status parse(manifest *m, const char *bytes, size_t size, bool lazy, build_hash *whole,
				  cli_error *err)
{
	manifest_entry *current = NULL;
	manifest_load_status status;
	const char *at, *end_line, *end;
	char *scratch = NULL;
	size_t body, cap = 0;
	int line_no = 0;

	memset(m, 0, sizeof *m);
	status = check_envelope(bytes, size, &body, whole, err);
	if (status != MANIFEST_LOADED)
		return status;
	if (lazy && !arena_make(m, size)) {
		cli_error_set(err, "out of memory");
		goto damaged;
	}
	if (lazy)
		reserve_lazily(m, size);
	else
		reserve_entries(m, bytes);
	for (at = bytes, end = bytes + body; at < end; at = end_line + 1) {
		line l;
		int read = 0;

		end_line = memchr(at, '\n', (size_t)(end - at));
		if (!end_line) {
			cli_error_set(err, "line %d has no end", line_no + 1);
			goto damaged;
		}
		if (++line_no == 1)
			continue;   /* the magic, checked above */
		if (lazy && line_no > 2 && (read = lazy_record(m, at, end_line, line_no, &current, err)) < 0)
			goto damaged;
		if (!read && (!split_copy(at, (size_t)(end_line - at), &scratch, &cap, &l, line_no, err) ||
			      !parse_record(m, &l, line_no, &current, err)))
			goto damaged;
		if (current)
			extend_raw(current, bytes, (size_t)(at - bytes), (size_t)(end_line + 1 - bytes));
	}
	free(scratch);
	if (line_no >= 2)
		return MANIFEST_LOADED;
	cli_error_set(err, "it has no options line");
	manifest_release(m);
	return MANIFEST_DAMAGED;
damaged:
	free(scratch);
	manifest_release(m);
	return MANIFEST_DAMAGED;
}

static manifest_load_status parse_copy(manifest *m, const char *data, size_t size, bool lazy, cli_error *err)
{
	char *copy = malloc(size + 1);
	manifest_load_status status;
	build_hash whole;

	memset(m, 0, sizeof *m);
	if (!copy) {
		cli_error_set(err, "out of memory");
		return MANIFEST_DAMAGED;
	}
	memcpy(copy, data, size);
	copy[size] = '\0';
	status = parse(m, copy, size, lazy, &whole, err);
	if (status == MANIFEST_LOADED)
		m->text = copy;   /* the raw records point into it */
	else
		free(copy);
	return status;
}

manifest_load_status manifest_parse(manifest *m, const char *data, size_t size, cli_error *err)
{
	return parse_copy(m, data, size, false, err);
}

manifest_load_status manifest_parse_lazy(manifest *m, const char *data, size_t size, cli_error *err)
{
	return parse_copy(m, data, size, true, err);
}

/* Whether the run that wrote m worked in another folder than this one
 * (rebase spells its paths anew). */
static bool written_elsewhere(const manifest *m, const char *path)
{
	char *here, *folder, *from;
	bool elsewhere;

	if (!m->cwd)
		return false;
	here = getcwd(NULL, 0);
	folder = manifest_folder(path);
	from = here && folder ? absolute_of(m->cwd, folder) : NULL;
	elsewhere = !from || strcmp(from, here) != 0;
	free(from);
	free(folder);
	free(here);
	return elsewhere;
}

/* The manifest open at `fd` (a regular file of st's size > 0), mapped:
 * read lazily, its records are not all read, and saving carries most of
 * them over as they are, so they are not copied (as read() would, which
 * costs more than the rest of such a build at thousands of sources).
 * The mapping keeps its inode from being another file's while it lives.
 * animc replaces a manifest by renaming a new one over it, never
 * writing it in place, so the mapped bytes stay as read. */
static char *map_opened(int fd, const struct stat *st)
{
	void *map = MAP_FAILED;

	if ((uint64_t)st->st_size < SIZE_MAX / 2)
		map = mmap(NULL, (size_t)st->st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	return map == MAP_FAILED ? NULL : map;
}

/* Parse a manifest read lazily from the file open at `fd` into *status;
 * false, nothing done, when it cannot be mapped (it is read). */
static bool load_mapped(manifest *m, int fd, const struct stat *st, build_hash *whole, manifest_load_status *status,
			cli_error *err)
{
	size_t size = (size_t)st->st_size;
	char *map = map_opened(fd, st);

	if (!map)
		return false;
	*status = parse(m, map, size, true, whole, err);
	if (*status != MANIFEST_LOADED) {
		munmap(map, size);
		return true;
	}
	m->text = map;
	m->text_mapped = size;
	m->loaded_size = size;
	m->loaded_id_known = true;
	m->loaded_id = (build_file_state){ (uint64_t)st->st_size, (int64_t)st->st_mtim.tv_sec * 1000000000 +
					   st->st_mtim.tv_nsec, st->st_ino, st->st_dev };
	m->loaded_ctime_ns = (int64_t)st->st_ctim.tv_sec * 1000000000 + st->st_ctim.tv_nsec;
	return true;
}

/* manifest_is_unchanged of the file `name` in the folder open at `at`. */
static bool is_unchanged_at(const manifest *m, int at, const char *name)
{
	struct stat st;

	/* The file m maps is not reused while m maps it: one of its inode
	 * is it, unless written in place (then its times moved). */
	return m->loaded_id_known && fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
	       st.st_dev == m->loaded_id.dev && st.st_ino == m->loaded_id.ino &&
	       (uint64_t)st.st_size == m->loaded_id.size &&
	       (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec == m->loaded_id.mtime_ns &&
	       (int64_t)st.st_ctim.tv_sec * 1000000000 + st.st_ctim.tv_nsec == m->loaded_ctime_ns;
}

bool manifest_is_unchanged(const manifest *m, const char *path)
{
	return is_unchanged_at(m, AT_FDCWD, path);
}

/*
 * The state file `name` of the folder open at `at` opened for reading,
 * following no symbolic link in its place; from the working folder
 * (AT_FDCWD: `animc outputs`, `animc watch`, which open no state folder),
 * no link in its folder's place either (OUTDIR/.animc a link: the build
 * refuses it, and these read the manifest at its far end, which may lie
 * anywhere).  -1 with ELOOP for either, *is_folder_link telling which.
 */
static int open_state_file(int at, const char *name, bool *is_folder_link)
{
	const int flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
	const char *base = cli_basename(name);
	size_t n = (size_t)(base - name);
	struct stat st;
	char *dir;
	int dir_fd, fd, error;

	*is_folder_link = false;
	if (at != AT_FDCWD || n == 0)
		return openat(at, name, flags);
	while (n > 1 && name[n - 1] == '/')
		n--;   /* a trailing slash would follow the link */
	if (!(dir = strndup(name, n)))
		return -1;
	dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	error = errno;
	/* O_DIRECTORY says ENOTDIR of a link, O_NOFOLLOW ELOOP. */
	*is_folder_link = dir_fd < 0 && (error == ELOOP || error == ENOTDIR) && lstat(dir, &st) == 0 &&
			  S_ISLNK(st.st_mode);
	free(dir);
	if (dir_fd < 0) {
		errno = *is_folder_link ? ELOOP : error;
		return -1;
	}
	fd = openat(dir_fd, base, flags);
	error = errno;
	close(dir_fd);
	errno = error;
	return fd;
}

/* The manifest at `path`, reached as `name` in the folder open at `at`
 * (AT_FDCWD: `name` is `path`). */
static manifest_load_status load(manifest *m, int at, const char *name, const char *path, bool lazy,
				 cli_error *err)
{
	uint8_t *data;
	size_t size;
	manifest_load_status status;
	build_hash whole;
	struct stat st;

	/* Not read through a link put in its place (opened so, not checked
	 * and then opened): the file at its far end is no record of this
	 * folder, and may lie anywhere. */
	bool is_folder_link;
	int fd = open_state_file(at, name, &is_folder_link);

	memset(m, 0, sizeof *m);
	if (fd < 0 && errno == ENOENT)
		return MANIFEST_ABSENT;
	if (fd < 0 && errno == ELOOP) {
		cli_error_set(err, is_folder_link ? "its folder is a symbolic link, not the folder animc makes; not "
			      "read through it" : "it is a symbolic link, not the file animc writes; not read through it");
		return MANIFEST_DAMAGED;
	}
	if (lazy && fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    load_mapped(m, fd, &st, &whole, &status, err)) {
		close(fd);
		size = m->loaded_size;
		data = NULL;
	} else {
		if (!cli_read_opened(fd, path, &data, &size, err))
			return MANIFEST_DAMAGED;
		/* cli_read_opened ends the bytes with a NUL.  They stay, for
		 * the raw records. */
		status = parse(m, (const char *)data, size, lazy, &whole, err);
		if (status == MANIFEST_LOADED) {
			m->text = (char *)data;
			data = NULL;
		}
	}
	if (status == MANIFEST_LOADED && lazy && written_elsewhere(m, path) && !manifest_take_all(m)) {
		cli_error_set(err, "%s", m->take_error ? m->take_error : "a record is not well-formed");
		manifest_release(m);
		status = MANIFEST_DAMAGED;
	}
	if (status == MANIFEST_LOADED && !rebase(m, path)) {
		manifest_release(m);
		cli_error_set(err, "out of memory");
		status = MANIFEST_DAMAGED;
	}
	if (status == MANIFEST_LOADED) {
		m->loaded_hash_known = true;
		m->loaded_size = size;
		m->loaded_hash = whole;
	}
	free(data);
	return status;
}

/* ------------------------------------------------------------- merging */

static bool has_string(const cli_strings *list, const char *s)
{
	for (size_t i = 0; list && i < list->count; i++)
		if (strcmp(list->items[i], s) == 0)
			return true;
	return false;
}

static bool has_orphan(const manifest_output *list, size_t count, const char *path)
{
	for (size_t i = 0; i < count; i++)
		if (strcmp(list[i].path, path) == 0)
			return true;
	return false;
}

/* An output of an entry of the merged view, by its path. */
typedef struct output_ref {
	const char *path;
	size_t entry;
	uint32_t output;
} output_ref;

static int compare_ref(const void *a, const void *b)
{
	return strcmp(((const output_ref *)a)->path, ((const output_ref *)b)->path);
}

/* Entry e of the view without its output k: a copy of its outputs, kept
 * in `copies` until the save is done.  Its source state is forgotten, so
 * that the next build that names it compiles it again rather than taking
 * it as up to date without that output.  False when out of memory. */
static bool drop_output(manifest_entry *e, uint32_t k, cli_bytes *copies)
{
	manifest_output *kept = malloc((e->output_count ? e->output_count : 1) * sizeof *kept);

	if (kept)
		cli_bytes_put(copies, &kept, sizeof kept);
	if (!kept || copies->is_broken) {
		free(kept);
		return false;
	}
	memcpy(kept, e->outputs, k * sizeof *kept);
	memcpy(kept + k, e->outputs + k + 1, (e->output_count - k - 1) * sizeof *kept);
	e->outputs = kept;
	e->output_count--;
	e->raw = NULL;
	memset(&e->state, 0, sizeof e->state);
	memset(&e->hash, 0, sizeof e->hash);
	return true;
}

/* A source by its folder (device and inode) and its name there, with the
 * place it is built to: what same_file_and_folder compares, but for a
 * source deleted since it was built, kept to look up.  `entry` is its
 * index among this run's entries. */
typedef struct {
	dev_t dir_dev;
	ino_t dir_ino;
	const char *leaf, *out_base;
	size_t entry;
} source_id;

static bool source_id_of(const manifest_entry *e, size_t entry, source_id *id)
{
	struct stat dir;
	const char *leaf = cli_basename(e->source);
	char *folder = strndup(e->source, (size_t)(leaf - e->source));
	bool known = folder && stat(folder[0] ? folder : ".", &dir) == 0;

	free(folder);
	if (known)
		*id = (source_id){ dir.st_dev, dir.st_ino, leaf, e->out_base ? e->out_base : "", entry };
	return known;
}

static int compare_source_id(const void *pa, const void *pb)
{
	const source_id *a = pa, *b = pb;
	int c;

	if (a->dir_dev != b->dir_dev)
		return a->dir_dev < b->dir_dev ? -1 : 1;
	if (a->dir_ino != b->dir_ino)
		return a->dir_ino < b->dir_ino ? -1 : 1;
	if ((c = strcmp(a->leaf, b->leaf)) != 0)
		return c;
	return strcmp(a->out_base, b->out_base);
}

/* The sources of this run's entries (entries[0, mine)), sorted; *count of
 * them (one whose folder is gone is left out).  NULL with *count 0 when
 * there is none, or when out of memory: then two spellings of one file
 * are taken for two sources, and the merge says output-taken-over of them. */
static source_id *ids_of(const manifest_entry *entries, size_t mine, size_t *count)
{
	source_id *ids = mine ? malloc(mine * sizeof *ids) : NULL;
	size_t n = 0;

	*count = 0;
	if (!ids)
		return NULL;
	for (size_t e = 0; e < mine; e++)
		n += source_id_of(&entries[e], e, &ids[n]);
	qsort(ids, n, sizeof *ids, compare_source_id);
	*count = n;
	return ids;
}

/* This run's entry of another build's source spelt another way
 * ("art/Walk.Animation" and "$PWD/art/Walk.Animation", a CMake rule and a
 * watch at once): one source, which this run compiled last, as when both
 * spell it alike.  NULL when it is another source. */
static const manifest_entry *one_of(const source_id *ids, size_t count, const manifest_entry *entries,
				    const manifest_entry *theirs)
{
	source_id id;
	const source_id *hit;

	if (!count || !source_id_of(theirs, 0, &id) || !(hit = bsearch(&id, ids, count, sizeof *ids, compare_source_id)))
		return NULL;
	return &entries[hit->entry];
}

/* Another build's entries into the merged view (entries[0, mine) this
 * run's), but for the sources this run compiled or pruned.  Of a source
 * this run compiled, the other build's outputs that this run's record
 * does not hold (another --split, another clip list) become orphans, as a
 * build after it would have made them: `animc clean` and --prune find
 * them.  The count of entries; *orphan_count grows. */
static size_t merge_theirs(const manifest *ours, const manifest *latest, const cli_strings *pruned,
			   manifest_entry *entries, size_t mine, manifest_output *orphans, size_t *orphan_count)
{
	size_t id_count, count = mine;
	source_id *ids = ids_of(entries, mine, &id_count);

	for (size_t i = 0; i < latest->count; i++) {
		/* By source and destination: a source built to two places has
		 * two records, and this run's of one is not the other's. */
		const manifest_entry *theirs = &latest->entries[i];
		const manifest_entry *found = manifest_find_output(ours, theirs->source, theirs->out_base);
		const manifest_entry *same = found && found->is_ours ? found : one_of(ids, id_count, entries, theirs);

		if (!same) {
			if (!has_string(pruned, theirs->source))
				entries[count++] = *theirs;
			continue;
		}
		for (uint32_t k = 0; k < theirs->output_count; k++) {
			const char *path = theirs->outputs[k].path;
			bool held = has_orphan(orphans, *orphan_count, path);

			for (size_t e = 0; e < mine && !held; e++)
				held = has_orphan(entries[e].outputs, entries[e].output_count, path);
			if (!held && !has_orphan(same->outputs, same->output_count, path))
				orphans[(*orphan_count)++] = theirs->outputs[k];
		}
	}
	free(ids);
	return count;
}

/*
 * Two builds at once whose sources write one output name (per-file rules
 * under make -j) each recorded it: neither knew of the other's when it
 * wrote.  The file holds what one of them wrote last; that source keeps
 * it, the other loses it, and this run says the takeover once (it cannot
 * be refused any more: the file is written).  entries[0, mine) are this
 * run's, the rest the other builds'.
 */
static bool one_owner_an_output(build_ctx *ctx, manifest_entry *entries, size_t mine, size_t count,
				cli_bytes *copies)
{
	output_ref *refs;
	size_t n = 0;
	bool ok = true;

	for (size_t e = 0; e < mine; e++)
		n += entries[e].output_count;
	if (!n)
		return true;
	if (!(refs = malloc(n * sizeof *refs)))
		return false;
	n = 0;
	for (size_t e = 0; e < mine; e++)
		for (uint32_t k = 0; k < entries[e].output_count; k++)
			refs[n++] = (output_ref){ entries[e].outputs[k].path, e, k };
	qsort(refs, n, sizeof *refs, compare_ref);
	for (size_t e = mine; ok && e < count; e++) {
		for (uint32_t k = 0; ok && k < entries[e].output_count; k++) {
			output_ref key = { entries[e].outputs[k].path, 0, 0 }, *hit;
			manifest_output *theirs = &entries[e].outputs[k];
			char *path;
			build_hash now;
			cli_error err;
			bool they_wrote_last, said;

			if (!(hit = bsearch(&key, refs, n, sizeof *refs, compare_ref)) ||
			    strcmp(entries[hit->entry].source, entries[e].source) == 0)
				continue;
			path = cli_path_join(ctx->options->out_dir, theirs->path, NULL);
			they_wrote_last = path && build_hash_file(path, &now, &err) &&
					  build_hash_equal(&now, &theirs->hash) &&
					  !build_hash_equal(&now, &entries[hit->entry].outputs[hit->output].hash);
			said = has_string(&ctx->takeovers_said, path ? path : theirs->path);
			/* Under --warnings-as-errors, unless allowed, an error: the
			 * file is written, but the run fails, as it would have had
			 * the two builds run one after the other. */
			animc_severity severity = ctx->options->warnings_as_errors &&
						  !build_options_allows(ctx->options, "output-taken-over") ?
						  ANIMC_ERROR : ANIMC_WARNING;
			if (!said && path && cli_strings_push(&ctx->takeovers_said, path)) {
				if (they_wrote_last)
					build_say_kind(ctx, severity, "output-taken-over", entries[hit->entry].source,
						       "'%s' is the output of '%s' now: another build into this folder "
						       "wrote it after this one: build the two into other folders, or give "
						       "one another name", path, entries[e].source);
				else
					build_say_kind(ctx, severity, "output-taken-over", entries[hit->entry].source,
						       "'%s' was the output of '%s' (another build into this folder at the "
						       "same time); this source wrote it over that: build the two into "
						       "other folders, or give one another name", path, entries[e].source);
			}
			free(path);
			if (they_wrote_last) {
				/* This run's output k of its entry is gone: later refs of
				 * that entry move down one. */
				size_t owner = hit->entry;
				uint32_t gone = hit->output;

				ok = drop_output(&entries[owner], gone, copies);
				for (size_t i = 0; ok && i < n; i++) {
					if (refs[i].entry == owner && refs[i].output > gone)
						refs[i].output--;
				}
				memmove(hit, hit + 1, (size_t)(refs + n - (hit + 1)) * sizeof *refs);
				n--;
			} else {
				ok = drop_output(&entries[e], k, copies);
				k--;   /* the next output is at k now */
			}
		}
	}
	free(refs);
	return ok;
}

/* Does the file at `path` hold the bytes whose hash is `want`?  Read a
 * piece at a time: the whole of it is not kept. */
static bool file_hash_is(int at, const char *name, const build_hash *want)
{
	enum { PIECE = 64 * 1024 };
	int fd = openat(at, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	uint8_t *piece = fd >= 0 ? malloc(PIECE) : NULL;
	XXH3_state_t *state = piece ? XXH3_createState() : NULL;
	bool ok = state && XXH3_128bits_reset(state) == XXH_OK;
	build_hash got;
	ssize_t n;

	while (ok && (n = read(fd, piece, PIECE)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		ok = n > 0 && XXH3_128bits_update(state, piece, (size_t)n) == XXH_OK;
	}
	if (ok)
		build_hash_from_state(state, &got);
	XXH3_freeState(state);
	free(piece);
	if (fd >= 0)
		close(fd);
	return ok && build_hash_equal(&got, want);
}

/* The manifest's lock at fd (`path`) held by another build saving: said
 * on stderr, with who holds it, once a run, -q or not, as the wait for
 * OUTDIR's lock is (a run that seems to hang says why).  It waited without
 * a word for as long as the holder held it. */
static void say_save_wait(build_ctx *ctx, int fd, const char *path)
{
	char who[128];

	if (ctx->said_save_wait || flock(fd, LOCK_EX | LOCK_NB) == 0 || errno != EWOULDBLOCK)
		return;
	build_lock_holder(fd, who, sizeof who);
	fprintf(stderr, "animc: waiting for '%s', locked by %s: another build of this folder saving its "
		"manifest\n", path, who[0] ? who : "another process");
	fflush(stderr);
	ctx->said_save_wait = true;
}

/* OUTDIR/.animc/manifest.lock, made and held for a save: its descriptor,
 * or -1 (said in err) when it cannot be. */
static int take_save_lock(build_ctx *ctx, const char *path, cli_error *err)
{
	char *lock_path = malloc(strlen(path) + 6);
	int fd;

	if (!lock_path) {
		cli_error_set(err, "out of memory");
		return -1;
	}
	sprintf(lock_path, "%s.lock", path);
	/* Saved unlocked, it could drop what another build saves meanwhile,
	 * whose journal then goes: outputs known to no one.  Not saved, the
	 * journal keeps them known.  A symbolic link in its place is not
	 * followed: the file at its far end, made and locked, would lie
	 * outside OUTDIR. */
	const char *name;
	int at = build_state_at(ctx, lock_path, &name);

	fd = openat(at, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
	if (fd < 0) {
		if (errno == ELOOP)
			cli_error_set(err, "'%s' is a symbolic link, not the lock animc makes: not saved, and nothing "
				      "made through it; remove the link by hand", lock_path);
		else
			cli_error_errno(err, errno, "cannot open '%s'", lock_path);
		free(lock_path);
		return -1;
	}
	/* Another build saving holds it a moment; a stop signal while this
	 * one waits (a holder stopped, or never letting go) ends the wait. */
	say_save_wait(ctx, fd, lock_path);
	while (flock(fd, LOCK_EX) != 0)
		if (errno != EINTR || (ctx->stop_signal && *ctx->stop_signal)) {
			if (errno != EINTR)
				cli_error_errno(err, errno, "cannot lock '%s'", lock_path);
			else
				cli_error_set(err, "stopped while waiting for another build to save it");
			close(fd);
			free(lock_path);
			return -1;
		}
	free(lock_path);
	return fd;
}

bool build_manifest_save(build_ctx *ctx, const manifest *ours, const cli_strings *pruned,
			 const char *path, cli_error *err)
{
	const build_hash *expected = ctx->has_saved ? &ctx->saved : ctx->old.loaded_hash_known ?
				     &ctx->old.loaded_hash : NULL;
	manifest latest = { 0 }, view;
	manifest_entry *entries = NULL;
	manifest_output *orphans = NULL;
	int fd = take_save_lock(ctx, path, err);
	bool ok;

	if (fd < 0)
		return false;
	/* Nobody saved since this run read (or last saved) it, the usual
	 * case: save ours, the file's bytes hashed, not parsed again.  Not
	 * when that save took in another build's entries: ours lacks them,
	 * and saving it alone would drop them. */
	cli_error other;
	const char *name;
	int at = build_state_at(ctx, path, &name);
	bool unchanged = expected && !ctx->saved_merged &&
			 ((!ctx->has_saved && is_unchanged_at(&ctx->old, at, name)) || file_hash_is(at, name, expected));
	manifest_load_status found = unchanged ? MANIFEST_ABSENT : load(&latest, at, name, path, false, &other);

	if (found == MANIFEST_OTHER_VERSION) {
		/* Another animc's build saved it meanwhile: its records stay. */
		if (fd >= 0)
			close(fd);
		return cli_error_set(err, "%s, saved meanwhile: not overwritten", other.message);
	}
	if (found != MANIFEST_LOADED) {
		manifest_release(&latest);
		ok = save_at(ours, at, name, path, &ctx->saved, err);
		ctx->has_saved = ok;
		ctx->saved_merged = false;
		if (fd >= 0)
			close(fd);
		return ok;
	}
	/* Another build saved meanwhile: its entries stay, but for the
	 * sources this run compiled or dropped. */
	entries = malloc((ours->count + latest.count + 1) * sizeof *entries);
	orphans = malloc((ours->orphan_count + manifest_output_total(&latest) + 1) * sizeof *orphans);
	if (!entries || !orphans) {
		free(entries);
		free(orphans);
		manifest_release(&latest);
		if (fd >= 0)
			close(fd);
		cli_error_set(err, "out of memory");
		return false;
	}
	view = *ours;
	view.carries = NULL;   /* the latest holds the others */
	view.count = 0;
	view.orphan_count = 0;
	view.index = NULL;
	view.index_size = 0;
	view.loaded_hash_known = false;
	for (size_t i = 0; i < ours->count; i++)
		if (ours->entries[i].is_ours)
			entries[view.count++] = ours->entries[i];
	size_t mine = view.count;
	for (size_t i = 0; i < ours->orphan_count; i++)
		orphans[view.orphan_count++] = ours->orphans[i];
	for (size_t i = 0; i < latest.orphan_count; i++) {
		bool claimed = has_orphan(ours->orphans, ours->orphan_count, latest.orphans[i].path);

		for (size_t e = 0; e < ours->count && !claimed; e++)
			if (ours->entries[e].is_ours)
				claimed = has_orphan(ours->entries[e].outputs, ours->entries[e].output_count,
						     latest.orphans[i].path);
		if (!claimed)
			orphans[view.orphan_count++] = latest.orphans[i];
	}
	view.count = merge_theirs(ours, &latest, pruned, entries, mine, orphans, &view.orphan_count);
	cli_bytes copies = { 0 };
	bool owned = !ctx->options || one_owner_an_output(ctx, entries, mine, view.count, &copies);
	view.entries = entries;
	view.orphans = orphans;
	ok = owned ? save_at(&view, at, name, path, &ctx->saved, err) : cli_error_set(err, "out of memory");
	ctx->has_saved = ok;
	ctx->saved_merged = ok;
	for (size_t i = 0; i + sizeof(void *) <= copies.size; i += sizeof(void *)) {
		void *copy;

		memcpy(&copy, copies.data + i, sizeof copy);
		free(copy);
	}
	free(copies.data);
	free(entries);
	free(orphans);
	manifest_release(&latest);
	if (fd >= 0)
		close(fd);
	return ok;
}

manifest_load_status manifest_load(manifest *m, const char *path, cli_error *err)
{
	return load(m, AT_FDCWD, path, path, false, err);
}

manifest_load_status manifest_load_lazy(manifest *m, const char *path, cli_error *err)
{
	return load(m, AT_FDCWD, path, path, true, err);
}

manifest_load_status build_manifest_load(const build_ctx *ctx, manifest *m, const char *path, bool lazy,
					 cli_error *err)
{
	const char *name;
	int at = build_state_at(ctx, path, &name);

	return load(m, at, name, path, lazy, err);
}

/* ------------------------------------------------------- lazy entries */

/* The records of lazy entry e parsed into `one`; `first_line` the line
 * number of its first, or 0 when not known (then INT_MAX in what *err
 * says: counting lines costs a pass over the text before it). */
static bool parse_lazy(const manifest_entry *e, int first_line, manifest *one, cli_error *err)
{
	manifest_entry *current = NULL;
	const char *at, *end, *end_line;
	char *scratch = NULL;
	size_t cap = 0;
	bool ok = true;

	for (at = e->raw, end = e->raw + e->raw_size; ok && at < end; at = end_line + 1) {
		line l;
		int line_no = first_line ? first_line++ : INT_MAX;

		end_line = memchr(at, '\n', (size_t)(end - at));
		ok = end_line && split_copy(at, (size_t)(end_line - at), &scratch, &cap, &l, line_no, err) &&
		     parse_record(one, &l, line_no, &current, err);
	}
	free(scratch);
	return ok;
}

/* The first failed take's error in m->take_error, its line counted now:
 * what manifest_load says of the same record. */
static void note_take_error(manifest *m, const manifest_entry *e)
{
	manifest again = { 0 };
	cli_error err = { "" };
	int first_line = 1;

	if (m->take_error || !m->text)
		return;
	for (const char *at = m->text; (at = memchr(at, '\n', (size_t)(e->raw - at))) != NULL; at++)
		first_line++;
	if (parse_lazy(e, first_line, &again, &err) || !err.message[0])
		cli_error_set(&err, "a record is not well-formed");
	manifest_release(&again);
	m->take_error = strdup(err.message);
}

bool manifest_take(manifest *m, manifest_entry *e)
{
	manifest one = { 0 };
	cli_error err;
	bool ok;

	if (!e->is_lazy)
		return true;
	ok = parse_lazy(e, 0, &one, &err);
	ok = ok && one.count == 1 && !one.orphan_count && strcmp(one.entries[0].source, e->source) == 0 &&
	     strcmp(one.entries[0].out_base, e->out_base) == 0;
	if (ok) {
		const char *raw = e->raw;
		size_t raw_size = e->raw_size;

		/* Its source spelt alike: its place in the index holds. */
		*e = one.entries[0];
		e->raw = raw;
		e->raw_size = raw_size;
		one.count = 0;
		m->lazy_count--;
	} else {
		note_take_error(m, e);
	}
	manifest_release(&one);
	return ok;
}

bool manifest_take_all(manifest *m)
{
	bool ok = true;

	for (size_t i = 0; ok && m->lazy_count && i < m->count; i++)
		ok = manifest_take(m, &m->entries[i]);
	return ok;
}

bool manifest_take_source(manifest *m, const char *source, const char *out_base)
{
	size_t mask;
	bool ok = true;

	if (!m->lazy_count || !m->index_size)
		return true;
	mask = m->index_size - 1;
	for (size_t i = string_hash(source) & mask; ok && m->index[i]; i = (i + 1) & mask) {
		manifest_entry *e = &m->entries[m->index[i] - 1];

		if (e->is_lazy && strcmp(e->source, source) == 0)
			ok = manifest_take(m, e);
	}
	/* A walk rather than an index by destination: a build reads a
	 * manifest lazily for a few sources. */
	for (size_t i = 0; ok && out_base && m->lazy_count && i < m->count; i++)
		if (m->entries[i].is_lazy && strcmp(m->entries[i].out_base, out_base) == 0)
			ok = manifest_take(m, &m->entries[i]);
	return ok;
}

/* Path p, unescaped into *scratch; NULL when it is not well-formed or
 * memory runs out. */
static const char *lazy_path(const struct manifest_lazy_path *p, char **scratch, size_t *cap)
{
	line l;

	if (memchr(p->at, '\\', p->size)) {
		if (!split_copy(p->at, p->size, scratch, cap, &l, 0, &(cli_error){ 0 }))
			return NULL;
		return l.count == 1 ? l.fields[0] : NULL;
	}
	if (p->size + 1 > *cap) {
		char *grown = realloc(*scratch, p->size + 256);

		if (!grown)
			return NULL;
		*scratch = grown;
		*cap = p->size + 256;
	}
	memcpy(*scratch, p->at, p->size);
	(*scratch)[p->size] = '\0';
	return *scratch;
}

size_t manifest_take_if(manifest *m, const char *word, bool (*want)(const char *path, void *user), void *user)
{
	bool is_output = strcmp(word, "output") == 0;
	size_t taken = 0, cap = 0;
	char *scratch = NULL;

	for (size_t i = 0; m->lazy_count && i < m->lazy_path_count; i++) {
		const struct manifest_lazy_path *p = &m->lazy_paths[i];
		manifest_entry *e = &m->entries[p->entry];
		const char *path;

		if (p->is_output == is_output && e->is_lazy && (path = lazy_path(p, &scratch, &cap)) &&
		    want(path, user) && manifest_take(m, e))
			taken++;
	}
	free(scratch);
	return taken;
}

size_t manifest_take_named(manifest *m, const char *word, const char *const *names, size_t count)
{
	bool is_output = strcmp(word, "output") == 0;
	size_t *starts = malloc((count + 1) * sizeof *starts), taken = 0;
	cli_bytes spelt = { 0 };

	/* Each spelt as a record spells it, after the tab put_field puts
	 * first: the records' bytes are compared with it as they are. */
	for (size_t i = 0; starts && i < count; i++) {
		starts[i] = spelt.size + 1;
		put_field(&spelt, names[i]);
	}
	if (!starts || spelt.is_broken) {
		free(starts);
		free(spelt.data);
		return manifest_take_all(m) ? m->count : 0;
	}
	starts[count] = spelt.size + 1;
	for (size_t i = 0; m->lazy_count && i < m->lazy_path_count; i++) {
		const struct manifest_lazy_path *p = &m->lazy_paths[i];
		manifest_entry *e = &m->entries[p->entry];

		for (size_t k = 0; p->is_output == is_output && e->is_lazy && k < count; k++) {
			size_t size = starts[k + 1] - 1 - starts[k];

			if (p->size == size && memcmp(p->at, spelt.data + starts[k], size) == 0) {
				taken += manifest_take(m, e);
				break;
			}
		}
	}
	free(starts);
	free(spelt.data);
	return taken;
}

/* Whether the escaped path p may name `name` but for case: not when,
 * before any byte that is not ASCII (or an escape), the two hold ASCII
 * bytes that differ but for case, or one ends before the other. */
static bool may_be_alike(const struct manifest_lazy_path *p, const char *name)
{
	for (size_t i = 0; i < p->size; i++) {
		unsigned char a = (unsigned char)p->at[i], b = (unsigned char)name[i];

		if (a >= 0x80 || b >= 0x80 || a == '\\')
			return true;
		if (!b || (a | ((unsigned)(a - 'A') < 26u ? 0x20 : 0)) != (b | ((unsigned)(b - 'A') < 26u ? 0x20 : 0)))
			return false;
	}
	return !name[p->size] || (unsigned char)name[p->size] >= 0x80;
}

size_t manifest_take_alike(manifest *m, const char *name)
{
	size_t taken = 0, cap = 0;
	char *scratch = NULL;

	for (size_t i = 0; m->lazy_count && i < m->lazy_path_count; i++) {
		const struct manifest_lazy_path *p = &m->lazy_paths[i];
		manifest_entry *e = &m->entries[p->entry];
		const char *path;

		if (p->is_output && e->is_lazy && may_be_alike(p, name) &&
		    (path = lazy_path(p, &scratch, &cap)) && build_fold_compare(path, name) == 0 && manifest_take(m, e))
			taken++;
	}
	free(scratch);
	return taken;
}
