/*
 * fuzz_manifest.c - libFuzzer target for the build manifest reader
 * (OUTDIR/.animc/manifest is read back by every build, and a damaged one
 * must mean a full build, never a crash or a wrong skip).  Beyond "no
 * crash": a manifest that loads formats to bytes that load to the same
 * manifest, formatted the same; and its records as read, which a save
 * copies rather than formats (manifest_entry.raw), read as what
 * formatting them writes.  Built as a plain function for `make test`,
 * which replays the seeds in testdata/fuzz/manifest.  Each input is also
 * tried with its checksum made right, so that the fuzzer's changes to
 * the records are read rather than refused as damage.  Read lazily (as a
 * build given files alone reads it), a text loads, once each record is
 * read, when read whole it does, to the same entries, and saves as read.
 */
#include <stdlib.h>
#include <string.h>

#include "manifest.h"

#ifndef ANIMC_FUZZ_ENTRY
#define ANIMC_FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int ANIMC_FUZZ_ENTRY(const uint8_t *data, size_t size);

static bool same_string(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* Output records alike in every field that is exact in text. */
static bool same_output(const manifest_output *a, const manifest_output *b)
{
	return same_string(a->path, b->path) && same_string(a->clip, b->clip) && a->size == b->size &&
	       memcmp(&a->hash, &b->hash, sizeof a->hash) == 0 && a->state.mtime_ns == b->state.mtime_ns &&
	       a->state.ino == b->state.ino && a->state.dev == b->state.dev && a->bones == b->bones &&
	       a->keys == b->keys && a->is_motion == b->is_motion;
}

static bool same_records(const manifest_entry *a, const manifest_entry *b)
{
	bool same = a->dep_count == b->dep_count && a->output_count == b->output_count &&
		    a->warning_count == b->warning_count;

	for (uint32_t i = 0; same && i < a->dep_count; i++)
		same = same_string(a->deps[i].path, b->deps[i].path) &&
		       memcmp(&a->deps[i].state, &b->deps[i].state, sizeof a->deps[i].state) == 0 &&
		       memcmp(&a->deps[i].hash, &b->deps[i].hash, sizeof a->deps[i].hash) == 0;
	for (uint32_t i = 0; same && i < a->output_count; i++)
		same = same_output(&a->outputs[i], &b->outputs[i]);
	for (uint32_t i = 0; same && i < a->warning_count; i++)
		same = a->warnings[i].line == b->warnings[i].line && a->warnings[i].column == b->warnings[i].column &&
		       a->warnings[i].byte_offset == b->warnings[i].byte_offset &&
		       same_string(a->warnings[i].message, b->warnings[i].message) &&
		       same_string(a->warnings[i].kind, b->warnings[i].kind);
	return same;
}

/* Entries alike in every field that is exact in text (times are read
 * back rounded as formatted). */
static bool same_entries(const manifest *a, const manifest *b)
{
	bool same = a->count == b->count && a->orphan_count == b->orphan_count;

	for (size_t i = 0; same && i < a->count; i++) {
		const manifest_entry *x = &a->entries[i], *y = &b->entries[i];

		same = same_string(x->source, y->source) && x->status == y->status &&
		       strcmp(x->importer, y->importer) == 0 && same_string(x->skip_reason, y->skip_reason) &&
		       same_string(x->out_base, y->out_base) && memcmp(&x->state, &y->state, sizeof x->state) == 0 &&
		       memcmp(&x->hash, &y->hash, sizeof x->hash) == 0 && memcmp(&x->key, &y->key, sizeof x->key) == 0 &&
		       memcmp(&x->run_key, &y->run_key, sizeof x->run_key) == 0 && same_records(x, y);
	}
	for (size_t i = 0; same && i < a->orphan_count; i++)
		same = same_output(&a->orphans[i], &b->orphans[i]);
	return same;
}

/* m's text with every record formatted, none copied as read. */
static bool format_all(manifest *m, char **text, size_t *size)
{
	for (size_t i = 0; i < m->count; i++)
		m->entries[i].raw = NULL;
	return manifest_format(m, text, size);
}

/* The text `text` reads as a manifest whose entries are those of `want`,
 * and that formats to `formatted`. */
static void check_reads_as(const char *text, size_t size, const manifest *want, const char *formatted,
			   size_t formatted_size)
{
	manifest m;
	cli_error err;
	char *again;
	size_t again_size;

	if (manifest_parse(&m, text, size, &err) != MANIFEST_LOADED || !same_entries(want, &m))
		abort();
	if (!format_all(&m, &again, &again_size) || again_size != formatted_size ||
	    memcmp(again, formatted, formatted_size) != 0)
		abort();
	free(again);
	manifest_release(&m);
}

/* Read lazily (as a build given files reads it), the text loads when
 * read whole loads it (`whole`, NULL when it does not), once every record
 * is read; saved before that, it is the bytes `as_read`; read whole, its
 * entries are those of `whole`. */
static void check_lazily(const char *data, size_t size, const manifest *whole, const char *as_read,
			 size_t as_read_size)
{
	manifest m;
	cli_error err;
	char *text;
	size_t text_size;
	bool loaded = manifest_parse_lazy(&m, data, size, &err) == MANIFEST_LOADED;

	if (!whole) {
		if (loaded && manifest_take_all(&m))
			abort();
		if (loaded)
			manifest_release(&m);
		return;
	}
	if (!loaded || m.lazy_count != m.count)
		abort();
	if (manifest_format(&m, &text, &text_size)) {
		if (text_size != as_read_size || memcmp(text, as_read, as_read_size) != 0)
			abort();
		free(text);
	}
	if (m.count && (!manifest_take(&m, &m.entries[m.count - 1]) || m.lazy_count != m.count - 1))
		abort();
	if (!manifest_take_all(&m) || m.lazy_count || !same_entries(whole, &m))
		abort();
	manifest_release(&m);
}

/* The checks of one text: none when it does not load (but that read
 * lazily, it does not either). */
static void check(const char *data, size_t size)
{
	manifest m;
	cli_error err;
	char *as_read, *formatted;
	size_t as_read_size, formatted_size;

	if (manifest_parse(&m, data, size, &err) != MANIFEST_LOADED) {
		check_lazily(data, size, NULL, NULL, 0);
		return;
	}
	/* The records as read (what a save copies), then formatted. */
	if (!manifest_format(&m, &as_read, &as_read_size)) {
		manifest_release(&m);
		return;
	}
	if (!format_all(&m, &formatted, &formatted_size)) {
		free(as_read);
		manifest_release(&m);
		return;
	}
	check_reads_as(formatted, formatted_size, &m, formatted, formatted_size);
	check_reads_as(as_read, as_read_size, &m, formatted, formatted_size);
	check_lazily(data, size, &m, as_read, as_read_size);
	free(formatted);
	free(as_read);
	manifest_release(&m);
}

/* The input with the hash of its closing line made that of the text
 * before it, when it ends in one (NULL otherwise): a change to a seed's
 * records then reaches the parser, where it would fail the checksum. */
static char *resealed(const uint8_t *data, size_t size)
{
	char *copy, hex[33];
	build_hash h;

	if (size < 38 || data[size - 1] != '\n' || data[size - 38] != '\n' || memcmp(data + size - 37, "end\t", 4) != 0)
		return NULL;
	if (!(copy = malloc(size)))
		return NULL;
	memcpy(copy, data, size);
	build_hash_bytes(copy, size - 37, &h);
	build_hash_hex(&h, hex);
	memcpy(copy + size - 33, hex, 32);
	return copy;
}

int ANIMC_FUZZ_ENTRY(const uint8_t *data, size_t size)
{
	char *sealed = resealed(data, size);

	check((const char *)data, size);
	if (sealed && memcmp(sealed, data, size) != 0)
		check(sealed, size);
	free(sealed);
	return 0;
}
