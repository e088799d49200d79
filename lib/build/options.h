/*
 * options.h - the options of `animc build`, `animc outputs` and `animc
 * clean`, parsed from argv by the table in options.c.
 */
#ifndef ANIMC_BUILD_OPTIONS_H
#define ANIMC_BUILD_OPTIONS_H

#include "mgcb.h"
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <animc/animc_formats.h>
#include "author.h"
#include "cache.h"
#include "cli.h"

typedef enum build_progress { PROGRESS_AUTO = 0, PROGRESS_ALWAYS, PROGRESS_NEVER } build_progress;

/* The default of --cache-min-size: below it, compiling a source animc's own
 * readers read costs about what a fetch does, or less (docs/scaling.md,
 * "Only sources worth a fetch go through the cache", gives the numbers). */
#define BUILD_CACHE_MIN_SIZE (1u << 20)

typedef struct build_options {
	const char *out_dir;
	animc_process_options process;
	bool has_tolerance;          /* --tolerance given, 0,0,0 (lossless) too */
	animc_xnb_options xnb;
	animc_import_options import;
	animc_units units;           /* --scale, --rotate */
	const char *mgcb_path;       /* --mgcb */
	cli_strings mgcb_defines;    /* --mgcb-define */
	bool has_project;
	build_mgcb project;          /* its items, when has_project */
	bool is_project_broken;      /* --mgcb could not be read (project.said says why) */
	/* Warnings said before the run by its caller (animc watch's: an input
	 * gone): counted and listed as the run's own, as a project's are. */
	build_said_list said_before;
	bool verbose, quiet, warnings_as_errors, rebuild, prune;
	bool allowed[ANIMC_WARN_KIND_COUNT];  /* --allow: warnings of these kinds are not said */
	/* Not an option: animc watch's.  An input the file system says is not
	 * there (moved away, deleted) is left out of the plan, no failure:
	 * the watch says so once.  Its sources' outputs stay (source_exists). */
	bool skips_gone_inputs;
	/* Not an option: animc watch's.  A run that compiled nothing keeps
	 * its state folder all the same: the manifest names the files its
	 * failed sources missed (a glTF buffer not copied in yet), which the
	 * watch watches. */
	bool keeps_state;
	cli_strings clip_names;      /* --clip */
	build_author_options author; /* --split, --clips, --root-motion, ... (author.h) */
	const char *skeleton_path;   /* --skeleton */
	double import_timeout_s;     /* 0: no limit */
	uint64_t memory_limit_bytes; /* per worker; 0: no limit */
	unsigned jobs;
	build_progress progress;
	const char *report_path, *junit_path, *depfile_path, *base_dir;
	/* Not an option: a report named "-" goes to this descriptor, the
	 * process's standard output, which the command set aside (the
	 * progress and summary lines then go to stderr); -1: none. */
	int report_stdout_fd;
	/* The shared cache (--cache-url or ANIMC_CACHE_URL, --cache-dir) and
	 * --shard (count 0: all sources). */
	const char *cache_url, *cache_dir;
	bool cache_read_only;
	bool cache_wait;             /* --cache-wait: see build_cache.c */
	double cache_timeout_s;
	uint64_t cache_min_size;     /* --cache-min-size: see build_cache_skips */
	const char *cache_option;    /* the first of the four above given, which need a cache */
	cli_shard shard;
	/* The options that change what is written, as "name\0value" pairs in
	 * the order given: every option of kind OUTPUT in the table of
	 * options.c lands here, and the source key covers all of it. */
	cli_strings key_options;
	/* Of them, --clips (its document's hash) and --split, taken out: they
	 * cut only the sources named on the command line, and join only
	 * their keys (build_job_facts). */
	cli_strings cut_key_options;
	cli_strings inputs;          /* after @FILE expansion */
	cli_strings arg_storage;     /* strings read from response files */
	cli_strings response_files;  /* the @FILEs read, as named */
	const char *command_name;    /* named by usage errors; NULL: the command's */
} build_options;

/* Which command parses: build takes every option; outputs and clean fewer. */
typedef enum build_command { CMD_BUILD, CMD_OUTPUTS, CMD_CLEAN } build_command;

/* Parse argv (after the command name) into `o` (zeroed first): 0 on success,
 * -1 when help was asked for (-h, --help; the caller prints its command's,
 * as watch parses build's options), else ANIMC_EXIT_USAGE (message
 * printed). */
int build_options_parse(build_options *o, build_command command, int argc, char **argv);
/* As build_options_parse, usage errors naming `name` ("animc NAME: ...",
 * "Try 'animc help NAME'") in place of the command's. */
int build_options_parse_as(build_options *o, build_command command, const char *name, int argc, char **argv);
void build_options_release(build_options *o);
/* --scale F and --rotate X,Y,Z, as build parses them (animc plot takes
 * them too): false with *err set when the argument is not one. */
bool build_parse_scale(const char *arg, double *scale, cli_error *err);
bool build_parse_rotate(const char *arg, double degrees[3], cli_error *err);
/* Whether --allow names the warning kind `kind` (NULL: never). */
bool build_options_allows(const build_options *o, const char *kind);
/* Is an output of clip `clip` (NAME, or NAME.motion, its root motion, with
 * is_motion) one --clip leaves out?  Never that of a source without named
 * clips (clip ""), which --clip compiles whole. */
bool build_options_leaves_out(const build_options *o, const char *clip, bool is_motion);
/* What --mgcb's project is read with: --mgcb-define, --platform, --allow. */
build_mgcb_settings build_options_mgcb_settings(const build_options *o);
void build_help(FILE *out);
void build_outputs_help(FILE *out);
void build_clean_help(FILE *out);

#endif
