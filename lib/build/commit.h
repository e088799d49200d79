/*
 * commit.h - results in job order: output claims, atomic writes, the
 * manifest this run writes; and `animc clean` (commit.c).
 */
#ifndef ANIMC_BUILD_COMMIT_H
#define ANIMC_BUILD_COMMIT_H

#include <stdbool.h>
#include <stddef.h>

#include "cli.h"
#include "journal.h"
#include "manifest.h"
#include "plan.h"

typedef struct build_ctx build_ctx;

typedef struct build_commit {
	build_ctx *ctx;
	manifest next;             /* the manifest this run writes */
	build_journal journal;     /* the outputs put in place, until a manifest records them */
	size_t committed;          /* jobs committed, in order */
	/* Claims: output paths of this run (relative to OUTDIR). */
	cli_strings claims;
	size_t *claim_slots;
	size_t claim_slot_count;
	size_t *claim_owner;       /* per claim, the job that made it (SIZE_MAX: none) */
	bool is_dry;               /* `animc outputs`: claim, write nothing */
	unsigned pruned;           /* outputs --prune removed */
	unsigned stale;            /* outputs of sources or clips gone, kept */
	bool dirty;                /* the manifest differs from the one loaded */
	size_t deferred;           /* jobs whose records are left in the old manifest */
	size_t lazy_carried;       /* entries carried as read lazily (next.carries) */
	cli_strings pruned_sources; /* entries --prune dropped with their outputs */
	/* The files the run's sources are (device, inode, job), sorted, made
	 * when the first output is written: no output replaces one. */
	struct build_source_id *sources;
	size_t source_count;
	bool has_sources;
	/* The outputs the loaded manifest records, made when first needed:
	 * who wrote a path before.  Sorted by path once the lookups so far
	 * outnumber a few, each scanned until then (owned_lookups). */
	struct owned *owned;
	size_t owned_count;
	bool has_owned, is_owned_sorted;
	unsigned owned_lookups;
	/* Those of sources no job of this run names: who wrote a path alike
	 * but for case.  Sorted by path with its letters folded to lower case
	 * as `owned` is. */
	struct owned *others;
	size_t other_count;
	bool has_others, is_others_sorted;
	unsigned other_lookups;
	/* Output names whose writers a manifest read lazily was searched for
	 * (take_writers). */
	cli_strings writers_taken;
	/* The mtime of the animc running (0: unknown): CMake's rules depend
	 * on it, and an install of animc gives it a new one. */
	int64_t program_mtime_ns;
	/* What tells --prune whether an orphan's source is there, made when
	 * first needed. */
	struct orphan_lookup *orphan_lookup;
} build_commit;

bool build_commit_init(build_commit *c, build_ctx *ctx, bool is_dry);
/* The first half of commit, run where the result is made (in a worker):
 * each output's bytes into a temporary file beside its place (or nothing,
 * when the file on disk is already those bytes), so that committing is a
 * rename.  The bytes are dropped from the result. */
void build_stage_outputs(const build_ctx *ctx, const build_job *job, build_result *r);
/* Remove the temporary files of results that were not committed. */
void build_unstage(build_ctx *ctx, size_t from);
/* Whether a job committed so far writes the output `path` (relative to
 * OUTDIR). */
bool build_commit_claims(const build_commit *c, const char *path);
/* Settle job `i` (jobs are committed strictly in order). */
void build_commit_job(build_commit *c, size_t i);
/* After the last job: orphans, --prune, the manifest's new content. */
void build_commit_finish(build_commit *c);
void build_commit_release(build_commit *c);
/* Full path of an output: OUTDIR-relative path joined to OUTDIR. */
char *build_output_path(const build_ctx *ctx, const build_job *job, const build_output *o);

/* Remove what animc wrote into OUTDIR (animc clean). */
int build_clean(build_ctx *ctx);
/* Remove temporary files a killed run left under `dir` (and the folders
 * that leaves empty); count the files removed. */
unsigned build_sweep_temps(const char *dir);

#endif
