/*
 * author.h - the authoring options of a build (--split, --clips,
 * --root-motion, --up-axis, --additive-reference) and the clip-split
 * sidecar (STEM_Anims.xml beside a source): what applies to a source, read
 * and applied by compile between import and processing.
 */
#ifndef ANIMC_BUILD_AUTHOR_H
#define ANIMC_BUILD_AUTHOR_H

#include <stdbool.h>
#include <stddef.h>

#include <animc/animc_formats.h>

#include "cli.h"

typedef struct build_author_options {
	cli_strings splits;           /* --split values, in the order given */
	const char *clips_path;       /* --clips FILE */
	char *root_bone;              /* --root-motion BONE[,yaw] (owned) */
	bool root_yaw;
	animc_up_axis up;             /* --up-axis; ANIMC_UP_DEFAULT: by importer */
	float recompose_error;        /* animc_root_motion_options' (a lossy run's); 0: exact */
	bool has_additive;            /* --additive-reference */
	animc_additive_kind additive;
	const char *additive_clip;    /* ANIMC_ADDITIVE_CLIP: its name */
} build_author_options;

/* The suffix that makes STEM_Anims.xml the clip-split sidecar of STEM.*. */
#define BUILD_SIDECAR_SUFFIX "_Anims.xml"
/* How far into a STEM_Anims.xml its AnimationDefinition type is looked
 * for: past a licence or a long comment before the <Asset>, not through a
 * large file that is no sidecar; as far as the probes look for a root
 * element, so that a sidecar the XNA importer would claim is used as one. */
#define BUILD_SIDECAR_PROBE_BYTES ANIMC_PROBE_HEAD_MAX_BYTES

/* Option values, checked when parsed: false with *err filled. */
bool build_author_split(build_author_options *a, const char *arg, cli_error *err);
/* A --split value as the source key holds it: its START and END read as
 * the cut reads them, in one spelling ("0.0:1.0s" and "0:1" alike, "8f"
 * frames); malloc()ed, NULL when it is no such value. */
char *build_author_split_spelt_alike(const char *arg);
bool build_author_root_motion(build_author_options *a, const char *arg, cli_error *err);
bool build_author_up_axis(build_author_options *a, const char *arg, cli_error *err);
bool build_author_additive(build_author_options *a, const char *arg, cli_error *err);
/* The options together, as animc build and animc plot both check them once
 * parsed: --clips and --split contradict each other, --up-axis needs
 * --root-motion.  False with *err filled (a usage error). */
bool build_author_check(const build_author_options *a, cli_error *err);
void build_author_release(build_author_options *a);

/* The sidecar path of a source ("dir/STEM_Anims.xml"), malloc()ed. */
char *build_sidecar_path(const char *source);

/* The file at `path` is named as the sidecar of a sibling but for letter
 * case (walker_anims.xml beside Walker.xml), which a file system that
 * ignores case (Windows, macOS) takes for that sidecar: the sibling's name
 * (the first in byte order), malloc()ed, or NULL. */
char *build_sidecar_source_but_case(const char *path);

/* The sibling whose sidecar folder entry `name` is named as (it ends in
 * BUILD_SIDECAR_SUFFIX, the sibling's stem before it), or NULL. */
const char *build_sidecar_named(const char *name, const char *const *siblings, size_t count);

/* Whether folder entry `name` is the sidecar of a sibling: it ends in
 * BUILD_SIDECAR_SUFFIX, a sibling's stem is what comes before, and the file
 * (dir/name) holds an AnimationDefinition.  *source gets that sibling. */
bool build_sidecar_of(const char *dir, const char *name, const char *const *siblings, size_t count,
		      const char **source);

/* The sidecar a source would be split by now (its path, malloc()ed), or
 * NULL: none beside it, or --clips/--split take its place. */
char *build_author_sidecar(const build_author_options *a, const char *source, bool is_explicit);

/* What an authoring step tells compile. */
typedef struct build_author_hooks {
	void (*on_file_read)(void *user, const char *path);  /* a file whose bytes join the key */
	/* The source was cut into parts, `by` "--split", "--clips" or the
	 * sidecar's path. */
	void (*on_cut)(void *user, const char *by);
	void *user;
	/* A part a document (a sidecar, --clips) names, and its line there:
	 * what is said of the part's name is said there. */
	void (*on_part)(void *user, const char *name, const char *path, uint32_t line);
} build_author_hooks;

/*
 * The authoring passes for one source's imported clips, in order: the split
 * (--clips or --split for a source named on the command line, else its
 * sidecar when there is one), then root motion and additive.  `set` holds
 * what the import gave; on return its clips are the ones to process and
 * write.  Files read (the sidecar, --clips) go to hooks->on_file_read.
 * Errors are reported to `sink`.
 */
animc_status build_author_apply(const build_author_options *a, const char *source, bool is_explicit,
				animc_clip_set *set, animc_diag_sink *sink, const build_author_hooks *hooks);

/* Where --root-motion's bone sits, for build_author_finish. */
typedef struct build_author_frame {
	bool is_turned;       /* turn holds the turn of the default up axis: */
	double turn[4];       /* a unit quaternion x y z w */
	/* A clip of the source animates the bone; the caller may set it
	 * when the --skeleton model has it. */
	bool knows_bone;
	/* The up axis of the world the turn starts from: the --skeleton
	 * model's when its tree decides; ANIMC_UP_DEFAULT: the clip's own
	 * (animc_clip_up_axis). */
	animc_up_axis world_up;
} build_author_frame;

/*
 * The frame of --root-motion's bone: the turn of its default up axis from
 * the model's frame into the one its keys are in, its parent's (the
 * inverse of its parents' rest rotation in `model`, the --skeleton model,
 * when that has the bone, else in the node tree `importer` reads from
 * `path`; an Armature node turned -90 degrees about x makes a Y-up model's
 * up z there; the model's world is then its own up axis, Y unless it
 * declares another), then `units_turn` (--rotate; NULL: none); and
 * whether a clip of `set` animates the bone.  `set` holds every clip of
 * the source (before --clip chooses: what the source holds does not
 * depend on it).  The tree is read only for the default up axis; one that
 * cannot be read is a root-motion-frame warning.  Zeroed without
 * --root-motion.
 */
void build_author_frame_of(const build_author_options *a, const animc_clip_set *set, const animc_importer *importer,
			   const char *path, const animc_skeleton *model, const double *units_turn,
			   build_author_frame *out, animc_diag_sink *sink);

/*
 * The passes after --clip has chosen the clips: root motion (*motions gets
 * set->count entries, each the motion clip of the clip at its index, or
 * NULL; release with build_author_motions_release) and additive.  The up
 * axis defaults by source (animc_clip_up_axis: the one it declares, else
 * z for RobotGame sequences and y for the rest), turned by `frame`
 * (build_author_frame_of; NULL: not turned) into the bone's parent frame.
 * A default it turns off every axis fails the source, asking for
 * --up-axis.  A clip that does not animate the bone, when another clip
 * of the source does (or frame->knows_bone: the --skeleton model has it), gets a
 * motion of none (a note); when none does, each fails, naming the bone.
 * `skeleton` is the --skeleton model (NULL without); `reference` the
 * --additive-reference clip (build_author_reference); `rest` the source's
 * own node tree, whose rest pose references the bones `reference` does not
 * animate (NULL when the source has none, or none is needed).
 */
animc_status build_author_finish(const build_author_options *a, animc_clip_set *set,
				 const animc_skeleton *skeleton, const animc_clip *reference,
				 const animc_skeleton *rest, const build_author_frame *frame, animc_clip ***motions,
				 animc_diag_sink *sink);
/* The --additive-reference clip of `set` as the import gave it (before
 * --clip chose the clips to write, so that the reference need not be one
 * of them), into *out (NULL when the reference is no clip); release with
 * animc_clip_destroy.  ANIMC_ERR_NOT_FOUND (reported) when `set` has no
 * such clip. */
animc_status build_author_reference(const build_author_options *a, const animc_clip_set *set, animc_clip **out,
				    animc_diag_sink *sink);
/* Whether a clip of `set` animates a bone the --additive-reference clip
 * `reference` (NULL: none) does not: only then is a rest pose needed. */
bool build_author_reference_lacks(const animc_clip_set *set, const animc_clip *reference);
void build_author_motions_release(animc_clip **motions, uint32_t count);

/* What an additive clip is the difference from, as the report says it:
 * "first-frame", "bind" or the clip's name; NULL without the option. */
const char *build_author_additive_name(const build_author_options *a);
/* What splits a source now, as the report names it: the sidecar's or
 * --clips's path, "--split", or NULL (malloc()ed). */
char *build_author_split_by(const build_author_options *a, const char *source, bool is_explicit);

/* The name of the motion output of a clip output ("Walk/Run.xnb" ->
 * "Walk/Run.motion.xnb"), malloc()ed. */
char *build_motion_name(const char *clip_output);

#endif
