/*
 * result.h - what compiling one source produced: its status, outputs,
 * diagnostics and the files its import read, and the bytes a result
 * travels as from a worker (result.c).
 */
#ifndef ANIMC_BUILD_RESULT_H
#define ANIMC_BUILD_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <animc/animc_formats.h>
#include "key.h"

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
	bool is_motion;           /* --root-motion's CLIP.motion file of the clip before it, made so */
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
	const char *kind;   /* a warning's kind: a name of animc_warning_kinds, or NULL */
	bool is_at_item;    /* about its job's project item, said at the item's line
			       (build_job's item_file), not in the source */
	uint32_t more;      /* alike ones past BUILD_KEPT_DIAGS, counted, not kept */
} build_diag;

/* A file besides the source that its import read; or one it looked for
 * and did not find, recorded with a state and a hash of zeros (no file
 * has inode 0): its coming changes the output. */
typedef struct build_dep {
	char *path;
	build_file_state state;
	build_hash hash;
} build_dep;

/* Whether `d` is a file that was not there (a state and a hash of zeros). */
bool build_dep_is_absent(const build_dep *d);
/* Whether `path` is not there, as build_dep_is_absent records (nothing at
 * the path, or a link that leads nowhere). */
bool build_path_is_absent(const char *path);

typedef struct build_result {
	build_status status;
	char importer[32];        /* "" when none recognised the file */
	/* The importer's reader_version, as the compile loaded it ("" for
	 * an importer with none): the manifest and the cache take outputs
	 * only where the same one is loaded. */
	char reader_version[64];
	char *skip_reason;        /* why, for BUILD_SKIPPED; may be NULL */
	build_output *outputs;
	uint32_t output_count;
	build_diag *diags;
	uint32_t diag_count, diag_capacity;
	/* Of diags, the first source_diag_count are the source's (its import
	 * and passes); the others the run said of this build of it (an output
	 * taken over, a write that failed), which its record does not keep. */
	uint32_t source_diag_count;
	uint32_t errors, warnings;
	/* Warnings and notes past BUILD_KEPT_DIAGS: one alike a kept one is
	 * counted into it, the first of another kind is kept, up to twice
	 * BUILD_KEPT_DIAGS in all; the rest are counted here (and a warning
	 * among `warnings` too), not kept (a document of a million unknown
	 * elements held a message for each: 650 MB); build_result_say_unkept
	 * says how many. */
	uint32_t unkept_diags;
	struct build_kind_index *kinds;   /* of the kept ones, once there are BUILD_KEPT_DIAGS */
	bool has_source;          /* source_state and source_hash are known */
	build_file_state source_state;
	build_hash source_hash;
	build_dep *deps;
	uint32_t dep_count;
	build_hash key;
	double time_s;
	/* Compiled under --clip (or fetched from the cache so): the names of
	 * every clip its source holds now, those --clip left out included,
	 * whose outputs stay; an output of a clip not among them is stale
	 * (commit.c).  None: not known (an up-to-date record), or no named
	 * clips. */
	char **held_clips;
	uint32_t held_clip_count;
} build_result;

void build_result_release(build_result *r);
/* How many warnings and notes of one source are kept; errors all are. */
#define BUILD_KEPT_DIAGS 10000

/* Add a note saying how many were not kept, if any (those alike a kept
 * one are counted in its `more`). */
void build_result_say_unkept(build_result *r);

/* Where a message is about (the length of its prefix before ": " when
 * that names a place), and its kind: the rest, numbers and quoted names
 * masked.  Messages alike are folded into one line. */
size_t build_place_size(const char *message);
void build_message_kind(const char *message, char *out, size_t size);

/* Add a diagnostic (message copied). */
void build_result_diag(build_result *r, animc_severity severity, uint32_t line, uint32_t column,
		       int64_t byte_offset, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* The same, for a warning of a kind (a name animc_warning_kind_find
 * knows; another, or NULL: none). */
void build_result_diag_kind(build_result *r, animc_severity severity, const char *kind, uint32_t line,
			    uint32_t column, int64_t byte_offset, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));
/* The table's own string for the kind named `name`; NULL when there is no
 * such kind (a record of an older or newer animc). */
const char *build_kind_name(const char *name);
/* Result bytes for the worker pipe, and back.  decode: false on any
 * damage (the record is then not used). */
bool build_result_encode(const build_result *r, uint8_t **out, size_t *size);
bool build_result_decode(const uint8_t *data, size_t size, build_result *r);

#endif
