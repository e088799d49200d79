/*
 * options.c - the options of `animc build`, `animc outputs` and
 * `animc clean`: one table, with each option's help, and response files
 * (@FILE).  Each option has a kind: OUTPUT options change what is written
 * (bytes, or which files), so the table feeds them into every source's key
 * (key.c): an option added here as OUTPUT makes builds made without it out
 * of date, with no other change.  help.c prints the help and the manual
 * from the same rows.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <float.h>
#include <getopt.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "options.h"
#include "help.h"
#include "key.h"
#include "mgcb.h"

/* The commands an option belongs to. */
#define FOR_BUILD (1u << CMD_BUILD)
#define FOR_OUTPUTS (1u << CMD_OUTPUTS)
#define FOR_CLEAN (1u << CMD_CLEAN)
#define FOR_ALL (FOR_BUILD | FOR_OUTPUTS | FOR_CLEAN)
#define FOR_COMPILE (FOR_BUILD | FOR_OUTPUTS)

typedef struct option_def {
	build_option_doc doc;  /* name, value, commands, kind and help: help.h */
	/* Store the value: 0, or an error message in err (a usage error). */
	bool (*set)(build_options *o, const char *arg, cli_error *err);
} option_def;


static bool parse_double(const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	return end != s && !*end && errno == 0 && isfinite(*out);
}

static bool set_output(build_options *o, const char *arg, cli_error *err)
{
	if (!cli_path_argument("--output", arg, "a folder", err))
		return false;
	o->out_dir = arg;
	return true;
}

static bool set_exact(build_options *o, const char *arg, cli_error *err)
{
	(void)arg, (void)err;
	o->process.exact = true;
	return true;
}

/* A letter, or the MonoGame TargetPlatform name it stands for (as a
 * --mgcb project's /platform: gives it): DesktopGL is d. */
static bool set_platform(build_options *o, const char *arg, cli_error *err)
{
	char letter = strlen(arg) == 1 && strchr(animc_xnb_platforms(), arg[0]) ? arg[0]
										 : build_mgcb_platform_letter(arg);

	if (!letter)
		return cli_error_set(err, "--platform '%s' is neither a platform letter nor a MonoGame platform "
				     "name ('animc help build' lists them: w Windows, d DesktopGL, ...)", arg);
	o->xnb.platform = letter;
	return true;
}

bool build_parse_scale(const char *arg, double *scale, cli_error *err)
{
	double v;

	if (!parse_double(arg, &v) || !(v > 0))
		return cli_error_set(err, "--scale '%s' is not a positive number", arg);
	if (!(v >= FLT_MIN && v <= FLT_MAX))
		return cli_error_set(err, "--scale '%s' is past what a float holds (%g to %g)", arg,
				     (double)FLT_MIN, (double)FLT_MAX);
	*scale = v;
	return true;
}

bool build_parse_rotate(const char *arg, double degrees[3], cli_error *err)
{
	const char *p = arg;
	double v[3];

	for (int i = 0; i < 3; i++) {
		char *end;

		errno = 0;
		v[i] = strtod(p, &end);
		if (end == p || errno || !isfinite(v[i]) || *end != (i < 2 ? ',' : '\0'))
			return cli_error_set(err, "--rotate '%s' is not three angles X,Y,Z in degrees", arg);
		p = end + 1;
	}
	memcpy(degrees, v, sizeof v);
	return true;
}

static bool set_scale(build_options *o, const char *arg, cli_error *err)
{
	return build_parse_scale(arg, &o->units.scale, err);
}

static bool set_rotate(build_options *o, const char *arg, cli_error *err)
{
	return build_parse_rotate(arg, o->units.rotation_deg, err);
}

static bool set_reader(build_options *o, const char *arg, cli_error *err)
{
	size_t bad;

	if (!arg[0])
		return cli_error_set(err, "--reader-name is empty");
	if (!animc_utf8_check(arg, strlen(arg), &bad))
		return cli_error_set(err, "--reader-name is not UTF-8 (byte %zu)", bad);
	o->xnb.reader_name = arg;
	return true;
}

static bool set_compress(build_options *o, const char *arg, cli_error *err)
{
	if (strcmp(arg, "zstd") == 0)
		o->xnb.compression = ANIMC_COMPRESSION_ZSTD;
	else if (strcmp(arg, "none") == 0)
		o->xnb.compression = ANIMC_COMPRESSION_NONE;
	else
		return cli_error_set(err, "--compress '%s': use zstd or none", arg);
	return true;
}

static bool set_level(build_options *o, const char *arg, cli_error *err)
{
	char *end;
	long level = strtol(arg, &end, 10);

	if (*end || end == arg || level < 1 || level > 22)
		return cli_error_set(err, "--zstd-level '%s' is not between 1 and 22", arg);
	o->xnb.zstd_level = (int)level;
	return true;
}

/* --allow KIND[,KIND...]: each a kind of animc_warning_kinds. */
static bool set_allow(build_options *o, const char *arg, cli_error *err)
{
	const char *names[ANIMC_WARN_KIND_COUNT];
	size_t count = 0;

	for (int k = ANIMC_WARN_NONE + 1; k < ANIMC_WARN_KIND_COUNT; k++)
		names[count++] = animc_warning_kind_at((animc_warning_kind)k)->name;
	names[count] = NULL;
	for (const char *p = arg;; p++) {
		size_t len = strcspn(p, ",");
		/* "a, b" as "a,b": spaces around a kind are no part of it. */
		size_t lead = strspn(p, " \t"), end = len;

		while (end > lead && (p[end - 1] == ' ' || p[end - 1] == '\t'))
			end--;
		char *word = strndup(p + lead, end - lead);
		animc_warning_kind kind = word ? animc_warning_kind_find(word) : ANIMC_WARN_NONE;

		if (kind == ANIMC_WARN_NONE) {
			const char *near = word && word[0] ? cli_nearest(word, names) : NULL;
			bool ok;

			if (!word || !word[0])
				ok = cli_error_set(err, "--allow '%s' has an empty kind: give kinds of warning separated "
						   "by commas ('man animc' and docs/warnings.md list them)", arg);
			else if (near)
				ok = cli_error_set(err, "--allow: '%s' is no kind of warning (did you mean '%s'?); "
						   "'man animc' and docs/warnings.md list them", word, near);
			else
				ok = cli_error_set(err, "--allow: '%s' is no kind of warning; a warning ends with its "
						   "kind in brackets, and 'man animc' and docs/warnings.md list them", word);
			free(word);
			return ok;
		}
		free(word);
		o->allowed[kind] = true;
		p += len;
		if (!*p)
			return true;
	}
}

bool build_options_allows(const build_options *o, const char *kind)
{
	animc_warning_kind k = animc_warning_kind_find(kind);

	return k != ANIMC_WARN_NONE && o->allowed[k];
}

bool build_options_leaves_out(const build_options *o, const char *clip, bool is_motion)
{
	if (!o->clip_names.count || !clip[0])
		return false;
	for (size_t n = 0; n < o->clip_names.count; n++) {
		const char *name = o->clip_names.items[n];
		size_t len = strlen(name);

		if (strncmp(clip, name, len) == 0 && (is_motion ? strcmp(clip + len, ".motion") == 0 : !clip[len]))
			return false;
	}
	return true;
}

static bool set_werror(build_options *o, const char *arg, cli_error *err)
{
	(void)arg, (void)err;
	o->warnings_as_errors = true;
	return true;
}

static bool set_clip(build_options *o, const char *arg, cli_error *err)
{
	if (!cli_strings_push(&o->clip_names, arg))
		return cli_error_set(err, "out of memory");
	return true;
}

static bool set_skeleton(build_options *o, const char *arg, cli_error *err)
{
	if (!cli_path_argument("--skeleton", arg, "a model", err))
		return false;
	o->skeleton_path = arg;
	return true;
}

static bool set_relative(build_options *o, const char *arg, cli_error *err)
{
	(void)arg, (void)err;
	o->import.relative_to_bind = true;
	return true;
}

static bool set_ticks(build_options *o, const char *arg, cli_error *err)
{
	double rate;

	if (!parse_double(arg, &rate) || !(rate > 0))
		return cli_error_set(err, "--ticks-per-second '%s' is not a number above 0", arg);
	o->import.ticks_per_second = rate;
	return true;
}

static bool set_timeout(build_options *o, const char *arg, cli_error *err)
{
	double seconds;

	if (!parse_double(arg, &seconds) || seconds < 0)
		return cli_error_set(err, "--import-timeout '%s' is not a number of seconds (0 for no limit)", arg);
	o->import_timeout_s = seconds;
	return true;
}

static bool set_tolerance(build_options *o, const char *arg, cli_error *err)
{
	if (!cli_parse_tolerance(arg, &o->process.reduce.tolerance))
		return cli_error_set(err, "--tolerance '%s': give " CLI_TOLERANCE_FORMS, arg);
	o->has_tolerance = true;
	return true;
}

static bool set_layout(build_options *o, const char *arg, cli_error *err)
{
	if (strcmp(arg, "compact") == 0)
		o->process.layout = ANIMC_LAYOUT_COMPACT;
	else if (strcmp(arg, "original") == 0)
		o->process.layout = ANIMC_LAYOUT_ORIGINAL;
	else
		return cli_error_set(err, "--layout '%s': use original or compact", arg);
	return true;
}

static bool set_shell(build_options *o, const char *arg, cli_error *err)
{
	double d;

	if (!parse_double(arg, &d) || !(d > 0) || d > 1e30)
		return cli_error_set(err, "--shell-distance '%s': give a distance > 0 in model units", arg);
	/* Stored as a float, where 1e-50 is 0: "not given", the default. */
	if (d < FLT_MIN)
		return cli_error_set(err, "--shell-distance '%s' is past what a float holds (%g to %g)", arg,
				     (double)FLT_MIN, 1e30);
	o->process.reduce.shell_distance = (float)d;
	return true;
}

static bool set_memory(build_options *o, const char *arg, cli_error *err)
{
	if (!cli_parse_size(arg, &o->memory_limit_bytes))
		return cli_error_set(err, "--memory-limit '%s' is not a size (such as 4G or 512M; 0 for no limit)", arg);
	if (o->memory_limit_bytes && o->memory_limit_bytes < (64ull << 20))
		return cli_error_set(err, "--memory-limit '%s' is below 64M, too little to start an import", arg);
	return true;
}

static bool set_jobs(build_options *o, const char *arg, cli_error *err)
{
	char *end;
	long n = strtol(arg, &end, 10);

	if (*end || end == arg || n < 1 || n > 1024)
		return cli_error_set(err, "--jobs '%s' is not a number from 1 to 1024", arg);
	o->jobs = (unsigned)n;
	return true;
}

static bool set_progress(build_options *o, const char *arg, cli_error *err)
{
	if (strcmp(arg, "auto") == 0)
		o->progress = PROGRESS_AUTO;
	else if (strcmp(arg, "always") == 0)
		o->progress = PROGRESS_ALWAYS;
	else if (strcmp(arg, "never") == 0)
		o->progress = PROGRESS_NEVER;
	else
		return cli_error_set(err, "--progress '%s': use auto, always or never", arg);
	return true;
}

/* A file a run writes at its end: an empty name is a usage error now,
 * not a file that cannot be written after the build. */
static bool set_file(const char **field, const char *option, const char *arg, cli_error *err)
{
	if (!cli_path_argument(option, arg, "a file to write", err))
		return false;
	*field = arg;
	return true;
}

static bool set_report(build_options *o, const char *arg, cli_error *err)
{
	return set_file(&o->report_path, "--report", arg, err);
}

static bool set_junit(build_options *o, const char *arg, cli_error *err)
{
	return set_file(&o->junit_path, "--junit", arg, err);
}

static bool set_depfile(build_options *o, const char *arg, cli_error *err)
{
	return set_file(&o->depfile_path, "--depfile", arg, err);
}

static bool set_mgcb(build_options *o, const char *arg, cli_error *err)
{
	if (!cli_path_argument("--mgcb", arg, "a MonoGame project (.mgcb)", err))
		return false;
	o->mgcb_path = arg;
	return true;
}

static bool set_mgcb_define(build_options *o, const char *arg, cli_error *err)
{
	/* MGCB trims the name, the part before '='. */
	if (strspn(arg, " \t") >= strcspn(arg, "="))
		return cli_error_set(err, "--mgcb-define '%s' names no property (NAME=VALUE)", arg);
	if (!cli_strings_push(&o->mgcb_defines, arg))
		return cli_error_set(err, "out of memory");
	return true;
}

static bool set_base(build_options *o, const char *arg, cli_error *err)
{
	if (!cli_path_argument("--base", arg, "a folder", err))
		return false;
	o->base_dir = arg;
	return true;
}

static bool set_cache_url(build_options *o, const char *arg, cli_error *err)
{
	/* Checked now, a usage error: http(s)://, and no credentials. */
	if (!cli_cache_url_check(arg, err))
		return false;
	o->cache_url = arg;
	return true;
}

static bool set_cache_dir(build_options *o, const char *arg, cli_error *err)
{
	if (!cli_path_argument("--cache-dir", arg, "a folder", err))
		return false;
	o->cache_dir = arg;
	return true;
}

static bool set_cache_read_only(build_options *o, const char *arg, cli_error *err)
{
	(void)arg, (void)err;
	o->cache_read_only = true;
	o->cache_option = o->cache_option ? o->cache_option : "--cache-read-only";
	return true;
}

static bool set_cache_wait(build_options *o, const char *arg, cli_error *err)
{
	(void)arg, (void)err;
	o->cache_wait = true;
	o->cache_option = o->cache_option ? o->cache_option : "--cache-wait";
	return true;
}

static bool set_cache_timeout(build_options *o, const char *arg, cli_error *err)
{
	if (!parse_double(arg, &o->cache_timeout_s) || o->cache_timeout_s <= 0 || o->cache_timeout_s > 3600)
		return cli_error_set(err, "--cache-timeout '%s' is not a number of seconds above 0 and at most 3600",
				     arg);
	o->cache_option = o->cache_option ? o->cache_option : "--cache-timeout";
	return true;
}

static bool set_cache_min_size(build_options *o, const char *arg, cli_error *err)
{
	if (!cli_parse_size(arg, &o->cache_min_size))
		return cli_error_set(err, "--cache-min-size '%s' is not a size (such as 256K or 1M; 0: every source)", arg);
	o->cache_option = o->cache_option ? o->cache_option : "--cache-min-size";
	return true;
}

static bool set_shard(build_options *o, const char *arg, cli_error *err)
{
	if (!cli_shard_parse(arg, &o->shard))
		return cli_error_set(err, "--shard '%s' is not K/N with 1 <= K <= N <= %u", arg, CLI_SHARD_MAX);
	return true;
}

static bool set_rebuild(build_options *o, const char *arg, cli_error *err)
{
	(void)arg, (void)err;
	o->rebuild = true;
	return true;
}

static bool set_prune(build_options *o, const char *arg, cli_error *err)
{
	(void)arg, (void)err;
	o->prune = true;
	return true;
}

static bool set_quiet(build_options *o, const char *arg, cli_error *err)
{
	(void)arg, (void)err;
	o->quiet = true;
	return true;
}

static bool set_verbose(build_options *o, const char *arg, cli_error *err)
{
	(void)arg, (void)err;
	o->verbose = true;
	return true;
}

static bool set_split(build_options *o, const char *arg, cli_error *err)
{
	return build_author_split(&o->author, arg, err);
}

static bool set_clips(build_options *o, const char *arg, cli_error *err)
{
	if (!cli_path_argument("--clips", arg, "an AnimationDefinition document", err))
		return false;
	o->author.clips_path = arg;
	return true;
}

static bool set_root_motion(build_options *o, const char *arg, cli_error *err)
{
	return build_author_root_motion(&o->author, arg, err);
}

static bool set_up_axis(build_options *o, const char *arg, cli_error *err)
{
	return build_author_up_axis(&o->author, arg, err);
}

static bool set_additive(build_options *o, const char *arg, cli_error *err)
{
	return build_author_additive(&o->author, arg, err);
}

/* Every option, once, in the order help lists them: the options that change
 * what is written (BUILD_OPTION_OUTPUT, BUILD_OPTION_MODEL) first, then
 * those of the run.  The help, the manual (docs/cli.md, docs/animc.1) and
 * the bash completion are made from these rows (help.c); `make docs`
 * rewrites the generated files.  A new option that changes output bytes is
 * BUILD_OPTION_OUTPUT. */
static const option_def option_table[] = {
	{ { "exact", 0, NULL, FOR_COMPILE, BUILD_OPTION_OUTPUT,
	    "RobotGame sources: reproduce the original XNA pipeline's bytes: validate only, no "
	    "normalisation; what the original would have written as a corrupt file is an error, what "
	    "its runtime cannot play a warning.  Other sources: every key kept at its time (no track "
	    "made fixed, no keys made uniform; a track the source gives one value is fixed)",
	    "For RobotGame sources (AnimationSequence, either XML dialect): an input the original would"
	    " have written as a corrupt file (a KeyFrameSequenceCount that disagrees, times out of "
	    "order) is an error, and one the original runtime cannot play is written with a warning "
	    "naming the bone.  Other sources, which the original pipeline never compiled, keep every "
	    "key at its own time: no track is made fixed, no bone's keys are collapsed to one and no "
	    "key times made uniform; a track the source gives one value (one key, or none: the node's "
	    "own) is written fixed, and a bone of one key gets its KeyInterval, as in every output.  "
	    "They are otherwise compiled as in the default mode.  It contradicts --layout compact and "
	    "--tolerance; a RobotGame source given with --scale, --rotate, --root-motion, "
	    "--additive-reference, --split or --clips, or cut by its sidecar (STEM_Anims.xml), fails, "
	    "as those change its bytes.",
	    NULL },
	  set_exact },
	{ { "platform", 0, "L", FOR_COMPILE, BUILD_OPTION_OUTPUT,
	    "XNB platform letter, or its MonoGame name (default w)",
	    "The letters are MonoGame's TargetPlatform identifiers, for these platform names (as a "
	    "--mgcb project's /platform: names them, and as --platform takes them too, in any case: "
	    "--platform DesktopGL is d): w Windows, x Xbox360, m WindowsPhone, i iOS, "
	    "a Android, d DesktopGL, X MacOSX, W WindowsStoreApp, n NativeClient, p PlayStationMobile, "
	    "M WindowsPhone8, r RaspberryPi, P PlayStation4, g WindowsGL, l Linux, 5 PlayStation5, "
	    "O XboxOne, S Switch, b Web (or BlazorGL), V DesktopVK, G WindowsGDK, s XboxSeries, "
	    "v PSVita.  With --mgcb it wins over the project's /platform:, and $(Platform) in the "
	    "project's /outputDir: is its name (the project's spelling when /platform: names the same "
	    "letter).",
	    build_option_values_platforms },
	  set_platform },
	{ { "scale", 0, "F", FOR_COMPILE, BUILD_OPTION_OUTPUT,
	    "multiply every translation by F, as MonoGame's ModelProcessor Scale",
	    "F is a number above 0; Mixamo files, for example, need 0.01.  A --skeleton model is "
	    "scaled alike.",
	    NULL },
	  set_scale },
	{ { "rotate", 0, "X,Y,Z", FOR_COMPILE, BUILD_OPTION_OUTPUT,
	    "turn the model by these angles in degrees, as MonoGame's ModelProcessor RotationX, "
	    "RotationY and RotationZ: about Z first, then X, then Y, then --scale",
	    "As MonoGame's ModelProcessor does (MeshHelper.TransformScene), every bone's transform and "
	    "every key K becomes inverse(T) * K * T, T the rotation then --scale: each bone's "
	    "translation turns, its rotation turns with the model, and a non-uniform scale trades axes "
	    "(by quarter turns; under another turn a mirror stays exact, and any other non-uniform "
	    "scale keeps its part along the bone's axes, with a sheared-scale warning).  A clip so fits "
	    "a model processed with the same parameters.  No node tree is needed; a --skeleton model "
	    "is converted alike.  Mixamo files, for example, need 90,0,0.",
	    NULL },
	  set_rotate },
	{ { "reader-name", 0, "NAME", FOR_COMPILE, BUILD_OPTION_OUTPUT,
	    "type reader name written into the file (default: the original RobotGame AnimationReader); "
	    "animc dump reads a name not ending in AnimationReader only when given it with "
	    "--reader-name",
	    "The default is RobotGameData.GameObject.AnimationReader, RobotGameData, Version=1.0.0.0, "
	    "Culture=neutral.  The name must be UTF-8 and not empty.",
	    NULL },
	  set_reader },
	{ { "compress", 0, "KIND", FOR_COMPILE, BUILD_OPTION_OUTPUT,
	    "zstd: wrap each file in one zstd frame, named .xnb.zst (XNA, FNA and MonoGame cannot read "
	    "these; the animc loader can); none (default)",
	    "zstd -d gives back the exact .xnb.",
	    "zstd none" },
	  set_compress },
	{ { "zstd-level", 0, "N", FOR_COMPILE, BUILD_OPTION_OUTPUT,
	    "with --compress zstd, its level, 1 to 22 (default 19)",
	    NULL,
	    NULL },
	  set_level },
	{ { "clip", 0, "NAME", FOR_COMPILE, BUILD_OPTION_OUTPUT,
	    "compile only the clip NAME of sources holding named clips (repeatable); a source without "
	    "it fails, listing the clips it has; the outputs of its other clips stay as they were "
	    "(recorded, neither stale nor pruned), and those of clips a source compiled no longer "
	    "holds (renamed or removed) are stale, as after a build of the whole source",
	    "A clip is written to the file a build of the whole source writes it to: one whose name "
	    "makes another clip's file name (clip-name-clash) is picked by its own name and written as "
	    "NAME.1.xnb.",
	    NULL },
	  set_clip },
	{ { "split", 0, "[TAKE/]NAME=START:END", FOR_COMPILE, BUILD_OPTION_OUTPUT,
	    "cut the clip NAME out of a take of each source named on the command line (repeatable): "
	    "START to END in seconds, or frames at the source's frame rate with 'f' (Run=40f:85f); "
	    "without TAKE/, the source's only take",
	    "Each part is written as OUTDIR/<stem>/NAME.xnb; the take itself is not, the other takes "
	    "are.  A part starts with the take's pose at START and ends with its pose at END "
	    "(interpolated as the runtime does between keys), its keys shifted to start at 0.  Without "
	    "--split or --clips, a sidecar STEM_Anims.xml beside a source (an XnaContent "
	    "AnimationDefinition, as the XNA skinned-model samples write) splits it the same way; the "
	    "sidecar is part of the source's key, depfile and manifest, and a folder build lists it "
	    "as used by its source rather than compiling it.  The files found in a folder, and a "
	    "project's items, are not cut: given none named, --split is a usage error (exit 2).",
	    NULL },
	  set_split },
	{ { "clips", 0, "FILE", FOR_COMPILE, BUILD_OPTION_OUTPUT,
	    "split each source named on the command line by the AnimationDefinition document FILE "
	    "(instead of its STEM_Anims.xml)",
	    "FILE is read before anything is built: one that cannot be read or is not an "
	    "AnimationDefinition is a usage error (exit 2), its errors at their lines in FILE.  As "
	    "--split, it cuts no file found in a folder, and given none named it is a usage error.",
	    NULL },
	  set_clips },
	{ { "root-motion", 0, "BONE[,yaw]", FOR_COMPILE, BUILD_OPTION_OUTPUT,
	    "take BONE's travel in the ground plane (with ,yaw also its turn about the up axis) out of "
	    "each clip, relative to its first frame: the clip plays in place, and CLIP.motion.xnb "
	    "beside it holds the motion as one sequence named BONE; given once",
	    "The clip keeps BONE at its first-frame ground position (and yaw) at every time; its "
	    "vertical travel and every other bone are unchanged.  The motion file has the clip's "
	    "reader, in the original layout (under --layout compact too, reduced), so "
	    "the original runtime and FNA load it too; libanimrt's animrt_motion_between and "
	    "animrt_player_motion read it.  A clip that does not animate BONE, where another clip of "
	    "the source does or the --skeleton model has BONE (an upper-body layer), plays in place and "
	    "gets a motion of none; a BONE neither knows fails each clip, listing its bones.",
	    NULL },
	  set_root_motion },
	{ { "up-axis", 0, "x|y|z", FOR_COMPILE, BUILD_OPTION_OUTPUT,
	    "the up axis of --root-motion, which it needs (default: the model's, as BONE's parent "
	    "frame holds it; the model's is the one an FBX file declares, else z for RobotGame "
	    "sources and Valve .smd files, and y for the others, a COLLADA file's <up_axis> among "
	    "them: Assimp turns its root node to y)",
	    "An axis of BONE's parent frame in the output, after --rotate and a .mgcb item's "
	    "RotationX/Y/Z.  Without it the model's up axis is turned by the rest rotation of BONE's "
	    "parents (an Armature node turned -90 degrees about x makes y z), then as the rotation "
	    "turns the bone (--rotate 90,0,0 makes a y-up source's z); parents or a rotation that turn "
	    "it onto none of x, y and z fail the source, asking for --up-axis.",
	    NULL },
	  set_up_axis },
	{ { "additive-reference", 0, "first-frame|bind|CLIP", FOR_COMPILE, BUILD_OPTION_OUTPUT,
	    "store each clip as its difference from a reference pose, a layer for animrt_pose_add: the "
	    "clip's own pose at 0, the rest pose of --skeleton, or the pose at 0 of the clip CLIP of "
	    "the same source",
	    "Played through animrt_pose_add onto the reference pose (weight 1) it gives back the "
	    "source clip.  A bone CLIP does not animate is referenced at its rest pose: the source's "
	    "own node (glTF, Assimp), else the --skeleton model's; with neither, at identity, and a "
	    "warning names it (reference-lacks-bone).  The compact layout marks the clip additive; the "
	    "original layout has no room for a mark, so the report and -v say it.",
	    NULL },
	  set_additive },
	{ { "skeleton", 0, "MODEL", FOR_COMPILE, BUILD_OPTION_MODEL,
	    "check that every bone each clip animates is a node of MODEL (.gltf/.glb read natively, or "
	    "any model Assimp reads: .fbx, .x, ...); a clip with an unknown bone fails.  Sources that "
	    "number their bones take the names from it.  Without it, a glTF source with skins notes "
	    "(-v) the animated nodes that are no joint",
	    "The model's bytes are part of each source's key: a changed model compiles everything "
	    "again.",
	    NULL },
	  set_skeleton },
	{ { "relative-to-bind", 0, NULL, FOR_COMPILE, BUILD_OPTION_OUTPUT,
	    "keys of XNA intermediate XML are relative to the bone's rest pose: compose each with the "
	    "rest transform of MODEL (key x rest), so the output holds absolute local transforms.  "
	    "Needs --skeleton",
	    NULL,
	    NULL },
	  set_relative },
	{ { "ticks-per-second", 0, "N", FOR_COMPILE, BUILD_OPTION_OUTPUT,
	    "the rate of tick-based key times (Assimp sources), for every input keyed in ticks, instead "
	    "of what each file declares (sources keyed in seconds, such as COLLADA and glTF 1.0, keep their "
	    "times, with a warning); without it a file that declares none is read at its format's "
	    "default (.X 4800, .md5anim and .md5camera 24, others 25), with a warning",
	    "N is a number above 0.",
	    NULL },
	  set_ticks },
	{ { "tolerance", 0, "T,R,S", FOR_COMPILE, BUILD_OPTION_OUTPUT,
	    "lossy: remove keys while the error against the source stays within T model units of "
	    "translation, R degrees of rotation and S of scale, measured at every key and between keys "
	    "as the runtime interpolates; 'default' is 0.001,0.05,0.0001.  Output stays the original "
	    "layout (keys evenly spaced, or with their times where that is smaller), never bigger than "
	    "without it before --compress, and plays in XNA, FNA and MonoGame",
	    "docs/build.md (\"Lossy outputs\") describes the reduction.",
	    NULL },
	  set_tolerance },
	{ { "layout", 0, "KIND", FOR_COMPILE, BUILD_OPTION_OUTPUT,
	    "original (default): the RobotGame layout, reader version 0; compact: reader version 3, "
	    "quantised keys on a grid, about a fifth of the size or less, read by the animc loader only (XNA,"
	    " FNA and MonoGame cannot read it); implies --tolerance default (and refuses 0,0,0: quantised "
	    "keys are never lossless); a clip no grid holds (a jump "
	    "between keys a float step apart, bones of different durations, a clip that lasts far "
	    "longer than its keys need) is written in the original layout, with a warning",
	    NULL,
	    "original compact" },
	  set_layout },
	{ { "shell-distance", 0, "D", FOR_COMPILE, BUILD_OPTION_OUTPUT,
	    "with --skeleton, a lossy build bounds the model-space error of every point D model units "
	    "around each bone (through the bone hierarchy) by T, instead of each track by T, R and S "
	    "(default 1)",
	    NULL,
	    NULL },
	  set_shell },
	{ { "warnings-as-errors", 0, NULL, FOR_COMPILE, BUILD_OPTION_RUN,
	    "a source with warnings fails, writing nothing",
	    "A --mgcb project with warnings (a misspelt switch or processor parameter) stops the build "
	    "before anything is built.  The run's own warnings (the cache's, a manifest not saved) are "
	    "counted and fail nothing.  It changes no output's bytes: strict and lenient builds into one "
	    "folder (or through one cache) share what they wrote.",
	    NULL },
	  set_werror },
	{ { "allow", 0, "KIND[,KIND...]", FOR_COMPILE, BUILD_OPTION_RUN,
	    "warnings of these kinds (the name in brackets at the end of each warning, such as "
	    "unknown-element) are not printed, not counted and fail no --warnings-as-errors build; "
	    "with -v they are printed as notes.  May be given more than once",
	    "The man page and docs/warnings.md list the kinds.  Allowing changes no output and compiles "
	    "nothing again: an up-to-date source's warnings follow the --allow of each build; under "
	    "--warnings-as-errors, a source that passed because a kind was allowed compiles again once it "
	    "is not, to fail.",
	    NULL },
	  set_allow },
	/* -o, -q and -v mean one thing to each command: a row each. */
	{ { "output", 'o', "DIR", FOR_BUILD, BUILD_OPTION_RUN,
	    "where compiled files go (created when missing)",
	    "A symbolic link there to a folder that is missing (or a link that loops) is an error "
	    "naming the link's target: animc makes no folder at the far end of a link.",
	    NULL },
	  set_output },
	{ { "output", 'o', "DIR", FOR_OUTPUTS, BUILD_OPTION_RUN,
	    "the folder a build would write into (nothing is created)",
	    NULL,
	    NULL },
	  set_output },
	{ { "output", 'o', "DIR", FOR_CLEAN, BUILD_OPTION_RUN,
	    "the folder to clean (never created)",
	    NULL,
	    NULL },
	  set_output },
	{ { "jobs", 'j', "N", FOR_COMPILE, BUILD_OPTION_RUN,
	    "compile in N worker processes (default: the number of CPUs animc may run on, as nproc "
	    "counts them, at most 64); outputs, "
	    "messages and reports are the same for every N",
	    NULL,
	    NULL },
	  set_jobs },
	{ { "mgcb", 0, "PROJECT", FOR_COMPILE, BUILD_OPTION_RUN,
	    "build the animation items of a MonoGame content project (.mgcb): each item whose source "
	    "animc reads lands where MGCB puts it (/outputDir:, or -o; the item's path or its ;DEST; "
	    ".xnb), with the project's /platform: and the processor parameters Scale and "
	    "RotationX/Y/Z; other items (textures, fonts, effects, audio) are skipped (listed with -v)",
	    "Importer and processor names are not needed: animc chooses its importer by content.  "
	    "Paths are relative to the project's folder.  A missing source, a malformed line, an "
	    "unknown platform, a destination outside the output folder or, without -o, an "
	    "/outputDir: outside the project's folder is an error naming the project file and "
	    "line.  A response file it includes (/@:FILE) is read in place, relative to the file "
	    "that includes it, and must lie in the project's folder.  The project file and those it "
	    "includes are dependencies of every item (depfiles list them, and animc watch watches "
	    "them); an edit compiles again the items whose own lines it changes (parameters, "
	    "destination) and leaves the others up to date.  Further INPUTs may be given too.",
	    NULL },
	  set_mgcb },
	{ { "mgcb-define", 0, "NAME=VALUE", FOR_COMPILE, BUILD_OPTION_RUN,
	    "set a property of the --mgcb project's preprocessor, as MGCB's /define: does "
	    "(repeatable): its lines between \"$if NAME=VALUE\" (or \"$if NAME\") and \"$endif\" "
	    "count only while the property holds; \"$set NAME=VALUE\" in the project sets one too",
	    NULL,
	    NULL },
	  set_mgcb_define },
	{ { "base", 0, "DIR", FOR_COMPILE, BUILD_OPTION_RUN,
	    "mirror the tree from DIR: an input under DIR lands under OUTDIR at its path relative to "
	    "DIR, and a file is taken as a folder build takes it (a list of changed files, "
	    "@<(git diff --name-only), then builds as the folder would); an input outside it is an "
	    "error",
	    NULL,
	    NULL },
	  set_base },
	{ { "rebuild", 0, NULL, FOR_COMPILE, BUILD_OPTION_RUN,
	    "compile every source, whatever the manifest says",
	    NULL,
	    NULL },
	  set_rebuild },
	{ { "prune", 0, NULL, FOR_BUILD, BUILD_OPTION_RUN,
	    "remove outputs whose source no longer exists, and outputs of clips a source no longer "
	    "holds (off by default: the summary counts them as stale; animc clean removes them too); "
	    "a source that fails, or that cannot be read, keeps its last good outputs",
	    NULL,
	    NULL },
	  set_prune },
	{ { "import-timeout", 0, "S", FOR_COMPILE, BUILD_OPTION_RUN,
	    "stop compiling a source (its import and animc's passes) that runs longer than S seconds "
	    "and fail that file (default 120; 0: no limit); the message says which of the two ran",
	    NULL,
	    NULL },
	  set_timeout },
	{ { "memory-limit", 0, "SIZE", FOR_COMPILE, BUILD_OPTION_RUN,
	    "address space of each worker process (default 4G; 0: no limit; K, M, G, T suffixes; at "
	    "least 64M): a source whose compile needs more fails with \"ran out of memory\"",
	    NULL,
	    NULL },
	  set_memory },
	{ { "report", 0, "FILE", FOR_BUILD, BUILD_OPTION_RUN,
	    "write a JSON report (docs/build.md gives its schema); - writes it to the standard output, and"
	    " the progress and summary lines go to stderr",
	    NULL,
	    NULL },
	  set_report },
	{ { "junit", 0, "FILE", FOR_BUILD, BUILD_OPTION_RUN,
	    "write a JUnit XML report, one test case per source, failures carrying their diagnostics (- as for"
	    " --report)",
	    NULL,
	    NULL },
	  set_junit },
	{ { "depfile", 0, "FILE", FOR_BUILD, BUILD_OPTION_RUN,
	    "write make/ninja dependency lines: each output depends on its source, the --skeleton model"
	    " and every other file its import read",
	    NULL,
	    NULL },
	  set_depfile },
	{ { "shard", 0, "K/N", FOR_COMPILE, BUILD_OPTION_RUN,
	    "compile only the sources of shard K of N: those whose output path under OUTDIR (folder and"
	    " stem) hashes to K (docs/scaling.md); the N shards are disjoint and together the whole build",
	    NULL,
	    NULL },
	  set_shard },
	{ { "cache-url", 0, "URL", FOR_BUILD, BUILD_OPTION_RUN,
	    "a Bazel HTTP remote cache (nginx with WebDAV, bazel-remote, ...), also from "
	    "ANIMC_CACHE_URL: a source found there is fetched, not compiled; one compiled is stored.  "
	    "Credentials come from ANIMC_CACHE_USER and ANIMC_CACHE_PASSWORD, ANIMC_CACHE_HEADER or a "
	    "netrc file (ANIMC_CACHE_NETRC, else ~/.netrc), never the URL",
	    "A URL that is not http:// or https://, or holds credentials or a query, is a usage error, "
	    "given here or in ANIMC_CACHE_URL.  --cache-read-only, --cache-wait, --cache-timeout and "
	    "--cache-min-size need a cache (--cache-url, ANIMC_CACHE_URL or --cache-dir): without one they "
	    "are a usage error.  docs/scaling.md describes the protocol, the servers and CI set-ups.",
	    NULL },
	  set_cache_url },
	{ { "cache-dir", 0, "DIR", FOR_BUILD, BUILD_OPTION_RUN,
	    "the same cache in a folder, local or shared (NFS)",
	    NULL,
	    NULL },
	  set_cache_dir },
	{ { "cache-read-only", 0, NULL, FOR_BUILD, BUILD_OPTION_RUN,
	    "fetch from the cache, never store into it",
	    NULL,
	    NULL },
	  set_cache_read_only },
	{ { "cache-wait", 0, NULL, FOR_BUILD, BUILD_OPTION_RUN,
	    "wait for every lookup before compiling its source, and for every store before ending "
	    "(a job that fills the cache for others); transfers that stall still end after "
	    "--cache-timeout",
	    "Without it a build does not let the cache slow it down: a lookup that has not answered "
	    "when a worker is free loses to compiling, and stores still under way when the build is "
	    "done get a tenth of the build's time, then are left out with a warning.",
	    NULL },
	  set_cache_wait },
	{ { "cache-timeout", 0, "S", FOR_BUILD, BUILD_OPTION_RUN,
	    "give the remote up when a transfer makes no progress for S seconds (default 5; above 0, at "
	    "most 3600); it never fails a build",
	    NULL,
	    NULL },
	  set_cache_timeout },
	{ { "cache-min-size", 0, "SIZE", FOR_BUILD, BUILD_OPTION_RUN,
	    "sources animc's own readers read (RobotGame and XNA XML, glTF) that are smaller compile "
	    "without the cache (default 1M; 0: every source goes through the cache)",
	    "docs/scaling.md (\"Only sources worth a fetch\") gives the reason for the default.",
	    NULL },
	  set_cache_min_size },
	{ { "progress", 0, "WHEN", FOR_BUILD, BUILD_OPTION_RUN,
	    "auto (default: one updating line when stdout is a terminal that can erase a line, TERM set "
	    "and not dumb; a line per source otherwise), "
	    "always, never (a line per source)",
	    "The updating line shows the sources done and the total, the time left, and a file at work "
	    "for more than a second, with what works on it: its importer, then animc's passes.",
	    "auto always never" },
	  set_progress },
	{ { "quiet", 'q', NULL, FOR_BUILD, BUILD_OPTION_RUN,
	    "print warnings and errors only, and the summary line when a source fails",
	    "That line tells a log how many sources failed.  animc watch still prints its lines.",
	    NULL },
	  set_quiet },
	{ { "quiet", 'q', NULL, FOR_OUTPUTS, BUILD_OPTION_RUN,
	    "print warnings and errors only, besides the list",
	    NULL,
	    NULL },
	  set_quiet },
	{ { "quiet", 'q', NULL, FOR_CLEAN, BUILD_OPTION_RUN,
	    "print warnings and errors only, not the summary line",
	    NULL,
	    NULL },
	  set_quiet },
	{ { "verbose", 'v', NULL, FOR_BUILD, BUILD_OPTION_RUN,
	    "also list skipped and up-to-date files, clip details and what the passes changed",
	    NULL,
	    NULL },
	  set_verbose },
	{ { "verbose", 'v', NULL, FOR_OUTPUTS, BUILD_OPTION_RUN,
	    "also print notes, besides warnings and errors",
	    NULL,
	    NULL },
	  set_verbose },
	{ { "verbose", 'v', NULL, FOR_CLEAN, BUILD_OPTION_RUN,
	    "also list each file removed",
	    NULL,
	    NULL },
	  set_verbose },
};
#define OPTION_COUNT (sizeof option_table / sizeof option_table[0])

const build_option_doc *build_option_doc_at(size_t i)
{
	return i < OPTION_COUNT ? &option_table[i].doc : NULL;
}

/* The command usage errors name: the caller's (watch), else the engine's. */
static const char *command_name(const build_options *o, build_command c)
{
	if (o->command_name)
		return o->command_name;
	return c == CMD_BUILD ? "build" : c == CMD_OUTPUTS ? "outputs" : "clean";
}

/* Arguments with each @FILE replaced by the lines of FILE (one argument a
 * line; a trailing \r dropped; empty lines and lines of blanks left out).  Not recursive: a
 * line starting with @ is an argument. */
static bool expand_response_files(build_options *o, int argc, char **argv, cli_strings *out,
				  build_command command)
{
	for (int i = 0; i < argc; i++) {
		uint8_t *data;
		size_t size;
		cli_error err;

		if (argv[i][0] != '@' || !argv[i][1] || i == 0) {
			if (!cli_strings_push(out, argv[i]))
				return cli_usage_error(command_name(o, command), "out of memory"), false;
			continue;
		}
		if (!cli_read_file_or_pipe(argv[i] + 1, &data, &size, &err)) {
			cli_usage_error(command_name(o, command), "response file '%s': %s", argv[i] + 1, err.message);
			return false;
		}
		bool is_utf32 = size >= 4 && (memcmp(data, "\xFF\xFE\0\0", 4) == 0 || memcmp(data, "\0\0\xFE\xFF", 4) == 0);

		if (is_utf32 || (size >= 2 && (memcmp(data, "\xFF\xFE", 2) == 0 || memcmp(data, "\xFE\xFF", 2) == 0))) {
			free(data);
			cli_usage_error(command_name(o, command),
					"response file '%s' is UTF-%d (it starts with a byte-order mark): save it as UTF-8",
					argv[i] + 1, is_utf32 ? 32 : 16);
			return false;
		}
		/* A file the build reads: no report is written over it. */
		if (!cli_strings_push(&o->response_files, argv[i] + 1)) {
			free(data);
			return cli_usage_error(command_name(o, command), "out of memory"), false;
		}
		/* A UTF-8 byte-order mark, as Notepad may write, is not part of the first line. */
		size_t bom = size >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;

		for (char *line = (char *)data + bom, *end = (char *)data + size; line < end;) {
			char *nl = memchr(line, '\n', (size_t)(end - line));
			size_t len = nl ? (size_t)(nl - line) : (size_t)(end - line);

			size_t blanks = 0;

			if (len && line[len - 1] == '\r')
				len--;
			/* A line of blanks is an empty line an editor indented, not
			 * an input named "   " (no file is). */
			while (blanks < len && (line[blanks] == ' ' || line[blanks] == '\t'))
				blanks++;
			if (blanks < len) {
				char saved = line[len];

				line[len] = '\0';
				if (memchr(line, '\0', len)) {
					free(data);
					cli_usage_error(command_name(o, command),
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

/* The CPUs this process may run on, as nproc counts them: a container or
 * taskset that gives it one CPU of many is a machine of one CPU, where the
 * online CPUs (every CPU of the host) started a worker each. */
static long usable_cpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
	return sysconf(_SC_NPROCESSORS_ONLN);
}

/* What the options are before argv: the defaults the table does not set. */
static void set_defaults(build_options *o)
{
	long cpus = usable_cpus();

	memset(o, 0, sizeof *o);
	o->import_timeout_s = 120;
	o->memory_limit_bytes = 4ull << 30;
	o->cache_min_size = BUILD_CACHE_MIN_SIZE;
	o->cache_url = getenv("ANIMC_CACHE_URL") && getenv("ANIMC_CACHE_URL")[0] ? getenv("ANIMC_CACHE_URL") : NULL;
	o->jobs = cpus < 1 ? 1 : cpus > 64 ? 64 : (unsigned)cpus;
	o->report_stdout_fd = -1;
}

/* Whether `command` accepts the option: its own, and for outputs also
 * build's others, ignored (they change no output's name or place), so
 * that one option list serves both commands (a CMake or make rule). */
static bool accepts(const option_def *d, build_command command)
{
	if (d->doc.commands & (1u << command))
		return true;
	if (command != CMD_OUTPUTS || !(d->doc.commands & FOR_BUILD))
		return false;
	/* Not where outputs has a row of its own for the option (-o, -q, -v). */
	for (size_t i = 0; i < OPTION_COUNT; i++)
		if ((option_table[i].doc.commands & FOR_OUTPUTS) && strcmp(option_table[i].doc.name, d->doc.name) == 0)
			return false;
	return true;
}

bool build_option_doc_accepted(size_t i, build_command command)
{
	return i < OPTION_COUNT && accepts(&option_table[i], command);
}

/* getopt_long's tables for the options `command` accepts: a long option's
 * value is 256 + its row in the table. */
static void getopt_tables(build_command command, struct option longs[OPTION_COUNT + 2], char shorts[64])
{
	size_t n = 0, used = 2;

	memcpy(shorts, ":h", 2);
	for (size_t i = 0; i < OPTION_COUNT; i++) {
		const option_def *d = &option_table[i];

		if (!accepts(d, command))
			continue;
		longs[n].name = d->doc.name;
		longs[n].has_arg = d->doc.arg ? required_argument : no_argument;
		longs[n].flag = NULL;
		longs[n].val = 256 + (int)i;
		n++;
		if (d->doc.short_name) {
			shorts[used++] = (char)d->doc.short_name;
			if (d->doc.arg)
				shorts[used++] = ':';
		}
	}
	shorts[used] = '\0';
	longs[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	longs[n] = (struct option){ NULL, 0, NULL, 0 };
}

/* An error of the --clips document, at its own place in it. */
static void print_clips_error(void *user, const animc_diag *d)
{
	animc_diag said = *d;
	char *message = NULL;

	(void)user;
	if (d->severity != ANIMC_ERROR)
		return;   /* warnings are said with each source it splits */
	if (asprintf(&message, "--clips: %s", d->message) >= 0)
		said.message = message;
	cli_print_diag(NULL, &said);
	free(message);
}

/* The --clips document read once, before anything is built: one that
 * cannot be read or is not an AnimationDefinition stops the run (its
 * errors printed at its own lines), whatever the inputs are. */
static bool clips_doc_is_usable(const char *path)
{
	animc_diag_sink sink = { print_clips_error, NULL, path, 0, 0 };
	animc_split_doc doc = { 0 };
	uint8_t *data;
	size_t size;
	cli_error err;
	animc_status status;

	if (!cli_read_file(path, &data, &size, &err)) {
		animc_diag_report(&sink, ANIMC_ERROR, 0, 0, "%s", err.message);
		return false;
	}
	status = animc_split_doc_parse(path, data, size, &doc, &sink);
	animc_split_doc_release(&doc);
	free(data);
	return status == ANIMC_OK;
}

/* Whether an input may be a file named on the command line (one that is
 * not there fails as a source): --split and --clips cut only those. */
static bool names_a_file(const build_options *o)
{
	for (size_t i = 0; i < o->inputs.count; i++) {
		struct stat st;

		if (stat(o->inputs.items[i], &st) != 0 || !S_ISDIR(st.st_mode))
			return true;
	}
	return false;
}

/* --split and --clips: a document that can split, and a source for them. */
static int check_split_options(const build_options *o, build_command command)
{
	const char *option = o->author.clips_path ? "--clips" : "--split";

	if (command == CMD_CLEAN || (!o->author.clips_path && !o->author.splits.count))
		return 0;
	if (o->author.clips_path && !clips_doc_is_usable(o->author.clips_path))
		return ANIMC_EXIT_USAGE;
	if (!names_a_file(o))
		return cli_usage_error(command_name(o, command), "%s cuts the sources named on the command line, "
				       "and no input is one (%s): name the source to cut", option,
				       o->inputs.count ? "the folders' files are not cut"
						       : "the project's items are not cut");
	return 0;
}

/* A cache URL from ANIMC_CACHE_URL (no --cache-url) is checked as
 * --cache-url's is, a usage error naming the variable (not its value,
 * which may hold a password), where the cache is used: set once in a
 * profile or a CI job, it is easily forgotten.  0, or ANIMC_EXIT_USAGE
 * (said). */
static int check_cache_url_variable(const build_options *o, build_command command)
{
	const char *env = getenv("ANIMC_CACHE_URL");
	cli_error err;

	if (command != CMD_BUILD || !o->cache_url || o->cache_url != env || cli_cache_url_check(env, &err))
		return 0;
	return cli_usage_error(command_name(o, command), "ANIMC_CACHE_URL: %s; fix the variable, or unset it to "
			       "build without the remote cache", err.message);
}

/* `path` tidied into *folder and *name ("./r.txt": ".", "r.txt";
 * "/r.txt": "/", "r.txt"), both in or beside the malloc()ed copy
 * returned (NULL when out of memory). */
static char *split_last_name(const char *path, const char **folder, const char **name)
{
	char *tidy = strdup(path), *slash;

	if (!tidy)
		return NULL;
	cli_path_tidy(tidy);
	slash = strrchr(tidy, '/');
	*name = slash ? slash + 1 : tidy;
	*folder = !slash ? "." : slash == tidy ? "/" : tidy;
	if (slash && slash != tidy)
		*slash = '\0';
	return tidy;
}

/* Whether two report paths reach one file, so that one report would be
 * written over the other: the same name in the same folder (a report is
 * renamed over its name: another link to it is another name), or a file
 * that is not regular (a FIFO, /dev/stdout), written through, the same. */
static bool reach_one_report(const char *a, const char *b)
{
	struct stat sa, sb;
	const char *folder_a, *folder_b, *name_a, *name_b;
	char *tidy_a, *tidy_b;
	bool same;

	if (stat(a, &sa) == 0 && stat(b, &sb) == 0 && !S_ISREG(sa.st_mode) && sa.st_dev == sb.st_dev &&
	    sa.st_ino == sb.st_ino)
		return true;
	tidy_a = split_last_name(a, &folder_a, &name_a);
	tidy_b = split_last_name(b, &folder_b, &name_b);
	same = tidy_a && tidy_b && strcmp(name_a, name_b) == 0;
	if (same && stat(folder_a, &sa) == 0 && stat(folder_b, &sb) == 0)
		same = sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	else if (same)
		same = strcmp(folder_a, folder_b) == 0;
	free(tidy_a), free(tidy_b);
	return same;
}

/* --report, --junit and --depfile: each a file of its own, and at most one
 * the standard output.  0, or ANIMC_EXIT_USAGE (said). */
static int check_reports(const build_options *o, build_command command)
{
	const char *const names[] = { "--report", "--junit", "--depfile" };
	const char *const paths[] = { o->report_path, o->junit_path, o->depfile_path };
	unsigned to_stdout = 0;

	for (int i = 0; i < 3; i++)
		to_stdout += paths[i] && strcmp(paths[i], "-") == 0;
	if (to_stdout && o->command_name)
		return cli_usage_error(command_name(o, command), "a report named '-' (the standard output) is for one "
				       "build; %s writes its reports again after each build: give a file", o->command_name);
	if (to_stdout > 1)
		return cli_usage_error(command_name(o, command), "only one of --report, --junit and --depfile can be "
				       "'-' (the standard output)");
	for (int i = 0; i < 3; i++)
		for (int k = i + 1; k < 3; k++)
			if (paths[i] && paths[k] && strcmp(paths[i], "-") != 0 && strcmp(paths[k], "-") != 0 &&
			    reach_one_report(paths[i], paths[k]))
				return cli_usage_error(command_name(o, command), "%s '%s' and %s '%s' are one file: one "
						       "would be written over the other; give each its own", names[i],
						       paths[i], names[k], paths[k]);
	return 0;
}

build_mgcb_settings build_options_mgcb_settings(const build_options *o)
{
	return (build_mgcb_settings){ (const char *const *)o->mgcb_defines.items, o->mgcb_defines.count,
				      o->xnb.platform, o->allowed };
}

/* The OUTPUT options whose values are numbers, and the values an OUTPUT
 * option may be spelt out with that write what leaving it out writes. */
static const char *const numeric_options[] = { "scale", "rotate", "zstd-level", "ticks-per-second", "tolerance",
					       "shell-distance" };
static const char *const output_defaults[][2] = { { "platform", "w" }, { "compress", "none" },
						  { "layout", "original" }, { "scale", "1" },
						  { "rotate", "0,0,0" }, { "zstd-level", "19" },
						  { "shell-distance", "1" } };

/* A list of numbers ("1.0", "90,0.0,0", "0x1p0") in one spelling ("1",
 * "90,0,0"); NULL when the value is no such list (then it stays). */
static char *numbers_spelt_alike(const char *value)
{
	char *out = malloc(strlen(value) * 2 + 32), *at = out;
	const char *p = value;

	while (out) {
		char *end;
		double v;

		errno = 0;
		v = strtod(p, &end);
		if (end == p || errno || !isfinite(v) || (*end && *end != ',') || (size_t)(at - out) > strlen(value) + 24)
			break;
		at += sprintf(at, "%s%.17g", at == out ? "" : ",", v == 0 ? 0 : v);
		if (!*end)
			return out;
		p = end + 1;
	}
	free(out);
	return NULL;
}

/* The --tolerance the run compiles with, as numbers, in the key: the one
 * --layout compact implies is the one `--tolerance default` gives, and
 * "default" is its numbers.  Left out when lossless. */
static bool key_tolerance(const build_options *o, cli_strings *key)
{
	const animc_tolerance *t = &o->process.reduce.tolerance;
	char value[96];

	if (!animc_tolerance_is_set(t))
		return true;
	snprintf(value, sizeof value, "%.9g,%.9g,%.9g", t->translation, t->rotation_deg, t->scale);
	return cli_strings_push(key, "tolerance") && cli_strings_push(key, value);
}

/* A --split value in one spelling (build_author_split_spelt_alike).  One
 * that is no such value (refused before), or out of memory, stays as
 * typed: still a key, only not shared with other spellings. */
static void key_split(char **value)
{
	char *alike = build_author_split_spelt_alike(*value);

	if (alike) {
		free(*value);
		*value = alike;
	}
}

/* A file an option names, in the key by its bytes' hash rather than by
 * its path as typed (which another folder, or ./, spells otherwise).  One
 * that cannot be read (refused before this) stays as it is. */
static bool key_file_bytes(char **value)
{
	uint8_t *data;
	size_t size;
	build_hash hash;
	cli_error err;
	char hex[33];

	if (!cli_read_file(*value, &data, &size, &err))
		return true;
	build_hash_bytes(data, size, &hash);
	free(data);
	build_hash_hex(&hash, hex);
	free(*value);
	return (*value = strdup(hex)) != NULL;
}

/*
 * The options the key covers, as what they write rather than as typed:
 * numbers in one spelling, a default spelt out left out, only the last of
 * an option given twice (which is the one that counts) unless it is
 * repeatable (--clip, --split).  So `--scale 1.0` after `--scale 1`,
 * `--platform w` or `--scale 3 --scale 1` compile nothing again, and share
 * the cache's entries.  The tolerance is the one the run compiles with
 * (key_tolerance), and a --clips document enters by its bytes' hash
 * (key_file_bytes), not by its path as typed.  False when out of memory.
 */
static bool key_options_settle(build_options *o)
{
	cli_strings *key = &o->key_options;
	size_t n = key->count / 2, kept = 0;

	for (size_t i = 0; i < n; i++) {
		char **name = &key->items[2 * i], **value = &key->items[2 * i + 1];
		bool is_repeatable = strcmp(*name, "clip") == 0 || strcmp(*name, "split") == 0;
		bool is_dropped = strcmp(*name, "tolerance") == 0;

		for (size_t k = 0; k < sizeof numeric_options / sizeof numeric_options[0]; k++) {
			char *alike = strcmp(*name, numeric_options[k]) == 0 ? numbers_spelt_alike(*value) : NULL;

			if (alike)
				free(*value), *value = alike;
		}
		for (size_t k = 0; k < sizeof output_defaults / sizeof output_defaults[0]; k++)
			is_dropped |= strcmp(*name, output_defaults[k][0]) == 0 && strcmp(*value, output_defaults[k][1]) == 0;
		is_dropped |= strcmp(*name, "reader-name") == 0 && strcmp(*value, animc_xnb_reader_name_default()) == 0;
		if (strcmp(*name, "clips") == 0 && !is_dropped && !key_file_bytes(value))
			return false;
		if (strcmp(*name, "split") == 0)
			key_split(value);
		for (size_t later = i + 1; !is_repeatable && later < n; later++)
			is_dropped |= strcmp(*name, key->items[2 * later]) == 0;
		if (is_dropped) {
			free(*name), free(*value);
			*name = *value = NULL;
		}
	}
	/* The key takes them by name (build_key_options); --clips and
	 * --split only the keys of the sources they cut. */
	for (size_t i = 0; i < n; i++) {
		if (!key->items[2 * i])
			continue;
		if (strcmp(key->items[2 * i], "clips") == 0 || strcmp(key->items[2 * i], "split") == 0) {
			if (!cli_strings_push(&o->cut_key_options, key->items[2 * i]) ||
			    !cli_strings_push(&o->cut_key_options, key->items[2 * i + 1]))
				return false;
			free(key->items[2 * i]), free(key->items[2 * i + 1]);
			continue;
		}
		key->items[2 * kept] = key->items[2 * i];
		key->items[2 * kept + 1] = key->items[2 * i + 1];
		kept++;
	}
	key->count = 2 * kept;
	return key_tolerance(o, key);
}

/* What a lossy build implies: the compact layout's default tolerance, the
 * importers' bake bounds, and how closely root motion is extracted. */
static void lossy_defaults(build_options *o)
{
	/* The compact layout is lossy: the default tolerance unless one is
	 * given.  Importers that bake curves bake within a part of it. */
	if (o->process.layout == ANIMC_LAYOUT_COMPACT &&
	    !animc_tolerance_is_set(&o->process.reduce.tolerance))
		cli_parse_tolerance("default", &o->process.reduce.tolerance);
	if (animc_tolerance_is_set(&o->process.reduce.tolerance)) {
		o->import.tolerance = &o->process.reduce.tolerance;
		/* --tolerance extracts root motion as closely as a lossless
		 * build: each reduced file is measured against what the
		 * extraction gives, and so stays within the bound of the
		 * lossless file (a looser extraction added its own error:
		 * 0.0534 degrees against 0.05 across a fast turn).  The compact
		 * layout extracts within a third of its rotation bound (as
		 * quaternion components): the keys a close extraction adds
		 * between frames lie off every grid, and on the 120 Hz corpus
		 * take made the file 1.5 times bigger and the build 4 times
		 * slower. */
		if (o->process.layout == ANIMC_LAYOUT_COMPACT)
			o->author.recompose_error =
				(float)sin(o->process.reduce.tolerance.rotation_deg * M_PI / 360.0) / 3;
	}
}

/* What the options say together: the inputs a command needs, options that
 * contradict each other or need another, and what follows from them.
 * 0, or ANIMC_EXIT_USAGE (said). */
static int check_together(build_options *o, build_command command)
{
	cli_error err;

	if (o->mgcb_path) {
		build_mgcb_settings settings = build_options_mgcb_settings(o);

		if (!build_mgcb_read(o->mgcb_path, &settings, &o->project)) {
			/* `animc build` stops in the engine, which writes the
			 * reports (no stale one stays). */
			if (command != CMD_BUILD || o->command_name)
				return ANIMC_EXIT_FAILED;
			o->is_project_broken = true;
			return 0;
		}
		o->has_project = true;
		/* A misspelt switch or parameter changes what would be built.
		 * `animc build` stops in the engine, which writes the reports. */
		if (o->warnings_as_errors && o->project.warnings && command != CMD_CLEAN &&
		    (command != CMD_BUILD || o->command_name)) {
			cli_report(ANIMC_ERROR, o->mgcb_path, "%u warning%s treated as errors; nothing built",
				   o->project.warnings, o->project.warnings == 1 ? "" : "s");
			return ANIMC_EXIT_FAILED;
		}
		if (!o->out_dir && !build_mgcb_output_dir_validate(&o->project, stderr)) {
			/* No output folder: `animc build` writes its reports
			 * alone, with the error (no stale one stays). */
			if (command != CMD_BUILD || o->command_name)
				return ANIMC_EXIT_FAILED;
			o->is_project_broken = true;
			return 0;
		}
		if (!o->out_dir)
			o->out_dir = o->project.output_dir;
		if (!o->xnb.platform && o->project.platform) {
			char letter[2] = { o->project.platform, '\0' };

			o->xnb.platform = o->project.platform;
			if (!cli_strings_push(&o->key_options, "platform") ||
			    !cli_strings_push(&o->key_options, letter))
				return cli_usage_error(command_name(o, command), "out of memory");
		}
	}
	if (check_reports(o, command))
		return ANIMC_EXIT_USAGE;
	if (o->mgcb_defines.count && !o->mgcb_path)
		return cli_usage_error(command_name(o, command), "--mgcb-define needs --mgcb PROJECT");
	if (!o->out_dir)
		return cli_usage_error(command_name(o, command), o->mgcb_path ?
				       "no output folder: give -o OUTDIR (the project sets no /outputDir:)" :
				       "no output folder: give -o OUTDIR");
	if (command != CMD_CLEAN && !o->inputs.count && !o->has_project)
		return cli_usage_error(command_name(o, command), "no inputs: give files or folders to compile");
	if (command == CMD_CLEAN && o->inputs.count)
		return cli_usage_error("clean", "'%s': clean takes no inputs, only -o OUTDIR",
				       o->inputs.items[0]);
	if (command == CMD_CLEAN) {
		struct stat st;

		/* A file is not a folder a build wrote; a missing folder has nothing to clean. */
		if (stat(o->out_dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
			cli_report(ANIMC_ERROR, o->out_dir, "not a folder; clean takes the folder a build wrote into");
			return ANIMC_EXIT_FAILED;
		}
	}
	if (o->quiet && o->verbose)
		return cli_usage_error(command_name(o, command), "--quiet and --verbose contradict each other");
	if (check_cache_url_variable(o, command))
		return ANIMC_EXIT_USAGE;
	if (o->import.relative_to_bind && !o->skeleton_path)
		return cli_usage_error(command_name(o, command), "--relative-to-bind needs --skeleton MODEL: "
				       "the rest transforms come from the model");
	if (o->process.exact && o->process.layout == ANIMC_LAYOUT_COMPACT)
		return cli_usage_error(command_name(o, command), "--exact and --layout compact contradict "
				       "each other: --exact writes the original pipeline's bytes");
	if (o->process.exact && animc_tolerance_is_set(&o->process.reduce.tolerance))
		return cli_usage_error(command_name(o, command), "--exact and --tolerance contradict each "
				       "other: --exact writes the source's keys as they are");
	if (!build_author_check(&o->author, &err))
		return cli_usage_error(command_name(o, command), "%s", err.message);
	if (check_split_options(o, command))
		return ANIMC_EXIT_USAGE;
	if (o->author.has_additive && o->author.additive == ANIMC_ADDITIVE_BIND && !o->skeleton_path)
		return cli_usage_error(command_name(o, command), "--additive-reference bind needs --skeleton "
				       "MODEL: the rest pose comes from the model");
	if (o->process.reduce.shell_distance > 0 && !o->skeleton_path)
		return cli_usage_error(command_name(o, command), "--shell-distance needs --skeleton MODEL: "
				       "the shell is measured through the model's bones");
	if (o->cache_option && !o->cache_url && !o->cache_dir)
		return cli_usage_error(command_name(o, command), "%s needs --cache-url or --cache-dir (or "
				       "ANIMC_CACHE_URL): without a cache it does nothing", o->cache_option);
	if (o->xnb.zstd_level && o->xnb.compression != ANIMC_COMPRESSION_ZSTD)
		return cli_usage_error(command_name(o, command), "--zstd-level needs --compress zstd: without it "
				       "nothing is compressed");
	if (o->skeleton_path && !(o->process.reduce.shell_distance > 0))
		o->process.reduce.shell_distance = CLI_SHELL_DISTANCE;
	/* 0,0,0 asks for every key as it is, which quantised keys never are;
	 * the passes read a zero tolerance as none, so it is refused here
	 * rather than replaced by the default below. */
	if (o->process.layout == ANIMC_LAYOUT_COMPACT && o->has_tolerance &&
	    !animc_tolerance_is_set(&o->process.reduce.tolerance))
		return cli_usage_error(command_name(o, command), "--tolerance 0,0,0 and --layout compact contradict "
				       "each other: the compact layout quantises every key, so it cannot be "
				       "lossless; leave out --layout compact, or give a tolerance above 0");
	lossy_defaults(o);
	return 0;
}

int build_options_parse(build_options *o, build_command command, int argc, char **argv)
{
	return build_options_parse_as(o, command, NULL, argc, argv);
}

int build_options_parse_as(build_options *o, build_command command, const char *name, int argc, char **argv)
{
	struct option longs[OPTION_COUNT + 2];
	char shorts[64];
	cli_strings args = { 0 };
	int c, index;

	set_defaults(o);
	o->command_name = name;
	getopt_tables(command, longs, shorts);
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

	cli_getopt_reset();
	for (int from = 1; (c = getopt_long(argc, argv, shorts, longs, &index)) != -1; from = optind) {
		const option_def *d = NULL;
		cli_error err;

		if (c == 'h')
			return -1;
		if (c == ':' || c == '?')
			return cli_option_error(command_name(o, command), argc, argv, from, c == ':', shorts, longs);
		if (c >= 256 && c < 256 + (int)OPTION_COUNT) {
			d = &option_table[c - 256];
		} else {
			for (size_t i = 0; i < OPTION_COUNT && !d; i++)
				if (option_table[i].doc.short_name == c && accepts(&option_table[i], command))
					d = &option_table[i];
		}
		if (!d)
			return cli_option_error(command_name(o, command), argc, argv, from, false, shorts, longs);
		if (!(d->doc.commands & (1u << command)))
			continue;   /* one of build's, accepted by outputs and ignored */
		if (!d->set(o, d->doc.arg ? optarg : NULL, &err))
			return cli_usage_error(command_name(o, command), "%s", err.message);
		if (d->doc.kind == BUILD_OPTION_OUTPUT &&
		    (!cli_strings_push(&o->key_options, d->doc.name) ||
		     !cli_strings_push(&o->key_options, d->doc.arg ? optarg : "")))
			return cli_usage_error(command_name(o, command), "out of memory");
	}
	/* One spelling per input ("./art/" is "art"): the manifest knows a
	 * source by its path. */
	for (int i = optind; i < argc; i++) {
		/* What an unset variable gives ("$SRC"): not the current folder,
		 * which tidying would make of it. */
		if (!argv[i][0])
			return cli_usage_error(command_name(o, command), "input %d of %d is empty (''): give files or "
					       "folders to compile", i - optind + 1, argc - optind);
		if (!cli_strings_push(&o->inputs, argv[i]))
			return cli_usage_error(command_name(o, command), "out of memory");
		cli_path_tidy(o->inputs.items[o->inputs.count - 1]);
	}
	int status = check_together(o, command);

	if (status == 0 && !key_options_settle(o))
		return cli_usage_error(command_name(o, command), "out of memory");
	return status;
}

void build_options_release(build_options *o)
{
	cli_strings_release(&o->clip_names);
	cli_strings_release(&o->mgcb_defines);
	build_author_release(&o->author);
	cli_strings_release(&o->key_options);
	cli_strings_release(&o->cut_key_options);
	cli_strings_release(&o->response_files);
	build_mgcb_release(&o->project);
	cli_strings_release(&o->inputs);
	cli_strings_release(&o->arg_storage);
}
