/*
 * options.c - the options of `animc build`, `animc outputs` and
 * `animc clean`: one table, response files (@FILE), help.  Each option has
 * a kind: OUTPUT options change what is written (bytes, or which files), so
 * the table feeds them into every source's key (key.c): an option added
 * here as OUTPUT makes builds made without it out of date, with no other
 * change.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build.h"

typedef enum option_kind {
	KIND_RUN,     /* how the run goes: not in the key */
	KIND_OUTPUT,  /* changes what is written: name and value join the key */
	KIND_MODEL    /* names a file whose bytes join the key (--skeleton) */
} option_kind;

/* The commands an option belongs to. */
#define FOR_BUILD (1u << CMD_BUILD)
#define FOR_OUTPUTS (1u << CMD_OUTPUTS)
#define FOR_CLEAN (1u << CMD_CLEAN)
#define FOR_ALL (FOR_BUILD | FOR_OUTPUTS | FOR_CLEAN)
#define FOR_COMPILE (FOR_BUILD | FOR_OUTPUTS)

typedef struct option_def {
	const char *name;
	int short_name;        /* 0: none */
	bool has_arg;
	unsigned commands;
	option_kind kind;
	/* Store the value: 0, or an error message in why (a usage error). */
	bool (*set)(build_options *o, const char *arg, char *why, size_t why_size);
} option_def;

#define WHY(...) (snprintf(why, why_size, __VA_ARGS__), false)

static bool parse_double(const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	return end != s && !*end && errno == 0 && isfinite(*out);
}

static bool set_output(build_options *o, const char *arg, char *why, size_t why_size)
{
	(void)why, (void)why_size;
	o->out_dir = arg;
	return true;
}

static bool set_exact(build_options *o, const char *arg, char *why, size_t why_size)
{
	(void)arg, (void)why, (void)why_size;
	o->process.exact = true;
	return true;
}

static bool set_platform(build_options *o, const char *arg, char *why, size_t why_size)
{
	if (strlen(arg) != 1 || !strchr(animc_xnb_platforms(), arg[0]))
		return WHY("--platform '%s' is not one of the letters %s", arg, animc_xnb_platforms());
	o->xnb.platform = arg[0];
	return true;
}

static bool set_reader(build_options *o, const char *arg, char *why, size_t why_size)
{
	size_t bad;

	if (!arg[0])
		return WHY("--reader-name is empty");
	if (!animc_utf8_check(arg, strlen(arg), &bad))
		return WHY("--reader-name is not UTF-8 (byte %zu)", bad);
	o->xnb.reader_name = arg;
	return true;
}

static bool set_compress(build_options *o, const char *arg, char *why, size_t why_size)
{
	if (strcmp(arg, "zstd") == 0)
		o->xnb.compression = ANIMC_COMPRESSION_ZSTD;
	else if (strcmp(arg, "none") == 0)
		o->xnb.compression = ANIMC_COMPRESSION_NONE;
	else
		return WHY("--compress '%s': use zstd or none", arg);
	return true;
}

static bool set_level(build_options *o, const char *arg, char *why, size_t why_size)
{
	char *end;
	long level = strtol(arg, &end, 10);

	if (*end || end == arg || level < 1 || level > 22)
		return WHY("--zstd-level '%s' is not between 1 and 22", arg);
	o->xnb.zstd_level = (int)level;
	return true;
}

static bool set_werror(build_options *o, const char *arg, char *why, size_t why_size)
{
	(void)arg, (void)why, (void)why_size;
	o->warnings_as_errors = true;
	return true;
}

static bool set_clip(build_options *o, const char *arg, char *why, size_t why_size)
{
	if (!cli_strings_push(&o->clip_names, arg))
		return WHY("out of memory");
	return true;
}

static bool set_skeleton(build_options *o, const char *arg, char *why, size_t why_size)
{
	(void)why, (void)why_size;
	o->skeleton_path = arg;
	return true;
}

static bool set_relative(build_options *o, const char *arg, char *why, size_t why_size)
{
	(void)arg, (void)why, (void)why_size;
	o->import.relative_to_bind = true;
	return true;
}

static bool set_ticks(build_options *o, const char *arg, char *why, size_t why_size)
{
	double rate;

	if (!parse_double(arg, &rate) || !(rate > 0))
		return WHY("--ticks-per-second '%s' is not a number above 0", arg);
	o->import.ticks_per_second = rate;
	return true;
}

static bool set_timeout(build_options *o, const char *arg, char *why, size_t why_size)
{
	double seconds;

	if (!parse_double(arg, &seconds) || seconds < 0)
		return WHY("--import-timeout '%s' is not a number of seconds (0 for no limit)", arg);
	o->import_timeout_s = seconds;
	return true;
}

static bool set_tolerance(build_options *o, const char *arg, char *why, size_t why_size)
{
	if (!cli_parse_tolerance(arg, &o->process.reduce.tolerance))
		return WHY("--tolerance '%s': give 'default' or three numbers >= 0, T,R,S (units, "
			   "degrees, scale)", arg);
	return true;
}

static bool set_layout(build_options *o, const char *arg, char *why, size_t why_size)
{
	if (strcmp(arg, "compact") == 0)
		o->process.layout = ANIMC_LAYOUT_COMPACT;
	else if (strcmp(arg, "original") == 0)
		o->process.layout = ANIMC_LAYOUT_ORIGINAL;
	else
		return WHY("--layout '%s': use original or compact", arg);
	return true;
}

static bool set_shell(build_options *o, const char *arg, char *why, size_t why_size)
{
	double d;

	if (!parse_double(arg, &d) || !(d > 0) || d > 1e30)
		return WHY("--shell-distance '%s': give a distance > 0 in model units", arg);
	o->process.reduce.shell_distance = (float)d;
	return true;
}

/* A size such as 4G, 512M, 256K or 1000 (bytes); false when it is not one. */
static bool parse_size(const char *arg, uint64_t *bytes)
{
	char *end;
	double value;
	uint64_t unit = 1;

	errno = 0;
	value = strtod(arg, &end);
	if (end != arg && *end) {
		switch (*end) {
		case 'k': case 'K': unit = 1ull << 10; end++; break;
		case 'm': case 'M': unit = 1ull << 20; end++; break;
		case 'g': case 'G': unit = 1ull << 30; end++; break;
		case 't': case 'T': unit = 1ull << 40; end++; break;
		}
	}
	if (end == arg || *end || errno || !isfinite(value) || value < 0 || value * (double)unit > 1e18)
		return false;
	*bytes = (uint64_t)(value * (double)unit);
	return true;
}

static bool set_memory(build_options *o, const char *arg, char *why, size_t why_size)
{
	if (!parse_size(arg, &o->memory_limit_bytes))
		return WHY("--memory-limit '%s' is not a size (such as 4G or 512M; 0 for no limit)", arg);
	if (o->memory_limit_bytes && o->memory_limit_bytes < (64ull << 20))
		return WHY("--memory-limit '%s' is below 64M, too little to start an import", arg);
	return true;
}

static bool set_jobs(build_options *o, const char *arg, char *why, size_t why_size)
{
	char *end;
	long n = strtol(arg, &end, 10);

	if (*end || end == arg || n < 1 || n > 1024)
		return WHY("--jobs '%s' is not a number from 1 to 1024", arg);
	o->jobs = (unsigned)n;
	return true;
}

static bool set_progress(build_options *o, const char *arg, char *why, size_t why_size)
{
	if (strcmp(arg, "auto") == 0)
		o->progress = PROGRESS_AUTO;
	else if (strcmp(arg, "always") == 0)
		o->progress = PROGRESS_ALWAYS;
	else if (strcmp(arg, "never") == 0)
		o->progress = PROGRESS_NEVER;
	else
		return WHY("--progress '%s': use auto, always or never", arg);
	return true;
}

static bool set_report(build_options *o, const char *arg, char *why, size_t why_size)
{
	(void)why, (void)why_size;
	o->report_path = arg;
	return true;
}

static bool set_junit(build_options *o, const char *arg, char *why, size_t why_size)
{
	(void)why, (void)why_size;
	o->junit_path = arg;
	return true;
}

static bool set_depfile(build_options *o, const char *arg, char *why, size_t why_size)
{
	(void)why, (void)why_size;
	o->depfile_path = arg;
	return true;
}

static bool set_base(build_options *o, const char *arg, char *why, size_t why_size)
{
	if (!arg[0])
		return WHY("--base is empty");
	o->base_dir = arg;
	return true;
}

static bool set_cache_url(build_options *o, const char *arg, char *why, size_t why_size)
{
	/* Checked now, a usage error: http(s)://, and no credentials. */
	if (!cli_cache_url_check(arg, why, why_size))
		return false;
	o->cache_url = arg;
	return true;
}

static bool set_cache_dir(build_options *o, const char *arg, char *why, size_t why_size)
{
	if (!arg[0])
		return WHY("--cache-dir is empty");
	o->cache_dir = arg;
	return true;
}

static bool set_cache_read_only(build_options *o, const char *arg, char *why, size_t why_size)
{
	(void)arg, (void)why, (void)why_size;
	o->cache_read_only = true;
	return true;
}

static bool set_cache_timeout(build_options *o, const char *arg, char *why, size_t why_size)
{
	if (!parse_double(arg, &o->cache_timeout_s) || o->cache_timeout_s <= 0 || o->cache_timeout_s > 3600)
		return WHY("--cache-timeout '%s' is not a number of seconds between 0 and 3600", arg);
	return true;
}

static bool set_cache_min_size(build_options *o, const char *arg, char *why, size_t why_size)
{
	if (!parse_size(arg, &o->cache_min_size))
		return WHY("--cache-min-size '%s' is not a size (such as 256K or 1M; 0: every source)", arg);
	return true;
}

static bool set_shard(build_options *o, const char *arg, char *why, size_t why_size)
{
	if (!cli_shard_parse(arg, &o->shard))
		return WHY("--shard '%s' is not K/N with 1 <= K <= N <= %u", arg, CLI_SHARD_MAX);
	return true;
}

static bool set_rebuild(build_options *o, const char *arg, char *why, size_t why_size)
{
	(void)arg, (void)why, (void)why_size;
	o->rebuild = true;
	return true;
}

static bool set_prune(build_options *o, const char *arg, char *why, size_t why_size)
{
	(void)arg, (void)why, (void)why_size;
	o->prune = true;
	return true;
}

static bool set_quiet(build_options *o, const char *arg, char *why, size_t why_size)
{
	(void)arg, (void)why, (void)why_size;
	o->quiet = true;
	return true;
}

static bool set_verbose(build_options *o, const char *arg, char *why, size_t why_size)
{
	(void)arg, (void)why, (void)why_size;
	o->verbose = true;
	return true;
}

static bool set_split(build_options *o, const char *arg, char *why, size_t why_size)
{
	return build_author_split(&o->author, arg, why, why_size);
}

static bool set_clips(build_options *o, const char *arg, char *why, size_t why_size)
{
	if (!arg[0])
		return WHY("--clips is empty");
	o->author.clips_path = arg;
	return true;
}

static bool set_root_motion(build_options *o, const char *arg, char *why, size_t why_size)
{
	return build_author_root_motion(&o->author, arg, why, why_size);
}

static bool set_up_axis(build_options *o, const char *arg, char *why, size_t why_size)
{
	return build_author_up_axis(&o->author, arg, why, why_size);
}

static bool set_additive(build_options *o, const char *arg, char *why, size_t why_size)
{
	return build_author_additive(&o->author, arg, why, why_size);
}

/* Every option, once.  A new option that changes output bytes is KIND_OUTPUT. */
static const option_def option_table[] = {
	{ "output", 'o', true, FOR_ALL, KIND_RUN, set_output },
	{ "exact", 0, false, FOR_COMPILE, KIND_OUTPUT, set_exact },
	{ "platform", 0, true, FOR_COMPILE, KIND_OUTPUT, set_platform },
	{ "reader-name", 0, true, FOR_COMPILE, KIND_OUTPUT, set_reader },
	{ "compress", 0, true, FOR_COMPILE, KIND_OUTPUT, set_compress },
	{ "zstd-level", 0, true, FOR_COMPILE, KIND_OUTPUT, set_level },
	{ "warnings-as-errors", 0, false, FOR_COMPILE, KIND_OUTPUT, set_werror },
	{ "clip", 0, true, FOR_COMPILE, KIND_OUTPUT, set_clip },
	{ "split", 0, true, FOR_COMPILE, KIND_OUTPUT, set_split },
	{ "clips", 0, true, FOR_COMPILE, KIND_OUTPUT, set_clips },
	{ "root-motion", 0, true, FOR_COMPILE, KIND_OUTPUT, set_root_motion },
	{ "up-axis", 0, true, FOR_COMPILE, KIND_OUTPUT, set_up_axis },
	{ "additive-reference", 0, true, FOR_COMPILE, KIND_OUTPUT, set_additive },
	{ "skeleton", 0, true, FOR_COMPILE, KIND_MODEL, set_skeleton },
	{ "relative-to-bind", 0, false, FOR_COMPILE, KIND_OUTPUT, set_relative },
	{ "ticks-per-second", 0, true, FOR_COMPILE, KIND_OUTPUT, set_ticks },
	{ "tolerance", 0, true, FOR_COMPILE, KIND_OUTPUT, set_tolerance },
	{ "layout", 0, true, FOR_COMPILE, KIND_OUTPUT, set_layout },
	{ "shell-distance", 0, true, FOR_COMPILE, KIND_OUTPUT, set_shell },
	{ "import-timeout", 0, true, FOR_COMPILE, KIND_RUN, set_timeout },
	{ "memory-limit", 0, true, FOR_COMPILE, KIND_RUN, set_memory },
	{ "jobs", 'j', true, FOR_COMPILE, KIND_RUN, set_jobs },
	{ "progress", 0, true, FOR_BUILD, KIND_RUN, set_progress },
	{ "report", 0, true, FOR_BUILD, KIND_RUN, set_report },
	{ "junit", 0, true, FOR_BUILD, KIND_RUN, set_junit },
	{ "depfile", 0, true, FOR_BUILD, KIND_RUN, set_depfile },
	{ "base", 0, true, FOR_COMPILE, KIND_RUN, set_base },
	{ "rebuild", 0, false, FOR_COMPILE, KIND_RUN, set_rebuild },
	{ "prune", 0, false, FOR_BUILD, KIND_RUN, set_prune },
	{ "shard", 0, true, FOR_COMPILE, KIND_RUN, set_shard },
	{ "cache-url", 0, true, FOR_BUILD, KIND_RUN, set_cache_url },
	{ "cache-dir", 0, true, FOR_BUILD, KIND_RUN, set_cache_dir },
	{ "cache-read-only", 0, false, FOR_BUILD, KIND_RUN, set_cache_read_only },
	{ "cache-timeout", 0, true, FOR_BUILD, KIND_RUN, set_cache_timeout },
	{ "cache-min-size", 0, true, FOR_BUILD, KIND_RUN, set_cache_min_size },
	{ "quiet", 'q', false, FOR_ALL, KIND_RUN, set_quiet },
	{ "verbose", 'v', false, FOR_ALL, KIND_RUN, set_verbose },
};
#define OPTION_COUNT (sizeof option_table / sizeof option_table[0])

static const char *command_name(build_command c)
{
	return c == CMD_BUILD ? "build" : c == CMD_OUTPUTS ? "outputs" : "clean";
}

/* Arguments with each @FILE replaced by the lines of FILE (one argument a
 * line; a trailing \r dropped; empty lines left out).  Not recursive: a
 * line starting with @ is an argument. */
static bool expand_response_files(build_options *o, int argc, char **argv, cli_strings *out,
				  build_command command)
{
	for (int i = 0; i < argc; i++) {
		uint8_t *data;
		size_t size;
		char why[512];

		if (argv[i][0] != '@' || !argv[i][1] || i == 0) {
			if (!cli_strings_push(out, argv[i]))
				return cli_usage_error(command_name(command), "out of memory"), false;
			continue;
		}
		if (!cli_read_file(argv[i] + 1, &data, &size, why, sizeof why)) {
			cli_usage_error(command_name(command), "response file '%s': %s", argv[i] + 1, why);
			return false;
		}
		for (char *line = (char *)data, *end = (char *)data + size; line < end;) {
			char *nl = memchr(line, '\n', (size_t)(end - line));
			size_t len = nl ? (size_t)(nl - line) : (size_t)(end - line);

			if (len && line[len - 1] == '\r')
				len--;
			if (len) {
				char saved = line[len];

				line[len] = '\0';
				if (memchr(line, '\0', len)) {
					free(data);
					cli_usage_error(command_name(command),
							"response file '%s' holds a NUL byte", argv[i] + 1);
					return false;
				}
				if (!cli_strings_push(out, line)) {
					free(data);
					return false;
				}
				line[len] = saved;
			}
			line = nl ? nl + 1 : end;
		}
		free(data);
	}
	(void)o;
	return true;
}

int build_options_parse(build_options *o, build_command command, int argc, char **argv)
{
	struct option longs[OPTION_COUNT + 2];
	char shorts[64] = ":h";
	size_t n = 0, used = 2;
	cli_strings args = { 0 };
	int c, status = 0, index;

	memset(o, 0, sizeof *o);
	o->import_timeout_s = 120;
	o->memory_limit_bytes = 4ull << 30;
	o->cache_min_size = BUILD_CACHE_MIN_SIZE;
	o->cache_url = getenv("ANIMC_CACHE_URL") && getenv("ANIMC_CACHE_URL")[0] ? getenv("ANIMC_CACHE_URL") : NULL;
	{
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);

		o->jobs = cpus < 1 ? 1 : cpus > 64 ? 64 : (unsigned)cpus;
	}
	for (size_t i = 0; i < OPTION_COUNT; i++) {
		const option_def *d = &option_table[i];

		if (!(d->commands & (1u << command)))
			continue;
		longs[n].name = d->name;
		longs[n].has_arg = d->has_arg ? required_argument : no_argument;
		longs[n].flag = NULL;
		longs[n].val = 256 + (int)i;
		n++;
		if (d->short_name) {
			shorts[used++] = (char)d->short_name;
			if (d->has_arg)
				shorts[used++] = ':';
		}
	}
	shorts[used] = '\0';
	longs[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	longs[n] = (struct option){ NULL, 0, NULL, 0 };

	if (!expand_response_files(o, argc, argv, &args, command)) {
		cli_strings_release(&args);
		return ANIMC_EXIT_USAGE;
	}
	/* The expanded strings live as long as the options. */
	o->arg_storage = args;
	/* Room for argv[argc] = NULL, as getopt expects. */
	if (!cli_strings_push(&o->arg_storage, ""))
		return ANIMC_EXIT_USAGE;
	o->arg_storage.count--;
	free(o->arg_storage.items[o->arg_storage.count]);
	o->arg_storage.items[o->arg_storage.count] = NULL;
	argc = (int)o->arg_storage.count;
	argv = o->arg_storage.items;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, shorts, longs, &index)) != -1) {
		const option_def *d = NULL;
		char why[512];

		if (c == 'h') {
			if (command == CMD_BUILD)
				build_help(stdout);
			else if (command == CMD_OUTPUTS)
				build_outputs_help(stdout);
			else
				build_clean_help(stdout);
			return -1;
		}
		if (c == ':')
			return cli_usage_error(command_name(command), "option '%s' needs a value",
					       argv[optind - 1]);
		if (c >= 256 && c < 256 + (int)OPTION_COUNT) {
			d = &option_table[c - 256];
		} else {
			for (size_t i = 0; i < OPTION_COUNT && !d; i++)
				if (option_table[i].short_name == c && (option_table[i].commands & (1u << command)))
					d = &option_table[i];
		}
		if (!d)
			return cli_usage_error(command_name(command), "unknown option '%s'", argv[optind - 1]);
		if (!d->set(o, d->has_arg ? optarg : NULL, why, sizeof why))
			return cli_usage_error(command_name(command), "%s", why);
		if (d->kind == KIND_OUTPUT &&
		    (!cli_strings_push(&o->key_options, d->name) ||
		     !cli_strings_push(&o->key_options, d->has_arg ? optarg : "")))
			return cli_usage_error(command_name(command), "out of memory");
	}
	for (int i = optind; i < argc; i++)
		if (!cli_strings_push(&o->inputs, argv[i]))
			return cli_usage_error(command_name(command), "out of memory");
	if (!o->out_dir)
		return cli_usage_error(command_name(command), "no output folder: give -o OUTDIR");
	if (command != CMD_CLEAN && !o->inputs.count)
		return cli_usage_error(command_name(command), "no inputs: give files or folders to compile");
	if (command == CMD_CLEAN && o->inputs.count)
		return cli_usage_error("clean", "'%s': clean takes no inputs, only -o OUTDIR",
				       o->inputs.items[0]);
	if (o->quiet && o->verbose)
		return cli_usage_error(command_name(command), "--quiet and --verbose contradict each other");
	if (o->import.relative_to_bind && !o->skeleton_path)
		return cli_usage_error(command_name(command), "--relative-to-bind needs --skeleton MODEL: "
				       "the rest transforms come from the model");
	if (o->process.exact && o->process.layout == ANIMC_LAYOUT_COMPACT)
		return cli_usage_error(command_name(command), "--exact and --layout compact contradict "
				       "each other: --exact writes the original pipeline's bytes");
	if (o->process.exact && animc_tolerance_is_set(&o->process.reduce.tolerance))
		return cli_usage_error(command_name(command), "--exact and --tolerance contradict each "
				       "other: --exact writes the source's keys as they are");
	if (o->author.clips_path && o->author.splits.count)
		return cli_usage_error(command_name(command), "--clips and --split contradict each other: "
				       "give the parts in one place");
	if (o->author.has_additive && o->author.additive == ANIMC_ADDITIVE_BIND && !o->skeleton_path)
		return cli_usage_error(command_name(command), "--additive-reference bind needs --skeleton "
				       "MODEL: the rest pose comes from the model");
	if (o->process.reduce.shell_distance > 0 && !o->skeleton_path)
		return cli_usage_error(command_name(command), "--shell-distance needs --skeleton MODEL: "
				       "the shell is measured through the model's bones");
	if (o->skeleton_path && !(o->process.reduce.shell_distance > 0))
		o->process.reduce.shell_distance = CLI_SHELL_DISTANCE;
	/* The compact layout is lossy: the default tolerance unless one is
	 * given.  Importers that bake curves bake within a part of it. */
	if (o->process.layout == ANIMC_LAYOUT_COMPACT &&
	    !animc_tolerance_is_set(&o->process.reduce.tolerance))
		cli_parse_tolerance("default", &o->process.reduce.tolerance);
	if (animc_tolerance_is_set(&o->process.reduce.tolerance))
		o->import.tolerance = &o->process.reduce.tolerance;
	return status;
}

void build_options_release(build_options *o)
{
	cli_strings_release(&o->clip_names);
	build_author_release(&o->author);
	cli_strings_release(&o->key_options);
	cli_strings_release(&o->inputs);
	cli_strings_release(&o->arg_storage);
}

void build_help(FILE *out)
{
	fprintf(out,
		"usage: animc build [options] -o OUTDIR INPUT...\n"
		"\n"
		"Compile animation sources into .xnb files (XNB v5, RobotGame AnimationSequence\n"
		"layout) that XNA, FNA and MonoGame load through RobotGame's AnimationReader.\n"
		"\n"
		"INPUT is a file or a folder (or @FILE: the arguments listed in FILE, one a\n"
		"line).  A folder is walked recursively (names starting with '.' are left out,\n"
		"each folder is walked once however many links reach it) and its tree is\n"
		"mirrored under OUTDIR.  A source that is one clip (a RobotGame .Animation)\n"
		"becomes OUTDIR/<stem>.xnb; a source holding named clips becomes\n"
		"OUTDIR/<stem>/<clip>.xnb.  Files no importer recognises are skipped.  Each\n"
		"source compiles on its own: a bad one is reported and the others still\n"
		"compile.  Output files appear whole or not at all.\n"
		"\n"
		"Builds are incremental: OUTDIR/.animc/manifest records each source's key (its\n"
		"bytes, the other files its import read, the options below that change output,\n"
		"the versions of animc and its libraries) and its outputs.  A source whose key\n"
		"and outputs are unchanged is neither imported nor rewritten.\n"
		"\n"
		"output options (they change what is written, so they are part of the key):\n"
		"      --exact             RobotGame sources: reproduce the original XNA\n"
		"                          pipeline's bytes: validate only, no normalisation;\n"
		"                          what the original would have written as a corrupt\n"
		"                          file is an error, what its runtime cannot play a\n"
		"                          warning.  Other sources: every key kept at its time\n"
		"                          (nothing made fixed or uniform)\n"
		"      --platform L        XNB platform letter, one of %s (default w)\n"
		"      --reader-name NAME  type reader name written into the file (default:\n"
		"                          the original RobotGame AnimationReader); animc dump\n"
		"                          reads a name not ending in AnimationReader only when\n"
		"                          given it with --reader-name\n"
		"      --compress KIND     zstd: wrap each file in one zstd frame, named\n"
		"                          .xnb.zst (XNA, FNA and MonoGame cannot read these;\n"
		"                          the animc loader can); none (default)\n"
		"      --zstd-level N      zstd level, 1 to 22 (default 19)\n"
		"      --clip NAME         compile only the clip NAME of sources holding named\n"
		"                          clips (repeatable); a source without it fails,\n"
		"                          listing the clips it has\n"
		"      --split [TAKE/]NAME=START:END  cut the clip NAME out of a take of each\n"
		"                          source named on the command line (repeatable):\n"
		"                          START to END in seconds, or frames at the source's\n"
		"                          frame rate with 'f' (Run=40f:85f); without TAKE/,\n"
		"                          the source's only take.  Written as\n"
		"                          OUTDIR/<stem>/NAME.xnb; the take itself is not.\n"
		"                          Without --split or --clips, a sidecar\n"
		"                          STEM_Anims.xml beside a source (an XnaContent\n"
		"                          AnimationDefinition) splits it the same way\n"
		"      --clips FILE        split each source named on the command line by the\n"
		"                          AnimationDefinition document FILE\n"
		"      --root-motion BONE[,yaw]  take BONE's travel in the ground plane (and,\n"
		"                          with ,yaw, its turn about the up axis) out of each\n"
		"                          clip, relative to its first frame: the clip plays\n"
		"                          in place, and CLIP.motion.xnb beside it holds the\n"
		"                          motion as one sequence named BONE\n"
		"      --up-axis x|y|z     the up axis of --root-motion (default: z for\n"
		"                          RobotGame sources, y for the others)\n"
		"      --additive-reference first-frame|bind|CLIP  store each clip as its\n"
		"                          difference from a reference pose, a layer for\n"
		"                          animrt_pose_add: the clip's own first frame, the rest\n"
		"                          pose of --skeleton, or the first frame of the clip\n"
		"                          CLIP of the same source\n"
		"      --skeleton MODEL    check that every bone each clip animates is a node of\n"
		"                          MODEL (.gltf/.glb read natively, or any model Assimp\n"
		"                          reads: .fbx, .x, ...); a clip with an unknown bone\n"
		"                          fails.  Sources that number their bones take the\n"
		"                          names from it.  Without it, a glTF source with skins\n"
		"                          warns of animated nodes that are no joint\n"
		"      --relative-to-bind  keys of XNA intermediate XML are relative to the bone's\n"
		"                          rest pose: compose each with the rest transform of\n"
		"                          MODEL (key x rest), so the output holds absolute\n"
		"                          local transforms.  Needs --skeleton\n"
		"      --ticks-per-second N  the rate of tick-based key times (Assimp\n"
		"                          sources), instead of what each file declares;\n"
		"                          without it a file that declares none is read at\n"
		"                          its format's default (.X 4800, others 25), with\n"
		"                          a warning\n"
		"      --tolerance T,R,S   lossy: remove keys while the error against the source\n"
		"                          stays within T model units of translation, R degrees\n"
		"                          of rotation and S of scale, measured at every key and\n"
		"                          between keys as the runtime interpolates; 'default'\n"
		"                          is 0.001,0.05,0.0001.  Output keeps explicit key\n"
		"                          times and plays in XNA, FNA and MonoGame\n"
		"      --layout KIND       original (default): the RobotGame layout, reader\n"
		"                          version 0; compact: reader version 1, quantised keys\n"
		"                          on a grid, about a quarter of the size, read by the\n"
		"                          animc loader only (XNA, FNA and MonoGame cannot read\n"
		"                          it); implies --tolerance default\n"
		"      --shell-distance D  with --skeleton, a lossy build bounds the model-space\n"
		"                          error of every point D model units around each bone\n"
		"                          (through the bone hierarchy) by T, instead of each\n"
		"                          track by T, R and S (default 1)\n"
		"      --warnings-as-errors  a source with warnings fails, writing nothing\n"
		"\n"
		"build options:\n"
		"  -o, --output DIR        where compiled files go (created when missing)\n"
		"  -j, --jobs N            compile in N worker processes (default: the number\n"
		"                          of online CPUs); output is the same for every N\n"
		"      --base DIR          mirror the tree from DIR: an input under DIR lands\n"
		"                          under OUTDIR at its path relative to DIR (a list of\n"
		"                          changed files then lands as a folder build would)\n"
		"      --rebuild           compile every source, whatever the manifest says\n"
		"      --prune             remove outputs whose source no longer exists, and\n"
		"                          outputs of clips a source no longer holds (off by\n"
		"                          default: the summary counts them as stale)\n"
		"      --import-timeout S  stop an import that runs longer than S seconds and\n"
		"                          fail that file (default 120; 0: no limit)\n"
		"      --memory-limit SIZE  address space of each worker process (default 4G;\n"
		"                          0: no limit): an import that needs more fails with\n"
		"                          \"ran out of memory\"\n"
		"      --report FILE       write a JSON report (README.md gives its schema)\n"
		"      --junit FILE        write a JUnit XML report, one test case per source\n"
		"      --depfile FILE      write make/ninja dependency lines: each output\n"
		"                          depends on its source and on every file read for it\n"
		"      --shard K/N         compile only the sources of shard K of N: those whose\n"
		"                          path under their input folder hashes to K (README.md,\n"
		"                          \"Scaling out\"); the N shards are disjoint and whole\n"
		"      --cache-url URL     a Bazel HTTP remote cache (nginx with WebDAV,\n"
		"                          bazel-remote, ...), also from ANIMC_CACHE_URL: a source\n"
		"                          found there is fetched, not compiled; one compiled is\n"
		"                          stored.  Credentials come from ANIMC_CACHE_USER and\n"
		"                          ANIMC_CACHE_PASSWORD, ANIMC_CACHE_HEADER or a netrc\n"
		"                          file (ANIMC_CACHE_NETRC, else ~/.netrc), never the URL\n"
		"      --cache-dir DIR     the same cache in a folder (a shared one works too)\n"
		"      --cache-read-only   fetch from the cache, never store into it\n"
		"      --cache-timeout S   give the remote up when a transfer makes no progress\n"
		"                          for S seconds (default 5); it never fails a build\n"
		"      --cache-min-size SIZE  sources animc's own readers read (RobotGame and\n"
		"                          XNA XML, glTF) that are smaller compile without the\n"
		"                          cache: cheaper than a fetch (default 1M;\n"
		"                          0: every source goes through the cache)\n"
		"      --progress WHEN     auto (default: one updating line when stdout is a\n"
		"                          terminal, a line per source otherwise), always,\n"
		"                          never (a line per source)\n"
		"  -q, --quiet             print warnings and errors only\n"
		"  -v, --verbose           also list skipped and up-to-date files, clip details\n"
		"                          and what the passes changed\n"
		"  -h, --help              show this help\n"
		"\n"
		"The default mode applies lossless passes: keys sorted by time, constant tracks\n"
		"stored once (fixed), evenly spaced key times stored as an interval, a wrong\n"
		"KeyFrameSequenceCount corrected (with a warning).  Every output plays in the\n"
		"original runtime: one-key sequences get an interval, clips shorter than\n"
		"1/60 s are lengthened to it (with a warning).\n"
		"glTF STEP keys are held exactly (a key one float before each step);\n"
		"CUBICSPLINE curves are baked into keys within 1e-4 (units, radians).\n"
		"\n"
		"importers (recognised by content first, file name second):\n",
		animc_xnb_platforms());
	for (size_t i = 0; animc_importers[i]; i++)
		fprintf(out, "  %-10s %s\n", animc_importers[i]->name, animc_importers[i]->description);
	fprintf(out,
		"\n"
		"Related commands: 'animc outputs' lists what a build would write, 'animc clean'\n"
		"removes what builds wrote.\n"
		"Diagnostics go to stderr as 'path:line:column: error: message'.\n"
		"exit status: 0 every source compiled (or was skipped), 1 some source failed,\n"
		"2 usage error.\n");
}

void build_outputs_help(FILE *out)
{
	fprintf(out,
		"usage: animc outputs [options] -o OUTDIR INPUT...\n"
		"\n"
		"Print the files 'animc build' would write for these inputs and options, one\n"
		"path a line, in build order, writing nothing.  A source holding named clips\n"
		"is imported to learn its clip names, unless the manifest in OUTDIR shows it\n"
		"up to date.  Takes the output options of 'animc build' and -o, -j, --base,\n"
		"--rebuild, --import-timeout, --memory-limit, -q, -v.\n"
		"exit status: 0 every source could be planned, 1 some source failed, 2 usage\n"
		"error.\n");
}

void build_clean_help(FILE *out)
{
	fprintf(out,
		"usage: animc clean -o OUTDIR\n"
		"\n"
		"Remove everything animc build wrote into OUTDIR, as its manifest records it:\n"
		"the outputs (those changed since animc wrote them are left, with a warning),\n"
		"temporary files of interrupted runs, the folders left empty, and\n"
		"OUTDIR/.animc.  Nothing else is touched.\n"
		"exit status: 0 done, 1 something could not be removed, 2 usage error.\n");
}
