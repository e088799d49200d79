/*
 * manifest.h - OUTDIR/.animc/manifest: what the last runs compiled, under
 * which key, and what they wrote (manifest.c).
 */
#ifndef ANIMC_BUILD_MANIFEST_H
#define ANIMC_BUILD_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>

#include "cli.h"
#include "result.h"

typedef struct build_ctx build_ctx;

typedef struct manifest_output {
	char *path;          /* relative to OUTDIR */
	char *clip;
	uint64_t size;
	build_hash hash;
	build_file_state state;
	uint32_t bones;
	uint64_t keys;
	float duration_s;
	bool is_motion;      /* build_output's */
} manifest_output;

typedef struct manifest_entry {
	char *source;        /* the source path as the plan names it (with out_base, the key) */
	build_status status; /* COMPILED, SKIPPED or FAILED */
	char importer[32];
	char *skip_reason;
	char *out_base;      /* relative to OUTDIR: "Crane/Turn" (folder and stem) */
	build_file_state state;
	build_hash hash, key;
	build_hash run_key;  /* build_ctx.run_key of the run that compiled it */
	double time_s;
	build_dep *deps;
	uint32_t dep_count;
	manifest_output *outputs;
	uint32_t output_count;
	/* The warnings its compile gave (severity ANIMC_WARNING): while it is
	 * up to date, each build says and counts them again. */
	build_diag *warnings;
	uint32_t warning_count;
	bool is_seen;        /* a job of this run names it */
	bool is_ours;        /* recorded by this run (not carried over) */
	bool is_renamed;     /* found under another spelling: saved under this one */
	bool is_borrowed;    /* its strings and arrays are those of an entry of
			      * another manifest, which frees them */
	/* Recorded by this run (is_ours): its job's result, which the commit
	 * asks what a --clip compile found in the source; else NULL.  In
	 * memory only. */
	const build_result *result;
	/* Its records (the source line to its last warning line) as the
	 * manifest it was read from holds them, in that manifest's `text`,
	 * which manifest_format copies rather than formats: NULL once any
	 * field they record changes (or for an entry made by this run). */
	const char *raw;
	size_t raw_size;
	/* Read lazily (manifest_load_lazy): its source and out_base alone,
	 * in the manifest's `arena`, and its raw records; the rest of it is
	 * read by manifest_take. */
	bool is_lazy;
	/* A copy of entry carried_from - 1 of the manifest that `carries`
	 * names (0: none). */
	size_t carried_from;
} manifest_entry;

typedef struct manifest {
	build_hash options;        /* build_key_options() of the run that wrote it */
	char *cwd;                 /* its cwd record as read: the working folder of the run
				    * that wrote it, from the manifest's folder (NULL: none);
				    * manifest_save records this process's */
	bool has_skeleton;
	build_dep skeleton;        /* the --skeleton model, when one was given */
	manifest_entry *entries;
	size_t count, capacity;
	size_t *index;             /* open addressing over `source`, 0 = empty */
	size_t index_size;
	size_t *base_index;        /* over `out_base`, made by manifest_find_same_file */
	size_t base_index_size;
	manifest_output *orphans;  /* written by animc, claimed by no source */
	size_t orphan_count, orphan_capacity;
	/* The file this manifest will replace, so that saving the same bytes
	 * writes nothing. */
	bool loaded_hash_known;
	size_t loaded_size;
	build_hash loaded_hash;
	/* Read lazily: the file it was read from (mapped, which keeps that
	 * file from being reused while it is), as stat() tells it then. */
	bool loaded_id_known;
	build_file_state loaded_id;
	int64_t loaded_ctime_ns;
	size_t text_mapped;        /* the size `text` is mapped with; 0: malloc()ed */
	/* The bytes it was read from (NULL: made by this run), which the
	 * raw records of its entries, and of their copies, point into: it
	 * outlives every manifest saved from them. */
	char *text;
	/* Read lazily: the source and out_base strings of its lazy entries,
	 * and how many entries are lazy. */
	char *arena;
	size_t arena_used, lazy_count;
	/* The paths of the dependency and output records of its lazy
	 * entries, as read (manifest_take_if looks through them). */
	struct manifest_lazy_path *lazy_paths;
	size_t lazy_path_count, lazy_path_capacity;
	/* What the first manifest_take that failed found wrong, as a read
	 * of every record says it ("line 9: a bad output record"); NULL:
	 * none failed. */
	char *take_error;
	/* The manifest a run read lazily, whose entries it carries over after
	 * its first carry_at entries (NULL: none): those still lazy as they
	 * were read, with the copies (carried_from) of the others, in its
	 * order.  Not copied into `entries`: a per-file rule carries
	 * thousands. */
	const struct manifest *carries;
	size_t carry_at;
} manifest;

/* The manifest's file under OUTDIR, and the folder holding it. */
#define MANIFEST_DIR ".animc"
#define MANIFEST_FILE ".animc/manifest"

typedef enum manifest_load_status {
	MANIFEST_LOADED = 0,
	MANIFEST_ABSENT,
	MANIFEST_DAMAGED,   /* *err says how */
	MANIFEST_FOREIGN,   /* not a manifest, or no version line */
	/* A manifest of another format version, as another animc (a later
	 * one) writes: its records are that animc's, never overwritten. */
	MANIFEST_OTHER_VERSION
} manifest_load_status;

/* An output record, as a line of the manifest or of the journal holds it. */
typedef enum manifest_record_status {
	MANIFEST_RECORD_OK = 0,
	MANIFEST_RECORD_BAD,       /* not a record of `word`, or out of memory */
	MANIFEST_RECORD_OUTSIDE    /* its path is not under OUTDIR (absolute, or climbs with ..) */
} manifest_record_status;

/* Append the record of an output: `word`, its fields, a newline. */
void manifest_output_put(cli_bytes *t, const char *word, const manifest_output *o);
/* Parse a record line (no newline; cut into fields in place) whose first
 * field is `word` into *o (owned by the caller when MANIFEST_RECORD_OK). */
manifest_record_status manifest_output_parse(char *line, const char *word, manifest_output *o);
/* Whether an output path recorded relative to OUTDIR stays under it: not
 * empty, not absolute, no ".." part. */
bool manifest_path_is_inside(const char *path);

/* Load and parse; the source, dependency and skeleton paths a run in
 * another working folder recorded are spelt from this one's (a tree moved
 * whole with its output folder, as a CI checkout elsewhere, included);
 * kept as written when that folder is gone (the tree moved apart from
 * the output folder). */
manifest_load_status manifest_load(manifest *m, const char *path, cli_error *err);
/* Parse manifest bytes (the loader's core; exposed for tests). */
manifest_load_status manifest_parse(manifest *m, const char *data, size_t size, cli_error *err);
/* manifest_load, reading of each source's records its source and
 * destination alone: those of the sources a build is given are read by
 * manifest_take, the others saved as they were read.  The other records
 * (options, cwd, skeleton, orphans) are read whole, and every line is
 * checked to start a record this animc knows, as manifest_load does. */
manifest_load_status manifest_load_lazy(manifest *m, const char *path, cli_error *err);
manifest_load_status manifest_parse_lazy(manifest *m, const char *data, size_t size, cli_error *err);
/* Read a lazy entry whole; false (the entry left lazy) when its records
 * are not well-formed or memory runs out (m->take_error says which, when
 * it is the first that failed). */
bool manifest_take(manifest *m, manifest_entry *e);
/* Whether the file at `path` is still the one m was read lazily from, as
 * it was then: none saved over it since (saves rename a new file into
 * place). */
bool manifest_is_unchanged(const manifest *m, const char *path);
/* Every lazy entry read whole: what manifest_load reads. */
bool manifest_take_all(manifest *m);
/* The entries of `source` (any destination) and those built to out_base
 * (what manifest_find_same_file looks through), read whole. */
bool manifest_take_source(manifest *m, const char *source, const char *out_base);
/* The lazy entries holding a record of `word` ("dep", "output") whose
 * path `want` is true of, read whole; how many. */
size_t manifest_take_if(manifest *m, const char *word, bool (*want)(const char *path, void *user), void *user);
/* The lazy entries holding an output record whose path is `name` but
 * for case (build_fold_compare), or `name` itself, read whole; how many. */
size_t manifest_take_alike(manifest *m, const char *name);
/* The lazy entries holding a record of `word` whose path is one of
 * names[0, count), read whole; how many. */
size_t manifest_take_named(manifest *m, const char *word, const char *const *names, size_t count);
/* Write it atomically (not when it equals what it was loaded from);
 * *written (may be NULL) gets the hash of its bytes. */
bool manifest_save(const manifest *m, const char *path, build_hash *written, cli_error *err);
/* The text form manifest_save writes (malloc()ed). */
bool manifest_format(const manifest *m, char **out, size_t *size);
void manifest_release(manifest *m);
/* An entry of `source` (a source built to several places, as a MonoGame
 * project may, has one per output folder and stem). */
manifest_entry *manifest_find(const manifest *m, const char *source);
/* An entry of `source` this run recorded (is_ours); NULL when it did not
 * build the source. */
manifest_entry *manifest_find_ours(const manifest *m, const char *source);
/* The entry of `source` built to out_base. */
manifest_entry *manifest_find_output(const manifest *m, const char *source, const char *out_base);
/* Append an entry (taking what it points to); NULL when out of memory. */
/* The entry built to out_base from the file `source` names, in the same
 * folder, recorded under another spelling of its path (relative, then
 * absolute; through a link to the folder), renamed `source`; NULL when
 * none.  A linear walk: for a source
 * manifest_find_output does not know. */
manifest_entry *manifest_find_same_file(manifest *m, const char *source, const char *out_base);
manifest_entry *manifest_add(manifest *m, const manifest_entry *e);
/* Room for `more` entries, added without growing anything. */
bool manifest_reserve(manifest *m, size_t more);
bool manifest_add_orphan(manifest *m, const manifest_output *o);

/* How many output records m holds: its sources' outputs and its orphans. */
size_t manifest_output_total(const manifest *m);
void manifest_entry_release(manifest_entry *e);
void manifest_output_release(manifest_output *o);

/* manifest_load (lazy: manifest_load_lazy) and manifest_save of the
 * manifest at `path`, OUTDIR/.animc/manifest, reached through the run's
 * descriptor of that folder once it opened it (build_state_at). */
manifest_load_status build_manifest_load(const build_ctx *ctx, manifest *m, const char *path, bool lazy,
					 cli_error *err);
bool build_manifest_save_as(const build_ctx *ctx, const manifest *m, const char *path, build_hash *written,
			    cli_error *err);

/* Save the manifest a run made, merged with what builds running at the
 * same time saved since this one read it: entries of this run replace
 * theirs, theirs stay otherwise.  Under OUTDIR/.animc/manifest.lock. */
bool build_manifest_save(build_ctx *ctx, const manifest *ours, const cli_strings *pruned,
			 const char *path, cli_error *err);

#endif
