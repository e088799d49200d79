/*
 * plan.h - inputs -> jobs in a fixed order, each knowing where its outputs
 * go, and which of them the manifest shows up to date (plan.c).
 */
#ifndef ANIMC_BUILD_PLAN_H
#define ANIMC_BUILD_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "manifest.h"
#include "result.h"

typedef struct build_ctx build_ctx;

/* The skip reason of a file of a folder input that exists but cannot be
 * read (no permission, a link that leads nowhere): it keeps its last good
 * outputs, as a failed source does, rather than leave them stale. */
#define BUILD_UNREADABLE_REASON "cannot be read"

/* Result r of such a file: skipped, with an `unreadable` warning saying
 * `why` (--warnings-as-errors is the caller's to apply). */
void build_result_unreadable(build_result *r, const char *why);

typedef struct build_job {
	char *path;          /* the source, as the user finds it */
	char *out_dir;       /* OUTDIR/<mirrored folder>: where its outputs go */
	char *out_base;      /* relative to OUTDIR: "<mirrored folder>/<stem>" */
	char *stem;          /* the base name without its extension */
	bool is_explicit;    /* named on the command line (not found in a folder) */
	bool has_no_sidecar; /* its folder's listing holds no STEM_Anims.xml */
	/* Named STEM_Anims.xml beside a source STEM.*, but no sidecar (it holds
	 * no AnimationDefinition): skipped with a warning, not a note. */
	bool is_sidecar_name;
	/* Named under --base (a list of changed files, `git diff
	 * --name-only`): taken as a folder build takes the file, so one no
	 * importer reads, or that holds no animation, is left out rather than
	 * an error.  is_explicit still holds (--split and --clips cut it). */
	bool is_listed;
	bool has_state;      /* `state` comes from the walk */
	/* Its folder listed it, and it was gone when its state was read (a
	 * tool's temporary, renamed away; a source deleted meanwhile): not a
	 * file of the tree, left out of the plan as if never listed. */
	bool is_gone;
	build_file_state state;
	uint64_t size;
	/* Where its folder lists a source, a file of another kind (a FIFO, a
	 * socket, a device): its st_mode, else 0.  Skipped, or failed when an
	 * earlier build compiled a source there (build_plan_check). */
	unsigned special_mode;
	/* Decided by the plan: compile it (needs_compile), or the result is
	 * already known (up to date, skipped, a non-regular file). */
	bool needs_compile;
	bool skips_cache;    /* compiled without a lookup or a store (build_cache_skips) */
	manifest_entry *previous;         /* the manifest's entry, or NULL */
	build_result result;
	bool is_done;
	bool is_shared_source;            /* the whole plan (before --shard) builds its source to
					     another destination too */
	double started_s;                 /* when a worker took it */
	bool is_deferred;                 /* its manifest record is the previous one */
	char importer_at_work[32];        /* what the worker says it imports with */
	bool is_imported;                 /* its import returned: animc's passes are at work */
	/* An item of a MonoGame project (--mgcb): the project, whose files
	 * (it and the response files it includes) are dependencies of the job,
	 * and, with has_units (the item gives Scale or RotationX/Y/Z), the
	 * units it is built with: those, the others --scale's and --rotate's. */
	const struct build_mgcb *project;
	bool has_units;
	animc_units units;
	/* An item of a project: the file and line of its /build:, where the
	 * diagnostics about the item rather than its source are said (those
	 * is_at_item: a file that cannot be opened, an output another item
	 * writes).  NULL: no item. */
	const char *item_file;
	uint32_t item_line;
	/* Its outputs' folder may be another source's output file (a folder
	 * src/a.xnb/ beside src/a.Animation; a many-clip b.xnb.gltf beside
	 * b.Animation): written at its commit, in plan order, where the
	 * claims tell the clash, not staged by its worker, which would make
	 * that folder while the run goes (and which of the two failed would
	 * hang on timing). */
	bool writes_at_commit;
} build_job;

typedef struct build_plan {
	build_job *jobs;
	size_t count, capacity;
	unsigned input_errors;   /* inputs that do not exist, ... (reported) */
} build_plan;

/* Walk the inputs into jobs (messages for missing inputs, non-regular
 * files named directly, ...); false, having said why on stderr, when
 * --base cannot be resolved or memory runs out. */
bool build_plan_make(build_ctx *ctx);
/* Under --base, once the last build's manifest is loaded: a listed file
 * that sources of that build read besides themselves (a glTF's .bin)
 * builds them too, as a build of the folder would.  False when out of
 * memory (said). */
bool build_plan_add_readers(build_ctx *ctx);
/* Mark the jobs the manifest shows up to date (or skipped as before). */
void build_plan_check(build_ctx *ctx);
void build_plan_release(build_plan *plan);
/* A job's diagnostic as it is said: at its line in the source, or where
 * its project item's /build: line for one is_at_item (the message then names the source). */
animc_diag build_job_diag(const build_job *j, const build_diag *d);

/* Whether a job's deps (those its manifest entry or cache entry was made
 * with) name the clip-split sidecar it has now, or it has none: false when a
 * sidecar came since, and the source must compile again. */
bool build_plan_knows_sidecar(const build_ctx *ctx, const build_job *j, const build_dep *deps, uint32_t count);

/*
 * What shapes a job's outputs beyond its files and the run's options, as
 * the text its keys take: its project item's Scale and RotationX/Y/Z and
 * name (--mgcb; the name when not its source's), and whether --split or
 * --clips cut it (they apply to sources named on the command line alone).
 * Empty for any other job.
 */
#define BUILD_JOB_FACTS 512
void build_job_facts(const build_options *o, const build_job *j, char out[BUILD_JOB_FACTS]);
/* The job's facts into a key under construction (nothing when empty). */
void build_job_key(const build_options *o, const build_job *j, build_key_emit emit, void *user);
/* What a manifest entry of the job records and is compared on: the run's
 * key (options, skeleton) with the job's facts. */
void build_job_run_key(const build_ctx *ctx, const build_job *j, build_hash *out);

/* Is `path` one of the --mgcb project's files (the project, a response
 * file it includes)?  An item records them as files it depends on, for
 * depfiles, watches and --prune, but what they say of the item is in its
 * facts (build_job_facts) and the run's options: they enter no key, and
 * an edit elsewhere in them leaves the item up to date. */
bool build_is_project_file(const build_options *o, const char *path);

/* Is `path` a file the user gave: --clips, --mgcb or --skeleton, or one
 * under an input or beside the project or the model (what they read lies
 * there), symbolic links resolved? */
bool build_is_given_file(const build_options *o, const char *path);

/* A recorded dependency `dep` of job `j` (a manifest's record, a cache
 * entry's) open for reading when an up-to-date check may read it to
 * compare, else -1: one that lies in the source's folder or below it,
 * symbolic links resolved, as every file an importer reads does; the
 * source's clip-split sidecar (a link there may lead anywhere); or a file
 * the user gave.  A record naming any other file is no record of this
 * source, and that file is not read.  The file opened is the one checked:
 * one found by where it resolves is opened there following no symbolic
 * link, and a folder on its way replaced by a link since is checked again,
 * where it leads now (the sidecar reached through a link, by its name).
 * -1 with errno EPERM: `dep` lies where it may not be read. */
int build_dep_open(const build_options *o, const build_job *j, const char *dep);

/* Drop the jobs outside --shard K/N (their manifest entries stay). */
void build_plan_shard(build_ctx *ctx);
/* Is the source built to out_base (relative to OUTDIR, no extension) this
 * run's under --shard (true without one)?  Jobs and manifest entries
 * alike. */
bool build_is_my_shard(const build_options *o, const char *out_base);

#endif
