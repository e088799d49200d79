/*
 * journal.h - OUTDIR/.animc/journal.PID, one file per run: a line for
 * each output the run puts in place, appended before the output is renamed
 * there, so that a run killed before its manifest records an output (the
 * manifest is saved at checkpoints every 2 s and at the end) leaves nothing
 * that `animc clean` and `--prune` do not know (journal.c).
 *
 *   animc-journal 1
 *   output <fields of a manifest output record> <XXH3-64 of the line before this field>
 *
 * The run empties its file each time it saves the manifest (which then
 * records every output the file named) and removes it when it ends.  A file
 * a killed run left is read by `animc clean`, and folded into the manifest
 * (its outputs as orphans) by the next build that runs alone in OUTDIR.  A
 * line cut short by the kill is ignored; a record naming a path outside
 * OUTDIR is refused with a warning.  A journal of another format version
 * (written by another animc, before a rollback) is kept as it is, with a
 * warning, and `animc clean` refuses to clean while it is there: removing
 * it would leave the outputs it names known to nothing.
 */
#ifndef ANIMC_BUILD_JOURNAL_H
#define ANIMC_BUILD_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "cli.h"
#include "manifest.h"

typedef struct build_ctx build_ctx;

/* The files' names under OUTDIR/.animc start so. */
#define JOURNAL_PREFIX "journal."

typedef struct build_journal {
	char *dir;          /* OUTDIR/.animc; NULL: this run keeps none (`animc outputs`) */
	char *path;         /* the run's file, made with the first record */
	/* OUTDIR/.animc as the run opened it (ctx->state_fd, not owned): the
	 * file is made and removed in it; -1 (as init leaves it): by path. */
	int dir_fd;
	int fd;             /* -1 until then */
	cli_bytes line;     /* the record being written */
	size_t pending;     /* records no saved manifest holds yet */
	off_t size;         /* the file's bytes up to its last whole record */
	int spare_fd;       /* kept open for the file, so that running out of
			       descriptors cannot keep it from being made */
	bool is_broken;     /* a failed write could not be taken back: no more records */
	int broken_error;   /* the errno of that write */
} build_journal;

/* Ready to record outputs into OUTDIR; makes no file yet.  False when out
 * of memory. */
bool build_journal_init(build_journal *j, const char *out_dir);
/* Append the record of output `o`, about to be renamed into place (one
 * write, not synced: it must outlive the process, not the machine, as the
 * outputs themselves are not synced either).  False (*err says why) when it
 * cannot be written: the output is then not to be put in place, as nothing
 * would record it.  A record cut short is taken back, so a later one may
 * still be written (a full disk that the failed source's staged files
 * freed); if it cannot be, none is. */
bool build_journal_add(build_journal *j, const manifest_output *o, cli_error *err);
/* A manifest that records every output of the journal was saved: empty it. */
void build_journal_clear(build_journal *j);
/* The run ends: its file goes when a saved manifest holds all it names,
 * and stays (for the next build alone here, or clean) otherwise. */
void build_journal_close(build_journal *j);

/* Parse a journal's bytes (`name` for the warnings): each complete record
 * is appended to into->orphans.  A last line without its newline is a
 * write the kill cut short, ignored; a damaged line or a path outside
 * OUTDIR is said (a warning) and skipped.  False when out of memory. */
bool build_journal_parse(const build_ctx *ctx, const char *name, const char *data, size_t size,
			 manifest *into);
/* Read every journal under OUTDIR/.animc into into->orphans, their paths
 * into *files (sorted).  A file that cannot be read is said and left out,
 * its path into *unread (may be NULL): the outputs it names are known to
 * no one until it is read.  A journal of another format version (another
 * animc's) is said, neither read nor put in *files, so that it is never
 * removed, and its path goes into *others (may be NULL). */
bool build_journal_read_all(const build_ctx *ctx, const char *out_dir, manifest *into, cli_strings *files,
			    cli_strings *others, cli_strings *unread);
/* Remove the journal files named (in the run's state folder, ctx's). */
void build_journal_remove(const build_ctx *ctx, const cli_strings *files);
/* With OUTDIR's lock held alone (no run is writing a journal): fold what
 * killed runs left into OUTDIR/.animc/manifest, their outputs the
 * manifest does not record as they are becoming orphans, and remove those
 * files.  They stay when the manifest cannot be read or saved. */
void build_journal_fold(const build_ctx *ctx, const char *out_dir);

#endif
