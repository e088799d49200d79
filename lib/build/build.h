/*
 * build.h - the build engine behind `animc build`, `animc outputs` and
 * `animc clean`, in stages that each do one thing:
 *   plan     inputs -> jobs in a fixed order, each knowing where its outputs
 *            go, and which of them the manifest shows up to date (plan.c);
 *   compile  one job -> one result: the outputs' bytes and stats and the
 *            diagnostics; it never prints, counts or writes (compile.c),
 *            and runs in long-lived worker processes (workers.c);
 *   commit   results in job order: output claims, atomic writes, the
 *            manifest (commit.c, manifest.c);
 *   report   the text a user reads, the progress line, JSON, JUnit and
 *            depfiles, all made from the results (report.c).
 * The source key (key.c) is a canonical byte string, hashed with XXH3-128
 * for the manifest; README.md ("Incremental builds") documents it.
 */
#ifndef ANIMC_CMD_BUILD_H
#define ANIMC_CMD_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include <xxhash.h>

#include "author.h"
#include "cache.h"
#include "cli.h"

/* --------------------------------------------------------------- options */

typedef enum build_progress { PROGRESS_AUTO = 0, PROGRESS_ALWAYS, PROGRESS_NEVER } build_progress;

/* The default of --cache-min-size.  The readers of animc's own formats
 * compile about 100 MB of XML a second (a 30 KB RobotGame clip in 0.25 ms,
 * a 740 KB one in 8 ms); a fetch is two round trips (the entry, then the
 * blobs) and a digest check, a few milliseconds from a developer's machine
 * to a shared server.  Below 1 MB, compiling costs about that or less. */
#define BUILD_CACHE_MIN_SIZE (1u << 20)

typedef struct build_options {
	const char *out_dir;
	animc_process_options process;
	animc_xnb_options xnb;
	animc_import_options import;
	bool verbose, quiet, warnings_as_errors, rebuild, prune;
	cli_strings clip_names;      /* --clip */
	build_author_options author; /* --split, --clips, --root-motion, ... (author.h) */
	const char *skeleton_path;   /* --skeleton */
	double import_timeout_s;     /* 0: no limit */
	uint64_t memory_limit_bytes; /* per worker; 0: no limit */
	unsigned jobs;
	build_progress progress;
	const char *report_path, *junit_path, *depfile_path, *base_dir;
	/* The shared cache (--cache-url or ANIMC_CACHE_URL, --cache-dir) and
	 * --shard (count 0: all sources). */
	const char *cache_url, *cache_dir;
	bool cache_read_only;
	double cache_timeout_s;
	uint64_t cache_min_size;     /* --cache-min-size: see build_cache_skips */
	cli_shard shard;
	/* The options that change what is written, as "name\0value" pairs in
	 * the order given: every option of kind OUTPUT in the table of
	 * options.c lands here, and the source key covers all of it. */
	cli_strings key_options;
	cli_strings inputs;          /* after @FILE expansion */
	cli_strings arg_storage;     /* strings read from response files */
} build_options;

/* Which command parses: build takes every option; outputs and clean fewer. */
typedef enum build_command { CMD_BUILD, CMD_OUTPUTS, CMD_CLEAN } build_command;

/* Parse argv (after the command name) into `o` (zeroed first): 0 on success,
 * -1 when help was printed, else ANIMC_EXIT_USAGE (message printed). */
int build_options_parse(build_options *o, build_command command, int argc, char **argv);
void build_options_release(build_options *o);
void build_help(FILE *out);
void build_outputs_help(FILE *out);
void build_clean_help(FILE *out);

/* ------------------------------------------------------------- hashes */

typedef struct build_hash {
	uint8_t bytes[16];   /* XXH3-128, canonical (big-endian) form */
} build_hash;

void build_hash_bytes(const void *data, size_t size, build_hash *out);
void build_hash_from_state(XXH3_state_t *state, build_hash *out);
bool build_hash_equal(const build_hash *a, const build_hash *b);
void build_hash_hex(const build_hash *h, char out[33]);
bool build_hash_parse(const char *hex, build_hash *out);
/* XXH3-128 of a file's bytes; false (why filled) when it cannot be read. */
bool build_hash_file(const char *path, build_hash *out, char *why, size_t why_size);

/* What identifies a file's version cheaply (the fast path): size, mtime,
 * inode and device.  mtime_ns 0 means "not trusted": compare by content. */
typedef struct build_file_state {
	uint64_t size;
	int64_t mtime_ns;
	uint64_t ino, dev;
} build_file_state;

void build_file_state_from(const struct stat *st, build_file_state *out);
bool build_file_state_equal(const build_file_state *a, const build_file_state *b);
/* Sources and what their imports read (not outputs, which only animc
 * writes): a state from the last second is not trusted (mtime_ns 0). */
void build_file_state_distrust_recent(build_file_state *s);

/* ----------------------------------------------------------- the key */

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
void build_key_end(build_key_emit emit, void *user);
/* An emitter feeding an XXH3_state_t. */
void build_key_emit_xxh3(void *state, const void *data, size_t size);

/* ------------------------------------------------------------ results */

typedef enum build_status {
	BUILD_COMPILED = 0,
	BUILD_UP_TO_DATE,
	BUILD_SKIPPED,
	BUILD_FAILED,
	BUILD_CACHED,        /* fetched from the cache: not imported */
	BUILD_STATUS_COUNT
} build_status;

/* "compiled", "up-to-date", "skipped", "failed", "cached" (the report's words). */
const char *build_status_name(build_status status);

typedef struct build_output {
	char *name;          /* under the job's folder: "Turn.xnb", "Crane/Raise.xnb" */
	char *clip;          /* "" for a source whose asset is one clip */
	uint8_t *bytes;      /* NULL once written, and for up-to-date outputs */
	uint64_t size;
	build_hash hash;
	uint32_t bones;
	uint64_t keys;
	float duration_s;
	double ticks_per_second;
	animc_pass_stats passes;
	build_file_state state;   /* of the file on disk, after commit */
	char *staged;             /* its bytes in this temporary file, to rename */
	bool is_unchanged;        /* on disk already, as the manifest records */
	bool is_written;          /* commit wrote it (or found it identical); never when refused */
	bool is_refused;          /* another source of the run claimed the path */
} build_output;

typedef struct build_diag {
	animc_severity severity;
	uint32_t line, column;
	int64_t byte_offset;
	char *message;
} build_diag;

/* A file besides the source that its import read. */
typedef struct build_dep {
	char *path;
	build_file_state state;
	build_hash hash;
} build_dep;

typedef struct build_result {
	build_status status;
	char importer[32];        /* "" when none recognised the file */
	char *skip_reason;        /* why, for BUILD_SKIPPED; may be NULL */
	build_output *outputs;
	uint32_t output_count;
	build_diag *diags;
	uint32_t diag_count, diag_capacity;
	uint32_t errors, warnings;
	bool has_source;          /* source_state and source_hash are known */
	build_file_state source_state;
	build_hash source_hash;
	build_dep *deps;
	uint32_t dep_count;
	build_hash key;
	double time_s;
} build_result;

void build_result_release(build_result *r);
/* Add a diagnostic (message copied). */
void build_result_diag(build_result *r, animc_severity severity, uint32_t line, uint32_t column,
		       int64_t byte_offset, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* Result bytes for the worker pipe, and back.  decode: false on any
 * damage (the record is then not used). */
bool build_result_encode(const build_result *r, uint8_t **out, size_t *size);
bool build_result_decode(const uint8_t *data, size_t size, build_result *r);

/* -------------------------------------------------------------- manifest */

typedef struct manifest_output {
	char *path;          /* relative to OUTDIR */
	char *clip;
	uint64_t size;
	build_hash hash;
	build_file_state state;
	uint32_t bones;
	uint64_t keys;
	float duration_s;
} manifest_output;

typedef struct manifest_entry {
	char *source;        /* the source path as the plan names it */
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
	bool is_seen;        /* a job of this run names it */
	bool is_ours;        /* recorded by this run (not carried over) */
} manifest_entry;

typedef struct manifest {
	build_hash options;        /* build_key_options() of the run that wrote it */
	bool has_skeleton;
	build_dep skeleton;        /* the --skeleton model, when one was given */
	manifest_entry *entries;
	size_t count, capacity;
	size_t *index;             /* open addressing over `source`, 0 = empty */
	size_t index_size;
	manifest_output *orphans;  /* written by animc, claimed by no source */
	size_t orphan_count, orphan_capacity;
	/* The file this manifest will replace, so that saving the same bytes
	 * writes nothing. */
	bool loaded_hash_known;
	size_t loaded_size;
	build_hash loaded_hash;
} manifest;

/* The manifest's file under OUTDIR, and the folder holding it. */
#define MANIFEST_DIR ".animc"
#define MANIFEST_FILE ".animc/manifest"

typedef enum manifest_load_status {
	MANIFEST_LOADED = 0,
	MANIFEST_ABSENT,
	MANIFEST_DAMAGED,   /* why says how */
	MANIFEST_FOREIGN    /* another format version, or not a manifest */
} manifest_load_status;

manifest_load_status manifest_load(manifest *m, const char *path, char *why, size_t why_size);
/* Parse manifest bytes (the loader's core; exposed for tests). */
manifest_load_status manifest_parse(manifest *m, const char *data, size_t size, char *why,
				    size_t why_size);
/* Write it atomically (not when it equals what it was loaded from);
 * *written (may be NULL) gets the hash of its bytes. */
bool manifest_save(const manifest *m, const char *path, build_hash *written, char *why,
		   size_t why_size);
/* The text form manifest_save writes (malloc()ed). */
bool manifest_format(const manifest *m, char **out, size_t *size);
void manifest_release(manifest *m);
manifest_entry *manifest_find(const manifest *m, const char *source);
/* Append an entry (taking what it points to); NULL when out of memory. */
manifest_entry *manifest_add(manifest *m, const manifest_entry *e);
bool manifest_add_orphan(manifest *m, const manifest_output *o);
void manifest_entry_release(manifest_entry *e);
void manifest_output_release(manifest_output *o);

/* ------------------------------------------------------------------ plan */

typedef struct build_job {
	char *path;          /* the source, as the user finds it */
	char *out_dir;       /* OUTDIR/<mirrored folder>: where its outputs go */
	char *out_base;      /* relative to OUTDIR: "<mirrored folder>/<stem>" */
	char *stem;          /* the base name without its extension */
	bool is_explicit;    /* named on the command line (not found in a folder) */
	bool has_state;      /* `state` comes from the walk */
	build_file_state state;
	uint64_t size;
	/* Decided by the plan: compile it (needs_compile), or the result is
	 * already known (up to date, skipped, a non-regular file). */
	bool needs_compile;
	bool skips_cache;    /* compiled without a lookup or a store (build_cache_skips) */
	manifest_entry *previous;         /* the manifest's entry, or NULL */
	build_result result;
	bool is_done;
	double started_s;                 /* when a worker took it */
	bool is_deferred;                 /* its manifest record is the previous one */
	char importer_at_work[32];        /* what the worker says it imports with */
} build_job;

typedef struct build_plan {
	build_job *jobs;
	size_t count, capacity;
	unsigned input_errors;   /* inputs that do not exist, ... (reported) */
} build_plan;

/* The state a run shares between stages. */
typedef struct build_ctx {
	build_options *options;
	build_command command;
	cli_diag_printer printer;
	build_plan plan;
	cli_strings plan_notes;    /* folders reached again through a link (-v) */
	manifest old;              /* what the last run wrote (empty when none) */
	bool has_old;
	build_hash options_key;    /* build_key_options() of this run */
	/* What every key of this run shares: options_key and the skeleton
	 * model's hash.  Each manifest entry records the one it was made
	 * under: an entry made under other options is never up to date. */
	build_hash run_key;
	bool has_skeleton_state;
	build_dep skeleton;        /* the --skeleton model: path, state, hash */
	animc_skeleton skeleton_model;
	bool skeleton_loaded;
	XXH3_state_t *key_prefix;  /* build_key_prefix(), for workers to copy */
	double start_wall_s;       /* CLOCK_REALTIME at start, for racy mtimes */
	volatile int *stop_signal; /* set by SIGINT/SIGTERM/SIGHUP handlers */
	int lock_fd;               /* OUTDIR/.animc/lock, held shared for the run; -1 */
	bool lost_workers;         /* a worker died: it may have left a temporary file */
	bool has_saved;            /* `saved` is the hash of what this run last wrote */
	build_hash saved;
	/* The shared cache (build_cache.c); NULL when none. */
	cli_cache *cache;
	uint8_t *cache_prefix;     /* the cache key's shared part */
	size_t cache_prefix_size;
	double *cache_asked_s;     /* per job: when its lookup went out; 0: none pending */
	size_t cache_ahead;        /* dispatch order: looked up so far */
	double compile_s_sum;      /* compiles of this run, for how long to wait */
	unsigned compile_count;
	unsigned cache_hits, cache_misses;  /* answers taken so far */
	double cache_first_s;      /* when the first lookup went out */
	size_t cache_waiting_job;  /* a free worker waits for its lookup ... */
	double cache_waiting_since_s;  /* ... since then (0: none) */
	cli_cache_stats cache_stats;
	/* Told which importer a compile uses, once it is known (workers pass
	 * it on, for the messages about a worker that crashed). */
	void (*on_probe)(void *user, const char *importer);
	void *on_probe_user;
} build_ctx;

/* Walk the inputs into jobs (messages for missing inputs, non-regular
 * files named directly, ...); false, having said why on stderr, when
 * --base cannot be resolved or memory runs out. */
bool build_plan_make(build_ctx *ctx);
/* Mark the jobs the manifest shows up to date (or skipped as before). */
void build_plan_check(build_ctx *ctx);
void build_plan_release(build_plan *plan);

/* A name for an output file: `name` (a stem or a clip name) made safe
 * (FORMAT.md section 5) into a new string; `index` names an empty clip.
 * NULL when out of memory. */
char *build_safe_name(const char *name, uint32_t index);

/* --------------------------------------------------------------- compile */

/* Compile one job into `r` (zeroed first).  Pure with respect to the run:
 * reads the source (and what its import reads), prints nothing, writes
 * nothing. */
void build_compile(const build_ctx *ctx, const build_job *job, build_result *r);

/* --------------------------------------------------------------- workers */

/* Compile every job with needs_compile in `workers` processes, calling
 * on_done in no particular order as results arrive, and on_tick now and
 * then (for progress).  Returns false when it was stopped by a signal. */
typedef struct build_run_hooks {
	void (*on_done)(void *user, size_t job);
	void (*on_tick)(void *user);
	void *user;
} build_run_hooks;

bool build_run(build_ctx *ctx, unsigned workers, const build_run_hooks *hooks);

/* ----------------------------------------------------------------- cache */

typedef enum build_cache_verdict {
	CACHE_COMPILE,  /* compile it (a miss, no cache, or no answer in time) */
	CACHE_DONE,     /* a hit: its result is in place, nothing to compile */
	CACHE_WAIT      /* ask again within *wait_s */
} build_cache_verdict;

/* Open the cache of --cache-url/--cache-dir (none: nothing to do), as early
 * as can be: it loads libcurl meanwhile.  False (said) on failure. */
bool build_cache_start(build_ctx *ctx);
/* Before the first compile: the key's shared part (the --skeleton model's
 * bytes join it). */
bool build_cache_open(build_ctx *ctx, const uint8_t *model, size_t model_size);
/* Whether a source is cheaper to compile than to fetch: one of animc's own
 * readers (no isolated import) claims it, by its name or its content, and
 * it is smaller than --cache-min-size.  Such a source is neither looked up
 * nor stored.  May read the first bytes of the file; called by the plan's
 * check, on its threads, with a cache set up. */
bool build_cache_skips(const build_options *o, const build_job *j);
/* Look up the sources of order[] up to a little past `next`. */
void build_cache_ahead(build_ctx *ctx, const size_t *order, size_t count, size_t next);
/* Before job i goes to a worker.  While its lookup is under way: with a
 * worker free (`is_worker_free`), CACHE_WAIT for as long as patience
 * allows (*wait_s lowered), then CACHE_COMPILE; with none free, CACHE_WAIT
 * and patience not yet spent. */
build_cache_verdict build_cache_check(build_ctx *ctx, size_t i, bool is_worker_free, double *wait_s);
/* Readable when a lookup has come back (-1: no cache). */
int build_cache_fd(build_ctx *ctx);
/* After job i compiled: store its result. */
void build_cache_store(build_ctx *ctx, size_t i);
/* At the end: wait a little for stores, then stop (stats kept in ctx). */
void build_cache_close(build_ctx *ctx, double build_s);
/* Drop the jobs outside --shard K/N (their manifest entries stay). */
void build_plan_shard(build_ctx *ctx);

/* ---------------------------------------------------------------- commit */

typedef struct build_commit {
	build_ctx *ctx;
	manifest next;             /* the manifest this run writes */
	size_t committed;          /* jobs committed, in order */
	/* Claims: output paths of this run (relative to OUTDIR). */
	cli_strings claims;
	size_t *claim_slots;
	size_t claim_slot_count;
	bool is_dry;               /* `animc outputs`: claim, write nothing */
	unsigned pruned;           /* outputs --prune removed */
	unsigned stale;            /* outputs of sources or clips gone, kept */
	bool dirty;                /* the manifest differs from the one loaded */
	size_t deferred;           /* jobs whose records are left in the old manifest */
	cli_strings pruned_sources; /* entries --prune dropped with their outputs */
} build_commit;

bool build_commit_init(build_commit *c, build_ctx *ctx, bool is_dry);
/* The first half of commit, run where the result is made (in a worker):
 * each output's bytes into a temporary file beside its place (or nothing,
 * when the file on disk is already those bytes), so that committing is a
 * rename.  The bytes are dropped from the result. */
void build_stage_outputs(const build_ctx *ctx, const build_job *job, build_result *r);
/* Remove the temporary files of results that were not committed. */
void build_unstage(build_ctx *ctx, size_t from);
/* Settle job `i` (jobs are committed strictly in order). */
void build_commit_job(build_commit *c, size_t i);
/* After the last job: orphans, --prune, the manifest's new content. */
void build_commit_finish(build_commit *c);
void build_commit_release(build_commit *c);
/* Full path of an output: OUTDIR-relative path joined to OUTDIR. */
char *build_output_path(const build_ctx *ctx, const build_job *job, const build_output *o);

/* Save the manifest a run made, merged with what builds running at the
 * same time saved since this one read it: entries of this run replace
 * theirs, theirs stay otherwise.  Under OUTDIR/.animc/manifest.lock. */
bool build_manifest_save(build_ctx *ctx, const manifest *ours, const cli_strings *pruned,
			 const char *path, char *why, size_t why_size);

/* Remove what animc wrote into OUTDIR (animc clean). */
int build_clean(build_ctx *ctx);
/* Remove temporary files a killed run left under `dir`; count removed. */
unsigned build_sweep_temps(const char *dir);

/* ---------------------------------------------------------------- report */

typedef struct build_totals {
	unsigned sources, compiled, up_to_date, skipped, failed, cached;
	unsigned clips, warnings, errors;
	uint64_t output_bytes;
} build_totals;

void build_totals_count(const build_plan *plan, build_totals *t);

/* What a user reads: per job (in order) and the status line. */
typedef struct build_status_line {
	build_ctx *ctx;
	bool is_live;       /* one line updated in place */
	bool line_shown;
	size_t done, total;
	double start_s, last_draw_s;
	int columns;
} build_status_line;

void build_status_init(build_status_line *s, build_ctx *ctx, size_t total);
void build_status_job_done(build_status_line *s);
void build_status_tick(build_status_line *s);
/* Print the messages and lines of a committed job. */
void build_status_print_job(build_status_line *s, size_t i);
void build_status_clear(build_status_line *s);
void build_status_summary(build_status_line *s, const build_totals *t, unsigned stale);

bool build_report_json(const build_ctx *ctx, const char *path, char *why, size_t why_size);
bool build_report_junit(const build_ctx *ctx, const char *path, char *why, size_t why_size);
bool build_report_depfile(const build_ctx *ctx, const char *path, char *why, size_t why_size);

/* Seconds on the monotonic clock. */
double build_now_s(void);
/* True when reports carry no times (SOURCE_DATE_EPOCH is set). */
bool build_reproducible(void);

#endif
