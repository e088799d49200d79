/*
 * plot.c - `animc plot`: one bone's track of a compiled file against its
 * source, as an SVG a person can read: per component the source's curve
 * and keys and the compiled curve and keys, then the error over time as a
 * band under the bound.  Both sides are sampled by libanimrt (the source
 * compiled losslessly in memory, cut and authored as the build's options
 * given to plot say), so the picture is what plays.  The SVG is written by
 * hand: no dependency.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <animc/animc.h>
#include <animc/animc_formats.h>
#include <animc/animrt.h>
#include "author.h"
#include "cli.h"
#include "compile.h"
#include "isolate.h"

#define WIDTH 960.0
#define LEFT 78.0
#define RIGHT 24.0
#define PANEL 132.0
#define GAP 34.0
#define TOP 64.0
/* Samples along the time axis: about one per pixel. */
#define STEPS 858

static void help(FILE *out)
{
	fprintf(out,
		"usage: animc plot --bone NAME [options] -o OUT.svg COMPILED SOURCE\n"
		"\n"
		"Draw one bone's track of a compiled file (.xnb or .xnb.zst, either layout)\n"
		"against its source, as an SVG: for each component the source's curve and keys\n"
		"(blue) and the compiled curve and keys (orange), then the error over time as a\n"
		"band with the bound dashed.  SOURCE is what the file was compiled from (any\n"
		"format animc build reads, or a lossless .xnb); both are sampled by the animc\n"
		"loader, so the plot shows what plays.  It opens in any browser.  COMPILED\n"
		"may be a pipe (<(zstd -dc F.xnb.zst)), read to its end; SOURCE is a file.\n"
		"\n"
		"options:\n"
		"  -o, --output FILE       the SVG to write (into a folder that exists; not a\n"
		"                          file plot reads: COMPILED, SOURCE, the model, a\n"
		"                          clip document, by any path to it; an existing file\n"
		"                          only when it is an SVG, its root <svg>); -: the\n"
		"                          standard output, and the line saying the worst\n"
		"                          error goes to stderr\n"
		"      --bone NAME         the bone (its sequence's name; of several sequences\n"
		"                          of that name, the last, which is the one that plays)\n"
		"      --track rotation|translation|scale  the track drawn (default rotation)\n"
		"      --clip NAME         the clip of a source holding several (a part, when\n"
		"                          SOURCE is cut into parts); default: the only one,\n"
		"                          else the one COMPILED is named after as animc\n"
		"                          build names it (Signals/Nod.xnb: Nod)\n"
		"      --split [TAKE/]NAME=START:END  cut SOURCE as animc build --split does\n"
		"                          (repeatable), to plot a part against its piece of\n"
		"                          the take\n"
		"      --clips FILE        cut SOURCE by the parts FILE names, as animc build\n"
		"                          --clips does\n"
		"      --root-motion BONE[,yaw]  take BONE's travel out of SOURCE as animc build\n"
		"                          --root-motion does, for a clip built with it\n"
		"      --up-axis x|y|z     the up axis of --root-motion, as for animc build\n"
		"      --additive-reference first-frame|bind|CLIP  make SOURCE the difference\n"
		"                          from that pose as animc build does, for an additive\n"
		"                          clip (bind needs --skeleton)\n"
		"      --scale F           multiply SOURCE's translations by F, as animc build\n"
		"                          --scale does, for a file built with it\n"
		"      --rotate X,Y,Z      turn SOURCE as animc build --rotate does\n"
		"      --skeleton MODEL    the model animc build was given: names the bones of\n"
		"                          a source that numbers them and gives the rest pose\n"
		"                          of --additive-reference bind (in the units --scale\n"
		"                          and --rotate give, as the build takes it)\n"
		"      --relative-to-bind  compose XNA keys with MODEL's rest pose, as for animc\n"
		"                          build (needs --skeleton)\n"
		"      --tolerance T,R,S   the bound drawn in the error band (default: 'default',\n"
		"                          0.001,0.05,0.0001)\n"
		"      --ticks-per-second N  as for animc build\n"
		"      --import-timeout S  stop an import of SOURCE that runs longer than S\n"
		"                          seconds (default 120; 0: no limit), as animc build\n"
		"                          does\n"
		"      --memory-limit SIZE  address space of that import (default 4G; 0: no\n"
		"                          limit; K, M, G, T suffixes; at least 64M)\n"
		"      --reader-name NAME  also take compiled files whose type reader is NAME\n"
		"                          (as for animc dump); repeatable\n"
		"  -h, --help              show this help\n"
		"\n"
		"Rotations plot x y z w, each compiled quaternion on the source's hemisphere;\n"
		"their error is the angle between the two rotations in degrees.\n"
		"\n"
		"A SOURCE beside its clip-split sidecar (STEM_Anims.xml) is cut by it, as animc\n"
		"build cuts it; --split and --clips take its place.  A compiled SOURCE is one\n"
		"clip as built: --clip, --split, --clips, --root-motion and\n"
		"--additive-reference are refused for it.\n"
		"\n"
		"A file built with --root-motion, --additive-reference, --scale or --rotate\n"
		"holds another motion than its source: give plot the same options, and it\n"
		"compares the source as the build made it (--clip CLIP.motion, or motion for a\n"
		"source of one unnamed clip: the motion file against the motion; so is FILE\n"
		"named CLIP.motion.xnb with --clip CLIP, or STEM.motion.xnb for a source of one\n"
		"unnamed clip).  A compact file marked additive against a source not made\n"
		"additive, or the reverse, is refused; the original layout has no mark, and an\n"
		"in-place clip none.\n"
		"\n"
		"SOURCE is imported in a child process: an importer that loops, crashes or runs\n"
		"out of memory on it fails the plot with a message.\n"
		"\n"
		"exit status: 0 written, 1 a file cannot be read, has no such bone or clip, or\n"
		"samples the track to values that are not finite, 2 usage error.\n");
}

/* ------------------------------------------------------------- loading */

static bool is_compiled(const uint8_t *data, size_t size)
{
	return (size >= 3 && memcmp(data, "XNB", 3) == 0) ||
	       (size >= 4 && memcmp(data, "\x28\xb5\x2f\xfd", 4) == 0);
}

typedef struct plot_args {
	const char *out_path, *bone, *clip;
	build_author_options author;   /* --split, --clips */
	cli_readers readers;           /* --reader-name */
	unsigned track;
	animc_tolerance tolerance;
	double ticks_per_second;
	animc_units units;             /* --scale, --rotate */
	const char *skeleton_path;     /* --skeleton */
	bool relative_to_bind;
	const char *compiled_path, *source_path;
} plot_args;

/* Where the import of a source runs, and its limits (--import-timeout,
 * --memory-limit), as animc build's workers run it. */
typedef struct import_limits {
	double timeout_s;
	uint64_t memory_bytes;
} import_limits;

typedef struct source_job {
	const char *path;
	const uint8_t *data;
	size_t size;
	const animc_importer *importer;
	const char *clip_name;
	const char *compiled_path;            /* FILE: CLIP.motion.xnb names a motion */
	double ticks_per_second;
	const build_author_options *author;   /* how SOURCE is cut into parts */
	const animc_units *units;             /* how it is converted */
	const animc_skeleton *skeleton;       /* --skeleton's model, or NULL */
	bool relative_to_bind;
	uint64_t read_bytes;                  /* what the import read so far (the child's) */
	uint64_t memory_bytes;                /* the child's cap (--memory-limit) */
	cli_diag_printer *printer;
} source_job;

/* In the child: a diagnostic printed as it comes; an importer's own words
 * for running out of memory (std::bad_alloc, say) replaced by animc
 * build's, which name --memory-limit. */
static void print_diag(void *user, const animc_diag *diag)
{
	const source_job *job = user;
	char *said = diag->severity == ANIMC_ERROR ? build_memory_message(diag->message, job->memory_bytes, job->read_bytes) : NULL;
	animc_diag plain = *diag;

	if (said)
		plain.message = said;
	cli_print_diag(job->printer, &plain);
	free(said);
}

/* The index of the clip of `set` named `name` (NULL: the only clip), or
 * set->count. */
static uint32_t find_clip(const animc_clip_set *set, const char *name)
{
	for (uint32_t i = 0; i < set->count; i++)
		if (name ? strcmp(set->clips[i]->name, name) == 0 : set->count == 1)
			return i;
	return set->count;
}

/* With --root-motion, --clip CLIP.motion (or "motion", for a source of one
 * unnamed clip) names the motion taken out of CLIP, as animc build names
 * it: the index of CLIP, or set->count. */
static uint32_t find_motion_of(const source_job *job, const animc_clip_set *set)
{
	const char *name = job->clip_name;
	size_t len = name ? strlen(name) : 0, tail = strlen("motion");
	uint32_t i = set->count;

	if (!job->author->root_bone || len < tail || strcmp(name + len - tail, "motion") != 0)
		return set->count;
	if (len == tail)
		return set->count == 1 && !set->clips[0]->name[0] ? 0 : set->count;
	if (len > tail + 1 && name[len - tail - 1] == '.') {
		char *clip = strndup(name, len - tail - 1);

		i = clip ? find_clip(set, clip) : set->count;
		free(clip);
	}
	return i;
}

/* Whether FILE is named as animc build names the root motion of clip
 * `pick` of `set` (CLIP.motion.xnb, or .xnb.zst; STEM.motion.xnb for a
 * source of one unnamed clip, STEM its file name without the extension). */
static bool is_motion_file_of(const source_job *job, const animc_clip_set *set, uint32_t pick)
{
	const char *name = cli_basename(job->compiled_path), *motion = ".motion.xnb";
	const char *base = cli_basename(job->path);
	char *stem = set->clips[pick]->name[0] ? NULL : strndup(base, cli_stem_length(base));
	char *clip = set->clips[pick]->name[0] ? build_safe_name(set->clips[pick]->name, pick)
					       : stem ? build_safe_name(stem, 0) : NULL;
	size_t n = clip ? strlen(clip) : 0;
	bool is = clip && strncmp(name, clip, n) == 0 && strncmp(name + n, motion, strlen(motion)) == 0 &&
		  (!name[n + strlen(motion)] || strcmp(name + n + strlen(motion), ".zst") == 0);

	free(clip);
	free(stem);
	return is;
}

/* Whether `name` (a file name) is what animc build names the output of a
 * clip named `safe`: SAFE.xnb, or SAFE.motion.xnb for its root motion
 * (with --root-motion); .zst after either. */
static bool names_output_of(const char *name, const char *safe, bool has_motion)
{
	size_t n = strlen(safe);

	if (strncmp(name, safe, n) != 0)
		return false;
	name += n;
	if (has_motion && strncmp(name, ".motion", 7) == 0)
		name += 7;
	return strcmp(name, ".xnb") == 0 || strcmp(name, ".xnb.zst") == 0;
}

/* Without --clip, the clip of `set` whose output FILE is named as (Nod of
 * a source of several, for Signals/Nod.xnb), or set->count when none is,
 * or several are. */
static uint32_t clip_named_by_file(const source_job *job, const animc_clip_set *set)
{
	const char *name = cli_basename(job->compiled_path);
	uint32_t found = set->count;

	for (uint32_t i = 0; i < set->count; i++) {
		char *safe = build_safe_name(set->clips[i]->name, i);
		bool is = safe && names_output_of(name, safe, job->author->root_bone != NULL);

		free(safe);
		if (is && found < set->count)
			return set->count;
		if (is)
			found = i;
	}
	return found;
}

/* The clip of `set` the plot is of (--clip, or the only one, or the one
 * FILE is named after; *is_motion
 * when --clip names its root motion, or FILE is named as the motion of
 * the clip: a motion file compared with its clip in place would plot the
 * difference of two motions); set.count after saying why there is none. */
static uint32_t pick_clip(const source_job *job, const animc_clip_set *set, bool *is_motion)
{
	uint32_t pick = find_clip(set, job->clip_name);

	if (pick == set->count && !job->clip_name)
		pick = clip_named_by_file(job, set);
	*is_motion = false;
	if (pick == set->count && (pick = find_motion_of(job, set)) < set->count) {
		*is_motion = true;
		return pick;
	}
	if (pick < set->count && job->author->root_bone && is_motion_file_of(job, set, pick)) {
		*is_motion = true;
		return pick;
	}
	if (pick == set->count && set->count == 1 && !set->clips[0]->name[0]) {
		/* One clip without a name has no name to list. */
		cli_report(ANIMC_ERROR, job->path, "no clip '%s': this source is one unnamed clip; leave out --clip%s",
			   job->clip_name, job->author->root_bone ? " (or give --clip motion, for its root motion)" : "");
		return pick;
	}
	if (pick == set->count) {
		cli_bytes names = { 0 };

		for (uint32_t i = 0; i < set->count; i++) {
			cli_bytes_put(&names, " '", 2);
			cli_bytes_put(&names, set->clips[i]->name, strlen(set->clips[i]->name));
			cli_bytes_put(&names, "'", 1);
		}
		const char *list = names.data && !names.is_broken ? (const char *)names.data : "";

		if (job->clip_name)
			cli_report(ANIMC_ERROR, job->path, "no clip '%s'; it holds:%s", job->clip_name, list);
		else
			cli_report(ANIMC_ERROR, job->path, "several clips: give --clip NAME; it holds:%s", list);
		free(names.data);
	}
	return pick;
}

/*
 * --root-motion and --additive-reference on clip `pick` of `set`, as animc
 * build applies them to the clips --clip chose (the reference taken from
 * every clip first), so that the source is what the compiled file was
 * made from: an in-place clip, a difference from the reference pose.  On
 * return `set` holds that clip alone; with `is_motion`, *motion (the
 * caller's to destroy) is the motion taken out of it.
 */
static animc_status author_clip(const source_job *job, const animc_skeleton *model, animc_clip_set *set,
				uint32_t pick, bool is_motion, const double *up_turn, animc_clip **motion,
				animc_diag_sink *sink)
{
	const build_author_options *a = job->author;
	animc_clip *reference = NULL, **motions = NULL;
	animc_skeleton rest = { 0 };
	animc_status status = build_author_reference(a, set, &reference, sink);
	build_author_frame frame;

	/* What the source knows of the bone, from every clip, as a build takes it. */
	if (status == ANIMC_OK)
		build_author_frame_of(a, set, job->importer, job->path, job->skeleton, up_turn, &frame, sink);
	for (uint32_t i = set->count; status == ANIMC_OK && i-- > 0;)
		if (i != pick)
			animc_clip_set_remove(set, i);
	/* The rest pose of the bones the reference clip lacks: the source's
	 * own node tree, when its format has one. */
	if (status == ANIMC_OK && build_author_reference_lacks(set, reference) && job->importer->load_skeleton &&
	    (job->importer->load_skeleton(job->path, &rest, NULL) != ANIMC_OK ||
	     animc_skeleton_apply_units(&rest, job->units, NULL) != ANIMC_OK))
		animc_skeleton_release(&rest);
	if (status == ANIMC_OK)
		status = build_author_finish(a, set, model, reference, rest.bone_count ? &rest : NULL, &frame,
					     &motions, sink);
	/* A clip without the --root-motion bone is taken out, said. */
	if (status == ANIMC_OK && set->count != 1)
		status = ANIMC_ERR_ARGUMENT;
	if (status == ANIMC_OK && is_motion) {
		*motion = motions[0];
		motions[0] = NULL;
	}
	build_author_motions_release(motions, set->count);
	animc_clip_destroy(reference);
	animc_skeleton_release(&rest);
	return status;
}

/* In a child process (build_run_isolated): the source imported, its clip
 * chosen and authored as the build's options say, processed losslessly and
 * compiled in memory.  A failure is said as animc build says it: an
 * importer may return a status alone (out of memory, most likely under the
 * cap), which would fail the plot without a word. */
/* A file the import read beside SOURCE (a glTF's buffer): its size
 * counted, for what running out of memory says. */
static void count_read(void *user, const char *path)
{
	source_job *job = user;
	struct stat st;

	if (stat(path, &st) == 0 && st.st_size > 0)
		job->read_bytes += (uint64_t)st.st_size;
}

static bool compile_source(void *user, uint8_t **xnb, size_t *xnb_size)
{
	source_job *job = user;
	animc_diag_sink sink = { print_diag, job, job->path, 0, 0 };
	animc_import_options options = { 0 };
	animc_import_request request = { job->path, job->data, job->size, &options };
	animc_clip_set set = { 0 };
	animc_clip *motion = NULL;
	animc_status status;
	bool picked = false, is_motion, is_turned = false;
	double turn[4];
	animc_skeleton turned = { 0 };

	options.ticks_per_second = job->ticks_per_second;
	options.length_scale = job->units->scale;
	options.skeleton = job->skeleton;
	options.relative_to_bind = job->relative_to_bind;
	options.on_file_read = count_read;
	options.on_file_read_user = job;
	status = job->importer->import(&request, &set, &sink);
	if (status == ANIMC_OK)
		status = build_author_apply(job->author, job->path, true, &set, &sink, NULL);
	if (status == ANIMC_OK) {
		uint32_t pick = pick_clip(job, &set, &is_motion);
		animc_process_options lossless = { 0 };

		/* Every clip converted (a reference clip is one), the one
		 * plotted said of. */
		picked = pick < set.count;
		if (picked && !build_units_convert(job->units, NULL, job->author->root_bone, set.clips[pick]->name, &set,
						   &is_turned, turn, &sink))
			status = ANIMC_ERR_ARGUMENT;
		/* The model in the clips' units, as the build hands it to
		 * the authoring passes (the import took it as it is). */
		if (picked && status == ANIMC_OK && job->skeleton && !animc_units_is_identity(job->units)) {
			turned.bones = malloc((job->skeleton->bone_count ? job->skeleton->bone_count : 1) *
					      sizeof *turned.bones);
			status = turned.bones ? ANIMC_OK : ANIMC_ERR_NOMEM;
			if (turned.bones) {
				memcpy(turned.bones, job->skeleton->bones, job->skeleton->bone_count * sizeof *turned.bones);
				turned.bone_count = job->skeleton->bone_count;
				status = animc_skeleton_apply_units(&turned, job->units, &sink);
			}
		}
		if (picked && status == ANIMC_OK)
			status = author_clip(job, turned.bones ? &turned : job->skeleton, &set, pick, is_motion,
					     is_turned ? turn : NULL, &motion, &sink);
		if (picked && status == ANIMC_OK)
			status = animc_clip_process(motion ? motion : set.clips[0], &lossless, &sink, NULL);
		if (picked && status == ANIMC_OK)
			status = animc_xnb_write(motion ? motion : set.clips[0], NULL, xnb, xnb_size, &sink);
	}
	if (status == ANIMC_ERR_NOT_FOUND && !sink.error_count)
		animc_diag_report(&sink, ANIMC_ERROR, 0, 0, "holds %s", set.holds[0] ? set.holds : "no animation");
	else if (status != ANIMC_OK && !sink.error_count)
		animc_diag_report(&sink, ANIMC_ERROR, 0, 0, "cannot import: %s", animc_status_string(status));
	animc_clip_destroy(motion);
	animc_clip_set_release(&set);
	free(turned.bones);   /* a shallow copy: the names are the model's */
	return status == ANIMC_OK && picked;
}

/* The model's import ends, tried in a child first (build_model_loads): a
 * model that crashes Assimp fails the plot, said, instead of ending it. */
static bool model_loads_alone(const char *path, const import_limits *limits)
{
	uint8_t *data = NULL;
	size_t size = 0;
	char *why = NULL;
	cli_error err;

	if (!cli_read_file(path, &data, &size, &err)) {
		cli_report(ANIMC_ERROR, path, "%s", err.message);
		return false;
	}
	bool loads = build_model_loads(path, data, size, limits->timeout_s, limits->memory_bytes, &why);

	if (!loads)
		cli_report(ANIMC_ERROR, path, "%s", why ? why : "out of memory");
	free(why);
	free(data);
	return loads;
}

/* The source as libanimrt plays it: a compiled file loaded, or an asset
 * compiled in memory (compile_source) in a child process, which the
 * limits stop where a reader loops or runs out of memory on the file.
 * NULL with *status set (said) when it cannot be had. */
static animrt_clip *load_source(const plot_args *a, const import_limits *limits, cli_diag_printer *printer,
				int *status)
{
	const char *path = a->source_path;
	uint8_t *data = NULL, *xnb = NULL;
	size_t size = 0, xnb_size = 0;
	cli_error failure;
	animrt_clip *clip = NULL;
	animrt_error err;
	int detail;

	*status = ANIMC_EXIT_FAILED;
	if (!cli_read_file(path, &data, &size, &failure)) {
		cli_report(ANIMC_ERROR, path, "%s", failure.message);
		return NULL;
	}
	if (is_compiled(data, size)) {
		/* A compiled file is one clip, already cut: nothing to choose. */
		const char *option = a->clip ? "--clip" : a->author.splits.count ? "--split" :
				     a->author.clips_path ? "--clips" : a->author.root_bone ? "--root-motion" :
				     a->author.has_additive ? "--additive-reference" :
				     a->units.scale != 1 ? "--scale" :
				     animc_units_has_rotation(&a->units) ? "--rotate" :
				     a->skeleton_path ? "--skeleton" : NULL;

		if (option) {
			free(data);
			*status = cli_usage_error("plot", "%s applies to a source file only, and '%s' is a compiled "
						  "file", option, path);
			return NULL;
		}
		clip = cli_clip_open_bytes(path, data, size, &a->readers);
		free(data);
		return clip;
	}
	const animc_importer *importer = animc_importer_find(path, data, size);
	if (!importer) {
		cli_report(ANIMC_ERROR, path, "no importer recognises this file");
		free(data);
		return NULL;
	}
	/* The model, read here as animc build reads it: once, before the
	 * import. */
	animc_skeleton model = { 0 };
	if (a->skeleton_path) {
		animc_diag_sink sink = { cli_print_diag, printer, a->skeleton_path, 0, 0 };

		if (!model_loads_alone(a->skeleton_path, limits)) {
			free(data);
			return NULL;
		}
		if (animc_skeleton_load(a->skeleton_path, &model, &sink) != ANIMC_OK) {
			if (!sink.error_count)
				cli_report(ANIMC_ERROR, a->skeleton_path, "cannot read the model");
			free(data);
			return NULL;
		}
	}
	source_job job = { path, data, size, importer, a->clip, a->compiled_path, a->ticks_per_second, &a->author,
			   &a->units,
			   a->skeleton_path ? &model : NULL, a->relative_to_bind, size, limits->memory_bytes, printer };

	build_isolated_status ran = build_run_isolated(compile_source, &job, limits->timeout_s, limits->memory_bytes,
						       &xnb, &xnb_size, &detail);
	char *said;

	switch (ran) {
	case BUILD_ISOLATED_OK:
		if (animrt_open(xnb, xnb_size, &clip, &err) != ANIMRT_OK)
			cli_report(ANIMC_ERROR, path, "%s", err.message);
		break;
	case BUILD_ISOLATED_FAILED:
		break;   /* said by compile_source */
	case BUILD_ISOLATED_TIMED_OUT:
		cli_report(ANIMC_ERROR, path, "the %s importer did not finish within %g s (--import-timeout); stopped",
			   importer->name, limits->timeout_s);
		break;
	case BUILD_ISOLATED_CRASHED:
		cli_report(ANIMC_ERROR, path, "the %s importer crashed on this file (%s)", importer->name,
			   strsignal(detail));
		break;
	case BUILD_ISOLATED_SYSTEM:
		if (errno != EPROTO) {
			cli_report(ANIMC_ERROR, path, "cannot start the import: %s", strerror(errno));
			break;
		}
		/* fall through */
	case BUILD_ISOLATED_UNSENT:
		/* An end without a result is said as it was, with no
		 * phrase of what the process did. */
		said = build_isolated_end_said(ran, detail, importer->name,
					       ran == BUILD_ISOLATED_UNSENT ? "importing this file" : NULL);
		cli_report(ANIMC_ERROR, path, "%s", said ? said : "out of memory");
		free(said);
		break;
	}
	animc_skeleton_release(&model);
	free(data);
	free(xnb);
	return clip;
}

/* The sequence of `bone` that plays: the last of that name, as libanimrt
 * binds it (a bone two sequences animate takes the later one's values); -1
 * when there is none. */
static int find_bone(const animrt_clip *clip, const char *bone)
{
	for (uint32_t i = clip->sequence_count; i-- > 0;)
		if (strcmp(clip->sequences[i].bone, bone) == 0)
			return (int)i;
	return -1;
}

static uint32_t count_named(const animrt_clip *clip, const char *bone)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < clip->sequence_count; i++)
		n += strcmp(clip->sequences[i].bone, bone) == 0;
	return n;
}

/* When several sequences of either side are named `bone`, a sentence
 * saying which is plotted, malloc()ed; NULL when the name is one
 * sequence's on both sides. */
static char *repeated_bone(const animrt_clip *cmp, const animrt_clip *src, const char *bone)
{
	uint32_t in_cmp = count_named(cmp, bone), in_src = count_named(src, bone);
	char *text = NULL;
	size_t size = 0;
	FILE *out;

	if ((in_cmp < 2 && in_src < 2) || !(out = open_memstream(&text, &size)))
		return NULL;
	if (in_cmp > 1 && in_src > 1)
		fprintf(out, "%u sequences of the compiled file and %u of the source are named '", in_cmp, in_src);
	else
		fprintf(out, "%u sequences of the %s are named '", in_cmp > 1 ? in_cmp : in_src,
			in_cmp > 1 ? "compiled file" : "source");
	cli_print_escaped(out, bone, 0);
	fprintf(out, "': plotted is the last, which the runtime plays");
	if (fclose(out) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* "path: error: no bone 'X'; it has: 'A', 'B'" (as --clip lists clips). */
static void report_no_bone(const char *path, const animrt_clip *clip, const char *bone)
{
	cli_bytes names = { 0 };

	for (uint32_t i = 0; i < clip->sequence_count; i++) {
		cli_bytes_put(&names, i ? ", '" : " '", i ? 3 : 2);
		cli_bytes_put(&names, clip->sequences[i].bone, strlen(clip->sequences[i].bone));
		cli_bytes_put(&names, "'", 1);
	}
	cli_report(ANIMC_ERROR, path, "no bone '%s'; it has:%s", bone,
		   clip->sequence_count && !names.is_broken ? (const char *)names.data : " no sequences");
	free(names.data);
}

/* The bones of `a` that `b` lacks, as " 'X', 'Y'" (at most 8, then "and N
 * more") into a memstream; returns how many. */
static uint32_t list_missing(FILE *out, const animrt_clip *a, const animrt_clip *b)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < a->sequence_count; i++) {
		const char *bone = a->sequences[i].bone;

		if (find_bone(b, bone) >= 0 || find_bone(a, bone) != (int)i)
			continue;
		if (n < 8) {
			fprintf(out, "%s '", n ? "," : "");
			cli_print_escaped(out, bone, 0);
			fprintf(out, "'");
		}
		n++;
	}
	if (n > 8)
		fprintf(out, " and %u more", n - 8);
	return n;
}

/*
 * When the compiled clip and the source do not look like one clip (their
 * durations differ, or a bone is in one only), a sentence saying so,
 * malloc()ed; NULL when they agree.  The plot is drawn either way: a bone
 * dropped on purpose (--skeleton) is no error.
 */
static char *mismatch(const animrt_clip *cmp, const animrt_clip *src)
{
	char *text = NULL, dc[32], ds[32];
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);
	double scale = fmax(1.0, fmax(cmp->duration_s, src->duration_s));
	bool durations = fabs((double)cmp->duration_s - src->duration_s) > 1e-4 * scale;
	uint32_t only_cmp, only_src;

	if (!out)
		return NULL;
	fprintf(out, "the compiled file and the source may be different clips:");
	if (durations) {
		cli_format_float(cmp->duration_s, dc, sizeof dc);
		cli_format_float(src->duration_s, ds, sizeof ds);
		fprintf(out, " the compiled clip lasts %s s, the source %s s;", dc, ds);
	}
	fprintf(out, " bones only in the compiled file:");
	only_cmp = list_missing(out, cmp, src);
	fprintf(out, "%s; only in the source:", only_cmp ? "" : " none");
	only_src = list_missing(out, src, cmp);
	fprintf(out, "%s", only_src ? "" : " none");
	if (fclose(out) != 0 || (!durations && !only_cmp && !only_src)) {
		free(text);
		return NULL;
	}
	return text;
}

/* What the plot warns of, in the picture and on stderr: another clip as
 * the source (mismatch), a bone name several sequences have; malloc()ed,
 * or NULL. */
static char *plot_warning(const animrt_clip *cmp, const animrt_clip *src, const char *bone)
{
	char *mismatched = mismatch(cmp, src), *repeated = repeated_bone(cmp, src, bone), *warning = NULL;

	if ((mismatched || repeated) && asprintf(&warning, "warning: %s%s%s", mismatched ? mismatched : "",
						 mismatched && repeated ? "; " : "", repeated ? repeated : "") < 0)
		warning = NULL;
	free(mismatched);
	free(repeated);
	return warning;
}

/* Why a track has other keys compiled than in its source, or "". */
static const char *key_count_reason(const animrt_clip *cmp, uint32_t compiled, uint32_t source, char *buf,
				    size_t size)
{
	char rate[32];

	if (cmp->compact) {
		cli_format_float(cmp->grid_rate_hz, rate, sizeof rate);
		snprintf(buf, size, ": the compact grid, %u samples at %s Hz, resamples the track",
			 cmp->grid_sample_count, rate);
	} else if (compiled < source) {
		snprintf(buf, size, ": keys their neighbours give within the tolerance are dropped");
	} else {
		snprintf(buf, size, "%s", "");
	}
	return buf;
}

/* A track's keys: times and values (width floats each), malloc()ed. */
typedef struct keys {
	uint32_t count;
	float *times, *values;
} keys;

static keys track_keys(const animrt_clip *clip, uint32_t seq, unsigned track)
{
	const animrt_sequence *s = &clip->sequences[seq];
	unsigned width = track == ANIMRT_ROTATION ? 4 : 3;
	keys k = { 0, NULL, NULL };

	if (clip->compact) {
		k.count = animrt_track_keys(clip, seq, track, 0, 0, NULL, NULL);
		k.times = malloc(((size_t)k.count + 1) * sizeof *k.times);
		k.values = malloc(((size_t)k.count + 1) * width * sizeof *k.values);
		if (k.times && k.values)
			animrt_track_keys(clip, seq, track, 0, k.count, k.times, k.values);
		else
			k.count = 0;
		return k;
	}
	uint32_t n = track == 0 ? s->translation_count : track == 1 ? s->rotation_count : s->scale_count;
	const float *v = track == 0 ? s->translation : track == 1 ? s->rotation : s->scale;
	if (n < 2)
		return k;
	k.times = malloc(n * sizeof *k.times);
	k.values = malloc((size_t)n * width * sizeof *k.values);
	if (!k.times || !k.values)
		return k;
	k.count = n;
	for (uint32_t i = 0; i < n; i++)
		k.times[i] = s->has_time ? s->times_s[i] : (float)((double)i * s->key_interval_s);
	memcpy(k.values, v, (size_t)n * width * sizeof *v);
	return k;
}

/* ------------------------------------------------------------------ SVG */

/* Text for an SVG that declares UTF-8: markup characters as entities, a
 * control character as '?', and a byte that is not part of UTF-8 (a file
 * name may hold any) as U+FFFD, so the document is always well-formed. */
static void svg_text(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		if (*p >= 0x80) {
			size_t len = *p >= 0xF0 ? 4 : *p >= 0xE0 ? 3 : *p >= 0xC0 ? 2 : 1, bad;

			if (len == 1 || strnlen((const char *)p, len) < len ||
			    !animc_utf8_check((const char *)p, len, &bad)) {
				fputs("\xEF\xBF\xBD", out);
				p++;
				continue;
			}
			fwrite(p, 1, len, out);
			p += len;
			continue;
		}
		if (*p == '<')
			fputs("&lt;", out);
		else if (*p == '>')
			fputs("&gt;", out);
		else if (*p == '&')
			fputs("&amp;", out);
		else if (*p == '"')
			fputs("&quot;", out);
		else if (*p < 0x20 || *p == 0x7F)
			fputc('?', out);
		else
			fputc(*p, out);
		p++;
	}
}

typedef struct frame {
	double top, t_end, lo, hi;
} frame;

static double px(const frame *f, double t)
{
	return LEFT + (f->t_end > 0 ? t / f->t_end : 0) * (WIDTH - LEFT - RIGHT);
}

static double py(const frame *f, double v)
{
	return f->top + PANEL - (v - f->lo) / (f->hi - f->lo) * PANEL;
}

/* One end of the value axis as text: the fewest digits (four at least)
 * that read back within 1/200 of the axis's span of where the axis ends,
 * so that a value read off the axis is true to that.  Fewer digits can
 * land half the span away (an axis from 99.997 to 100.053 read "100" and
 * "100.1"); the ends differ by the span, so they always read apart. */
static void axis_label(double v, double span, char text[32])
{
	for (int digits = 4; digits <= 17; digits++) {
		snprintf(text, 32, "%.*g", digits, v);
		if (fabs(strtod(text, NULL) - v) <= span / 200)
			return;
	}
}

static void panel(FILE *out, const frame *f, const char *label)
{
	char hi[32], lo[32];

	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#fbfbfb\" stroke=\"#bbb\"/>\n",
		LEFT, f->top, WIDTH - LEFT - RIGHT, PANEL);
	for (int i = 1; i < 4; i++)
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>\n", LEFT,
			f->top + PANEL * i / 4, WIDTH - RIGHT, f->top + PANEL * i / 4);
	/* The name halfway down the margin, where no axis label is: beside
	 * the top one, a long label ran into it ("error0.00115"). */
	fprintf(out, "<text x=\"8\" y=\"%.1f\" font-size=\"13\" font-weight=\"bold\">%s</text>\n",
		f->top + PANEL / 2 + 5, label);
	axis_label(f->hi, f->hi - f->lo, hi);
	axis_label(f->lo, f->hi - f->lo, lo);
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">%s</text>\n", LEFT - 4,
		f->top + 9, hi);
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">%s</text>\n", LEFT - 4,
		f->top + PANEL, lo);
}

static void polyline(FILE *out, const frame *f, const float *t, const float *v, size_t n, size_t stride,
		     const char *style)
{
	fprintf(out, "<polyline fill=\"none\" %s points=\"", style);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%.1f,%.1f", i ? " " : "", px(f, t[i]), py(f, v[i * stride]));
	fprintf(out, "\"/>\n");
}

static void dots(FILE *out, const frame *f, const keys *k, unsigned width, unsigned c, const float *align_to,
		 const char *style)
{
	for (uint32_t i = 0; i < k->count; i++) {
		float v = k->values[(size_t)i * width + c];

		if (k->times[i] > f->t_end)
			continue;   /* a grid sample past the end: never sampled */
		/* Rotations: on the hemisphere of the source curve at that time. */
		if (align_to && align_to[i] < 0)
			v = -v;
		fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" %s/>\n", px(f, k->times[i]), py(f, v), style);
	}
}

/* Characters of 12-pixel text that fit the picture's width, about. */
#define LINE_CHARS 140

/* Lines `text` takes wrapped at spaces to LINE_CHARS (a word longer than
 * that makes a line of its own); with `out`, draw them as <tspan>s. */
static int wrapped_lines(FILE *out, const char *text)
{
	int lines = 0;

	while (*text) {
		size_t len = strlen(text), cut = len;

		if (len > LINE_CHARS) {
			cut = LINE_CHARS;
			while (cut > 0 && text[cut] != ' ')
				cut--;
			if (cut == 0)
				cut = strcspn(text, " ");
		}
		if (out) {
			char *piece = strndup(text, cut);

			fprintf(out, "<tspan x=\"8\" dy=\"%d\">", lines ? 15 : 0);
			svg_text(out, piece ? piece : "");
			fprintf(out, "</tspan>");
			free(piece);
		}
		lines++;
		text += cut;
		while (*text == ' ')
			text++;
	}
	return lines;
}

/* --------------------------------------------------------------- command */


/* Both sequences' track at STEPS times over [0, end] into t, sv, cv (four
 * floats a step), the compiled rotation on the source's hemisphere, and the
 * error between them into err; returns the worst, its time in *worst_t. */
static double sample_both(const animrt_sequence *src, const animrt_sequence *cmp, unsigned track, double end,
			  float *t, float *sv, float *cv, float *err, double *worst_t)
{
	unsigned width = track == ANIMRT_ROTATION ? 4 : 3;
	double worst = 0;

	for (int i = 0; i < STEPS; i++) {
		float tr[3], ro[4], sc[3], *s = sv + 4 * (size_t)i, *c = cv + 4 * (size_t)i;

		t[i] = (float)(end * i / (STEPS - 1));
		animrt_sequence_sample(src, t[i], ANIMRT_PLAY_ONCE, NULL, tr, ro, sc);
		memcpy(s, track == 0 ? tr : track == 1 ? ro : sc, width * sizeof(float));
		animrt_sequence_sample(cmp, t[i], ANIMRT_PLAY_ONCE, NULL, tr, ro, sc);
		memcpy(c, track == 0 ? tr : track == 1 ? ro : sc, width * sizeof(float));
		if (track == ANIMRT_ROTATION && s[0] * c[0] + s[1] * c[1] + s[2] * c[2] + s[3] * c[3] < 0)
			for (int k = 0; k < 4; k++)
				c[k] = -c[k];
		err[i] = (float)animc_track_error((animc_track_kind)track, s, c);
		if (err[i] > worst) {
			worst = err[i];
			*worst_t = t[i];
		}
	}
	return worst;
}

/* The first step at which a side's sampled track is not finite (*in_source
 * says which side), or -1.  Keys a float holds may lie further apart than
 * one does (-3e38 and 3e38): between them the track overflows, and its
 * curve, axis and error would be no numbers. */
static int first_not_finite(const float *sv, const float *cv, unsigned width, bool *in_source)
{
	for (int i = 0; i < STEPS; i++)
		for (unsigned c = 0; c < width; c++)
			if (!isfinite(sv[4 * i + c]) || !isfinite(cv[4 * i + c])) {
				*in_source = !isfinite(sv[4 * i + c]);
				return i;
			}
	return -1;
}

/* How the SVG names the compiled file at `path`: for a pipe the shell
 * named (/dev/fd/63 of a <(...), /dev/stdin), whose name is nothing the
 * user wrote or can open again, as a pipe; else its base name, or when
 * `full` its path. */
static const char *compiled_name(const char *path, bool full)
{
	struct stat st;

	if ((strncmp(path, "/dev/", 5) == 0 || strncmp(path, "/proc/", 6) == 0) && stat(path, &st) == 0 &&
	    S_ISFIFO(st.st_mode))
		return "the compiled file (a pipe)";
	return full ? path : cli_basename(path);
}

/* The SVG's start: its title, the heading, the warning, the legend. */
static void write_heading(FILE *out, const plot_args *a, const animrt_clip *cmp, const keys *sk, const keys *ck,
			  double end, const char *warning, double top, double height)
{
	static const char *const track_names[3] = { "translation", "rotation", "scale" };
	unsigned track = a->track;
	char reason[256];

	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		"font-family=\"sans-serif\">\n", WIDTH, height, WIDTH, height);
	/* The document's title has the full paths (a viewer shows it); the
	 * heading drawn has base names, which fit the width. */
	fprintf(out, "<title>");
	svg_text(out, a->bone);
	fprintf(out, " %s: ", track_names[track]);
	svg_text(out, compiled_name(a->compiled_path, true));
	fprintf(out, " against ");
	svg_text(out, a->source_path);
	fprintf(out, "</title>\n");
	fprintf(out, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	fprintf(out, "<text x=\"8\" y=\"20\" font-size=\"15\" font-weight=\"bold\">");
	svg_text(out, a->bone);
	fprintf(out, " %s: ", track_names[track]);
	svg_text(out, compiled_name(a->compiled_path, false));
	fprintf(out, " against ");
	svg_text(out, cli_basename(a->source_path));
	fprintf(out, "</text>\n<text x=\"8\" y=\"38\" font-size=\"12\">%s layout, %u key%s compiled (%u in the source%s); "
		"%.6g s</text>\n", cmp->compact ? "compact" : "original", ck->count, ck->count == 1 ? "" : "s", sk->count,
		ck->count == sk->count ? "" : key_count_reason(cmp, ck->count, sk->count, reason, sizeof reason),
		end);
	if (warning) {
		fprintf(out, "<text x=\"8\" y=\"54\" font-size=\"12\" fill=\"#c62828\" class=\"warning\">");
		wrapped_lines(out, warning);
		fprintf(out, "</text>\n");
	}
	fprintf(out, "<text x=\"8\" y=\"%.0f\" font-size=\"12\"><tspan fill=\"#1f77b4\">&#9679; source keys, "
		"curve</tspan>   <tspan fill=\"#e07000\">&#9675; compiled keys, - - curve</tspan>   <tspan "
		"fill=\"#c62828\">error band, bound dashed</tspan></text>\n", top - 10);
}

/* The error band, the bound dashed, the worst error and the time axis. */
static void write_error_panel(FILE *out, double top, double end, const float *t, const float *err, double worst,
			      double worst_t, double bound, const char *unit)
{
	frame f = { top, end, 0, fmax(fmax(worst, bound) * 1.15, 1e-9) };

	panel(out, &f, "error");
	fprintf(out, "<polygon fill=\"#c62828\" fill-opacity=\"0.28\" stroke=\"#c62828\" stroke-width=\"1\" "
		"class=\"error\" points=\"%.1f,%.1f", px(&f, 0), py(&f, 0));
	for (int i = 0; i < STEPS; i++)
		fprintf(out, " %.1f,%.1f", px(&f, t[i]), py(&f, err[i]));
	fprintf(out, " %.1f,%.1f\"/>\n", px(&f, end), py(&f, 0));
	if (bound > 0)
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#c62828\" "
			"stroke-dasharray=\"8 4\" class=\"bound\"/>\n", LEFT, py(&f, bound), WIDTH - RIGHT, py(&f, bound));
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" class=\"worst\">worst %.4g%s%s at %.4g s; "
		"bound %.4g</text>\n", LEFT + 8, f.top + 16, worst, unit[0] ? " " : "", unit, worst_t, bound);
	for (int i = 0; i <= 4; i++)
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"middle\">%.3g s</text>\n",
			px(&f, end * i / 4), f.top + PANEL + 14, end * i / 4);
}

/* -o -: the standard output, as "-" is for animc build's reports. */
static bool is_stdout(const char *path)
{
	return strcmp(path, "-") == 0;
}

/* The SVG written whole: onto the standard output, or into -o's file
 * (cli_write_named: renamed into place, a FIFO written as it is).  False
 * after saying why. */
static bool put_svg(const char *path, const char *svg, size_t size)
{
	cli_error failure;

	if (is_stdout(path)) {
		/* Past stdio, so that a failure keeps its errno. */
		if (!cli_stdout_flush("plot"))
			return false;   /* said */
		if (cli_write_all(STDOUT_FILENO, svg, size))
			return true;
		fprintf(stderr, "animc plot: error writing standard output: %s\n", strerror(errno ? errno : EIO));
		return false;
	}
	if (cli_write_named(path, svg, size, &failure))
		return true;
	cli_report(ANIMC_ERROR, path, "%s", failure.message);
	return false;
}

static int write_plot(const plot_args *a, const animrt_clip *src, const animrt_clip *cmp, uint32_t si,
		      uint32_t ci)
{
	unsigned track = a->track, width = track == ANIMRT_ROTATION ? 4 : 3;
	double end = src->duration_s > cmp->duration_s ? src->duration_s : cmp->duration_s;
	float *t = malloc(STEPS * sizeof *t), *sv = malloc(STEPS * 4 * sizeof *sv), *cv = malloc(STEPS * 4 * sizeof *cv);
	float *err = malloc(STEPS * sizeof *err);
	keys sk = track_keys(src, si, track), ck = track_keys(cmp, ci, track);
	float *ck_sign = malloc(((size_t)ck.count + 1) * sizeof *ck_sign);
	char *warning = plot_warning(cmp, src, a->bone);
	int status = ANIMC_EXIT_OK;

	if (!t || !sv || !cv || !err || !ck_sign) {
		cli_report(ANIMC_ERROR, NULL, "out of memory");
		status = ANIMC_EXIT_FAILED;
		goto done;
	}
	double worst_t = 0;
	double worst = sample_both(&src->sequences[si], &cmp->sequences[ci], track, end, t, sv, cv, err, &worst_t);
	/* Compiled rotation keys onto the source's hemisphere at their time. */
	for (uint32_t k = 0; k < ck.count; k++) {
		float tr[3], ro[4], sc[3];
		const float *q = ck.values + (size_t)k * width;

		ck_sign[k] = 1;
		if (track == ANIMRT_ROTATION) {
			animrt_sequence_sample(&src->sequences[si], ck.times[k], ANIMRT_PLAY_ONCE, NULL, tr, ro, sc);
			ck_sign[k] = ro[0] * q[0] + ro[1] * q[1] + ro[2] * q[2] + ro[3] * q[3] < 0 ? -1.0f : 1.0f;
		}
	}
	double bound = track == 0 ? a->tolerance.translation : track == 1 ? a->tolerance.rotation_deg : a->tolerance.scale;
	const char *unit = track == 0 ? "units" : track == 1 ? "degrees" : "";
	static const char *const names[3][4] = { { "x", "y", "z", "" }, { "x", "y", "z", "w" }, { "x", "y", "z", "" } };
	static const char *const track_names[3] = { "translation", "rotation", "scale" };
	/* A warning takes lines above the panels. */
	int warning_lines = warning ? wrapped_lines(NULL, warning) : 0;
	double top = TOP + 15 * warning_lines;
	double height = top + (width + 1) * (PANEL + GAP) + 20;

	bool in_source;
	int bad = first_not_finite(sv, cv, width, &in_source);
	if (bad >= 0) {
		cli_report(ANIMC_ERROR, in_source ? a->source_path : a->compiled_path, "the %s of bone '%s' is not finite "
			   "at %.4g s (its keys lie further apart than a float holds): nothing plotted", track_names[track],
			   a->bone, t[bad]);
		status = ANIMC_EXIT_FAILED;
		goto done;
	}
	/* Built in memory, written whole (no partial plot on failure). */
	char *svg = NULL;
	size_t svg_size = 0;
	FILE *out = open_memstream(&svg, &svg_size);
	if (!out) {
		cli_report(ANIMC_ERROR, NULL, "out of memory");
		status = ANIMC_EXIT_FAILED;
		goto done;
	}
	write_heading(out, a, cmp, &sk, &ck, end, warning, top, height);
	for (unsigned c = 0; c < width; c++) {
		frame f = { top + c * (PANEL + GAP), end, INFINITY, -INFINITY };

		for (int i = 0; i < STEPS; i++) {
			f.lo = fmin(f.lo, fmin(sv[4 * i + c], cv[4 * i + c]));
			f.hi = fmax(f.hi, fmax(sv[4 * i + c], cv[4 * i + c]));
		}
		for (uint32_t k = 0; k < sk.count; k++) {
			f.lo = fmin(f.lo, sk.values[(size_t)k * width + c]);
			f.hi = fmax(f.hi, sk.values[(size_t)k * width + c]);
		}
		double pad = (f.hi - f.lo) * 0.06;
		if (!(pad > 1e-6))
			pad = 0.5;
		f.lo -= pad;
		f.hi += pad;
		panel(out, &f, names[track][c]);
		polyline(out, &f, t, sv + c, STEPS, 4, "stroke=\"#1f77b4\" stroke-width=\"1.6\" class=\"source\"");
		polyline(out, &f, t, cv + c, STEPS, 4,
			 "stroke=\"#e07000\" stroke-width=\"1.4\" stroke-dasharray=\"6 3\" class=\"compiled\"");
		dots(out, &f, &sk, width, c, NULL, "r=\"2.2\" fill=\"#1f77b4\" class=\"source-key\"");
		dots(out, &f, &ck, width, c, track == ANIMRT_ROTATION ? ck_sign : NULL,
		     "r=\"4\" fill=\"none\" stroke=\"#e07000\" stroke-width=\"1.3\" class=\"compiled-key\"");
	}
	write_error_panel(out, top + width * (PANEL + GAP), end, t, err, worst, worst_t, bound, unit);
	fprintf(out, "</svg>\n");
	bool is_built = fclose(out) == 0 && svg;

	if (!is_built)
		cli_report(ANIMC_ERROR, a->out_path, "out of memory");
	if (!is_built || !put_svg(a->out_path, svg, svg_size)) {
		free(svg);
		status = ANIMC_EXIT_FAILED;
		goto done;
	}
	free(svg);
	/* Escaped as every line for a person is: a name may hold anything.
	 * Beside an SVG on the standard output, on stderr. */
	FILE *said = is_stdout(a->out_path) ? stderr : stdout;
	cli_print_escaped(said, is_stdout(a->out_path) ? "standard output" : a->out_path, 0);
	fprintf(said, ": %s of '", track_names[track]);
	cli_print_escaped(said, a->bone, 0);
	fprintf(said, "', worst error %.4g%s%s at %.4g s\n", worst, unit[0] ? " " : "", unit, worst_t);
	if (warning)
		fprintf(stderr, "animc plot: %s\n", warning);
done:
	free(warning);
	free(t);
	free(sv);
	free(cv);
	free(err);
	free(ck_sign);
	free(sk.times);
	free(sk.values);
	free(ck.times);
	free(ck.values);
	return status;
}

enum { O_BONE = 256, O_TRACK, O_CLIP, O_TOLERANCE, O_TICKS, O_TIMEOUT, O_MEMORY, O_SPLIT, O_CLIPS, O_READER,
       O_ROOT_MOTION, O_UP_AXIS, O_ADDITIVE, O_SCALE, O_ROTATE, O_SKELETON, O_RELATIVE };

/* The options that make SOURCE what animc build made of it (--split,
 * --clips, --root-motion, --up-axis, --additive-reference, --scale,
 * --rotate, --skeleton, --relative-to-bind), parsed as build parses them:
 * -1, or the exit status of a usage error said. */
static int parse_source_option(plot_args *a, int c, const char *arg)
{
	cli_error err;
	bool ok = true;

	switch (c) {
	case O_CLIPS:
		ok = cli_path_argument("--clips", arg, "an AnimationDefinition document", &err);
		a->author.clips_path = arg;
		break;
	case O_SKELETON:
		ok = cli_path_argument("--skeleton", arg, "the model animc build was given", &err);
		a->skeleton_path = arg;
		break;
	case O_RELATIVE:
		a->relative_to_bind = true;
		break;
	case O_SCALE:
		ok = build_parse_scale(arg, &a->units.scale, &err);
		break;
	case O_ROTATE:
		ok = build_parse_rotate(arg, a->units.rotation_deg, &err);
		break;
	default:
		ok = c == O_SPLIT	    ? build_author_split(&a->author, arg, &err)
		     : c == O_ROOT_MOTION ? build_author_root_motion(&a->author, arg, &err)
		     : c == O_UP_AXIS     ? build_author_up_axis(&a->author, arg, &err)
					  : build_author_additive(&a->author, arg, &err);
	}
	if (!ok)
		return cli_usage_error("plot", "%s", err.message);
	return -1;
}

/* After the options: what the plot needs, and the options that need
 * another.  -1, or the exit status of a usage error said. */
static int finish_args(plot_args *a, int argc, char **argv)
{
	cli_error err;

	if (!a->out_path)
		return cli_usage_error("plot", "no output: give -o OUT.svg");
	if (!cli_path_argument("--output", a->out_path, "a file to write (OUT.svg, or - for the standard output)",
			       &err))
		return cli_usage_error("plot", "%s", err.message);
	if (!a->bone)
		return cli_usage_error("plot", "no bone: give --bone NAME");
	if (argc - optind != 2)
		return cli_usage_error("plot", "give the compiled file, then its source");
	if (!cli_path_argument("COMPILED", argv[optind], "the compiled file", &err) ||
	    !cli_path_argument("SOURCE", argv[optind + 1], "its source", &err))
		return cli_usage_error("plot", "%s", err.message);
	if (!build_author_check(&a->author, &err))
		return cli_usage_error("plot", "%s", err.message);
	/* The rest pose of --skeleton's model, as animc build takes it. */
	if (a->author.has_additive && a->author.additive == ANIMC_ADDITIVE_BIND && !a->skeleton_path)
		return cli_usage_error("plot", "--additive-reference bind takes the rest pose of --skeleton MODEL: "
				       "give the model animc build was given");
	if (a->relative_to_bind && !a->skeleton_path)
		return cli_usage_error("plot", "--relative-to-bind composes keys with the rest pose of "
				       "--skeleton MODEL: give the model animc build was given");
	a->compiled_path = argv[optind];
	a->source_path = argv[optind + 1];
	return -1;
}

/* The arguments into *a and *limits: -1 when the plot is to be drawn,
 * else the exit status (help shown, or a usage error said). */
static int parse_args(plot_args *a, import_limits *limits, int argc, char **argv)
{
	static const char shorts[] = ":o:h";
	static const struct option options[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "bone", required_argument, NULL, O_BONE },
		{ "track", required_argument, NULL, O_TRACK },
		{ "clip", required_argument, NULL, O_CLIP },
		{ "tolerance", required_argument, NULL, O_TOLERANCE },
		{ "ticks-per-second", required_argument, NULL, O_TICKS },
		{ "import-timeout", required_argument, NULL, O_TIMEOUT },
		{ "memory-limit", required_argument, NULL, O_MEMORY },
		{ "split", required_argument, NULL, O_SPLIT },
		{ "clips", required_argument, NULL, O_CLIPS },
		{ "reader-name", required_argument, NULL, O_READER },
		{ "root-motion", required_argument, NULL, O_ROOT_MOTION },
		{ "up-axis", required_argument, NULL, O_UP_AXIS },
		{ "additive-reference", required_argument, NULL, O_ADDITIVE },
		{ "scale", required_argument, NULL, O_SCALE },
		{ "rotate", required_argument, NULL, O_ROTATE },
		{ "skeleton", required_argument, NULL, O_SKELETON },
		{ "relative-to-bind", no_argument, NULL, O_RELATIVE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, said;

	a->track = ANIMRT_ROTATION;
	a->units.scale = 1;
	cli_parse_tolerance("default", &a->tolerance);
	cli_getopt_reset();
	for (int from = 1; (c = getopt_long(argc, argv, shorts, options, NULL)) != -1; from = optind) {
		switch (c) {
		case 'o':
			a->out_path = optarg;
			break;
		case O_BONE:
			a->bone = optarg;
			break;
		case O_TRACK:
			if (strcmp(optarg, "translation") == 0)
				a->track = ANIMRT_TRANSLATION;
			else if (strcmp(optarg, "rotation") == 0)
				a->track = ANIMRT_ROTATION;
			else if (strcmp(optarg, "scale") == 0)
				a->track = ANIMRT_SCALE;
			else
				return cli_usage_error("plot", "--track '%s': use translation, rotation or scale", optarg);
			break;
		case O_CLIP:
			a->clip = optarg;
			break;
		case O_TOLERANCE:
			if (!cli_parse_tolerance(optarg, &a->tolerance))
				return cli_usage_error("plot", "--tolerance '%s': give " CLI_TOLERANCE_FORMS, optarg);
			break;
		case O_TICKS: {
			char *end;

			a->ticks_per_second = strtod(optarg, &end);
			if (end == optarg || *end || !(a->ticks_per_second > 0) || !isfinite(a->ticks_per_second))
				return cli_usage_error("plot", "--ticks-per-second '%s' is not a number above 0", optarg);
			break;
		}
		case O_TIMEOUT: {
			char *end;

			limits->timeout_s = strtod(optarg, &end);
			if (end == optarg || *end || !(limits->timeout_s >= 0) || !isfinite(limits->timeout_s))
				return cli_usage_error("plot", "--import-timeout '%s' is not a number of seconds (0 for "
							       "no limit)", optarg);
			break;
		}
		case O_SPLIT:
		case O_CLIPS:
		case O_ROOT_MOTION:
		case O_UP_AXIS:
		case O_ADDITIVE:
		case O_SCALE:
		case O_ROTATE:
		case O_SKELETON:
		case O_RELATIVE:
			if ((said = parse_source_option(a, c, optarg)) >= 0)
				return said;
			break;
		case O_READER:
			if (!cli_readers_add(&a->readers, "plot", optarg))
				return ANIMC_EXIT_USAGE;
			break;
		case O_MEMORY:
			if (!cli_parse_size(optarg, &limits->memory_bytes))
				return cli_usage_error("plot", "--memory-limit '%s' is not a size (such as 4G or 512M; "
							       "0 for no limit)", optarg);
			if (limits->memory_bytes && limits->memory_bytes < (64ull << 20))
				return cli_usage_error("plot", "--memory-limit '%s' is below 64M, too little to start "
							       "an import", optarg);
			break;
		case 'h':
			return cli_stdout_help("plot", help) ? ANIMC_EXIT_OK : ANIMC_EXIT_FAILED;
		case ':':
			return cli_option_error("plot", argc, argv, from, true, shorts, options);
		default:
			return cli_option_error("plot", argc, argv, from, false, shorts, options);
		}
	}
	return finish_args(a, argc, argv);
}

/* -o names a file, not a place to make: its folder must exist, so that a
 * mistyped path fails rather than growing a tree of folders.  False after
 * saying so. */
static bool output_folder_exists(const char *path)
{
	size_t dir_len = (size_t)(cli_basename(path) - path);
	struct stat st;
	char *dir;
	bool ok;

	if (!dir_len)
		return true;   /* the current folder */
	dir = strndup(path, dir_len);
	if (!dir) {
		cli_report(ANIMC_ERROR, path, "out of memory");
		return false;
	}
	int rc = stat(dir, &st), err = errno;

	ok = rc == 0 && S_ISDIR(st.st_mode);
	if (rc != 0 && err != ENOTDIR)
		cli_report(ANIMC_ERROR, path, "cannot write: no folder '%s' (%s; plot makes no folders)", dir,
			   strerror(err));
	else if (!ok)
		cli_report(ANIMC_ERROR, path, "cannot write: '%s' is not a folder", dir);
	free(dir);
	return ok;
}

/* Whether the file's root element is <svg>: a plot of an earlier run, or
 * another picture, which plot may replace.  The start is read as XML: a
 * byte order mark, white space, the XML declaration, processing
 * instructions, comments and a DOCTYPE (with its internal subset) come
 * before the root.  A page or a document that merely holds or mentions an
 * <svg> (an HTML page with an inline icon, an example in a comment) is no
 * SVG. */
static bool holds_an_svg(const char *path)
{
	char head[4097];
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(head, 1, sizeof head - 1, f) : 0;
	const char *p = head, *end;

	if (f)
		fclose(f);
	head[n] = '\0';
	if (n != strnlen(head, n))
		return false;   /* a NUL: no text */
	if (strncmp(p, "\xEF\xBB\xBF", 3) == 0)
		p += 3;
	for (;; p = end) {
		p += strspn(p, " \t\r\n");
		if (strncmp(p, "<?", 2) == 0)
			end = (end = strstr(p + 2, "?>")) ? end + 2 : NULL;
		else if (strncmp(p, "<!--", 4) == 0)
			end = (end = strstr(p + 4, "-->")) ? end + 3 : NULL;
		else if (strncmp(p, "<!DOCTYPE", 9) == 0) {
			/* Up to its '>', past an internal subset's "[...]". */
			end = p + strcspn(p, "[>");
			if (*end == '[')
				end = strchr(end, ']');
			end = end ? strchr(end, '>') : NULL;
			end = end ? end + 1 : NULL;
		} else
			break;
		if (!end)
			return false;
	}
	return strncmp(p, "<svg", 4) == 0 && p[4] && strchr("> \t\r\n/", p[4]);
}

/* -o naming one of the inputs would put the SVG in its place: the source
 * art or the compiled file gone, the plot "written".  Compared as files
 * (device and inode), so that another spelling of the path, a symbolic or
 * a hard link to it is caught as well.  The exit status after saying so,
 * or -1 when the output is no input. */
static int refuse_an_input_as_output(const plot_args *a)
{
	char *sidecar = build_author_sidecar(&a->author, a->source_path, true);
	const char *const inputs[5] = { a->compiled_path, a->source_path, a->skeleton_path, a->author.clips_path,
					sidecar };
	const char *const what[5] = { "the compiled file", "the source", "the --skeleton model",
				      "the --clips document", "the clip-split sidecar" };
	struct stat out, in;
	int status = -1;

	if (is_stdout(a->out_path) || stat(a->out_path, &out) != 0) {
		free(sidecar);
		return -1;   /* not there yet: no input */
	}
	for (int i = 0; i < 5 && status < 0; i++)
		if (inputs[i] && stat(inputs[i], &in) == 0 && in.st_dev == out.st_dev && in.st_ino == out.st_ino)
			status = cli_usage_error("plot", "-o '%s' is %s '%s': the SVG would take its place; give "
						 "another output", a->out_path, what[i], inputs[i]);
	free(sidecar);
	if (status < 0 && S_ISREG(out.st_mode) && out.st_size > 0 && !holds_an_svg(a->out_path))
		status = cli_usage_error("plot", "-o '%s' is there and is no SVG (its root element is not <svg>; a "
					 "file an import reads, such as a glTF's buffer, would be one): plot replaces an "
					 "SVG only; give another output, or delete it first", a->out_path);
	return status;
}

/* An additive clip holds differences from a reference pose: against an
 * absolute source its "error" is the pose itself.  The compact layout
 * marks it (the original layout has no room for a mark): a source not made
 * additive the same way is refused, naming the option, and so is
 * --additive-reference against a compiled clip that is not additive.  The
 * exit status after saying so, or -1. */
static int refuse_additive_mismatch(const plot_args *a, const animrt_clip *cmp, const animrt_clip *src)
{
	bool source_additive = a->author.has_additive || src->is_additive;

	if (!cmp->compact || cmp->is_additive == source_additive)
		return -1;
	if (cmp->is_additive)
		return cli_usage_error("plot", "'%s' is additive (animc build --additive-reference) and '%s' is not: "
				       "give plot the --additive-reference the build had, to compare difference with "
				       "difference", a->compiled_path, a->source_path);
	return cli_usage_error("plot", "'%s' is not additive: leave out --additive-reference, which would compare "
			       "it with differences from a reference pose", a->compiled_path);
}

/* The command, its arguments parsed into *a (the caller releases it:
 * --split values are owned). */
static int plot(plot_args *a, int argc, char **argv)
{
	import_limits limits = { 120, 4ull << 30 };
	int parsed = parse_args(a, &limits, argc, argv);

	if (parsed >= 0)
		return parsed;
	if ((parsed = refuse_an_input_as_output(a)) >= 0)
		return parsed;
	if (!output_folder_exists(a->out_path))
		return ANIMC_EXIT_FAILED;
	cli_diag_printer printer = { 0 };
	printer.out = stderr;
	animrt_clip *cmp = NULL, *src = NULL;
	int status;

	/* Both clips decoded: the plot reads their sequence lists. */
	cmp = cli_clip_open(a->compiled_path, &a->readers);
	if (!cmp)
		return ANIMC_EXIT_FAILED;
	src = load_source(a, &limits, &printer, &status);
	if (src && (status = refuse_additive_mismatch(a, cmp, src)) < 0) {
		int si = find_bone(src, a->bone), ci = find_bone(cmp, a->bone);

		status = ANIMC_EXIT_FAILED;
		if (ci < 0)
			report_no_bone(a->compiled_path, cmp, a->bone);
		else if (si < 0)
			report_no_bone(a->source_path, src, a->bone);
		else
			status = write_plot(a, src, cmp, (uint32_t)si, (uint32_t)ci);
	}
	animrt_close(src);
	animrt_close(cmp);
	return status;
}

static int run(int argc, char **argv)
{
	plot_args a;
	int status;

	memset(&a, 0, sizeof a);
	status = plot(&a, argc, argv);
	build_author_release(&a.author);
	return status;
}

const animc_command animc_cmd_plot = {
	.name = "plot",
	.summary = "draw a bone's track against its source as SVG: animc plot --bone NAME -o OUT.svg FILE SOURCE",
	.run = run,
	.help = help,
};
