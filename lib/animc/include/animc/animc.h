/*
 * animc.h - the offline side of animc: status codes, diagnostics, the clip
 * model every importer produces, its validity rule and the processor passes.
 *
 * Usage:
 *
 *     animc_diag_sink sink = { .fn = print_diag, .path = "Walk.Animation" };
 *     animc_clip_set set = {0};
 *     if (importer->import(&request, &set, &sink) == ANIMC_OK) {
 *         animc_process_options opts = {0};            // zero = lossless defaults
 *         for (uint32_t i = 0; i < set.count; i++)
 *             animc_clip_process(set.clips[i], &opts, &sink, NULL);
 *     }
 *     animc_clip_set_release(&set);
 *
 * Conventions, written once: times and durations in seconds (float), vectors
 * x y z, quaternions x y z w of unit length, one channel per animated bone.
 *
 * Ownership: a clip owns everything reachable from it (one arena, one channel
 * array); animc_clip_destroy() frees it all.  A clip set owns its clips.
 * Every release/destroy function accepts NULL or a zeroed struct.
 *
 * The library never prints and never exits: problems are returned as an
 * animc_status and described through the caller's animc_diag_sink.
 *
 * Threads: the library keeps no state between calls (Assimp's reads take
 * turns, see animc_importer_assimp), so threads may run it at once, each
 * with its own clips, sets and sink; what a call takes as const (a
 * skeleton, a split, a reference clip, options) may be shared while
 * nothing changes it (animc_skeleton_index does).
 */
#ifndef ANIMC_H
#define ANIMC_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ANIMC_VERSION_MAJOR 0
#define ANIMC_VERSION_MINOR 5
#define ANIMC_VERSION_PATCH 0
#define ANIMC_VERSION_STRING "0.5.0"

/* ------------------------------------------------------------------ status */

typedef enum animc_status {
	ANIMC_OK = 0,
	ANIMC_ERR_NOMEM,       /* an allocation failed */
	ANIMC_ERR_IO,          /* a file could not be read or written */
	ANIMC_ERR_PARSE,       /* the source is not well-formed in its syntax */
	ANIMC_ERR_INVALID,     /* well-formed, but breaks an invariant of the clip model */
	ANIMC_ERR_UNSUPPORTED, /* a kind of input or option this build does not handle */
	ANIMC_ERR_LIMIT,       /* a size beyond what the format or the tool allows */
	ANIMC_ERR_NOT_FOUND,   /* a named thing (clip, bone) is not there */
	ANIMC_ERR_ARGUMENT,    /* a caller passed an impossible argument */
	ANIMC_STATUS_COUNT
} animc_status;

/* A short lowercase description of a status; never NULL. */
const char *animc_status_string(animc_status status);

/* ------------------------------------------------------------- diagnostics */

typedef enum animc_severity {
	ANIMC_NOTE = 0,
	ANIMC_WARNING,
	ANIMC_ERROR
} animc_severity;

typedef struct animc_diag {
	animc_severity severity;
	const char *path;     /* the input it is about; may be NULL */
	uint32_t line;        /* 1-based; 0 when the problem has no line */
	uint32_t column;      /* 1-based; 0 when unknown */
	int64_t byte_offset;  /* for binary input; -1 when unknown */
	const char *message;  /* lowercase, names the thing that failed in quotes */
	/* A warning's kind, a short kebab-case name of animc_warning_kinds
	 * ("unknown-element"); NULL for errors, notes and warnings of none. */
	const char *kind;
} animc_diag;

/*
 * Every kind of warning animc gives, named so that a build can allow one
 * it has checked (`animc build --allow KIND`).  The names are stable: a
 * kind is added, never renamed.
 */
typedef enum animc_warning_kind {
	ANIMC_WARN_NONE = 0,
	/* a source's */
	ANIMC_WARN_NOT_UNIT_QUATERNION,
	ANIMC_WARN_NON_NODE_TARGET,
	ANIMC_WARN_UNKNOWN_TARGET_PATH,
	ANIMC_WARN_DUPLICATE_CHANNEL,
	ANIMC_WARN_ANIMATED_MATRIX,
	ANIMC_WARN_BONE_NAME_CLASH,
	ANIMC_WARN_NOT_UTF8,
	ANIMC_WARN_UNKNOWN_NODE,
	ANIMC_WARN_ASSUMED_TICK_RATE,
	ANIMC_WARN_FILE_NOT_READ,
	ANIMC_WARN_KEYS_OUT_OF_ORDER,
	ANIMC_WARN_SHARED_KEY_TIME,
	ANIMC_WARN_WRONG_SEQUENCE_COUNT,
	ANIMC_WARN_MISSING_SEQUENCE_COUNT,
	ANIMC_WARN_UNKNOWN_ELEMENT,
	ANIMC_WARN_KEYS_PAST_DURATION,
	ANIMC_WARN_EMPTY_CLIP,
	ANIMC_WARN_SKELETON_MISMATCH,
	ANIMC_WARN_SHORT_CLIP,
	ANIMC_WARN_ZERO_LENGTH_SPAN,
	ANIMC_WARN_EXACT_UNPLAYABLE,
	ANIMC_WARN_CLIP_NAME_CLASH,
	ANIMC_WARN_TOLERANCE_NOT_MET,
	ANIMC_WARN_TOO_LONG_TO_MEASURE,
	ANIMC_WARN_COMPACT_DECLINED,
	ANIMC_WARN_UNTURNED_ROOT,
	ANIMC_WARN_XML,
	ANIMC_WARN_IMPORTER_OUTPUT,
	ANIMC_WARN_UNREADABLE,
	ANIMC_WARN_OUTPUT_TAKEN_OVER,
	ANIMC_WARN_SIDECAR_UNUSED,
	ANIMC_WARN_REFERENCE_LACKS_BONE,
	ANIMC_WARN_WRONG_FRAME_COUNT,
	ANIMC_WARN_SHEARED_SCALE,
	ANIMC_WARN_TICK_RATE_NOT_APPLIED,
	ANIMC_WARN_STEPPED_KEYS,
	ANIMC_WARN_KEYS_BEFORE_ZERO,
	ANIMC_WARN_ASSIMP_ERROR,
	/* the run's own (they fail no build) */
	ANIMC_WARN_CACHE,
	ANIMC_WARN_MANIFEST,
	ANIMC_WARN_JOURNAL,
	ANIMC_WARN_OUTPUT_LEFT,
	/* a --mgcb project's (they stop a build under --warnings-as-errors) */
	ANIMC_WARN_UNKNOWN_SWITCH,
	ANIMC_WARN_UNKNOWN_PARAMETER,
	/* the run's own again: animc clean's, animc watch's */
	ANIMC_WARN_NOTHING_TO_CLEAN,
	ANIMC_WARN_INPUT_GONE,
	ANIMC_WARN_PROJECT_CHANGED,
	/* the run's own: an output folder inside an input that holds sources */
	ANIMC_WARN_OUTPUT_HOLDS_SOURCES,
	/* a build's, of two sources whose outputs differ only in case */
	ANIMC_WARN_OUTPUT_NAME_CASE,
	/* --root-motion could not read the node tree that places its bone */
	ANIMC_WARN_ROOT_MOTION_FRAME,
	/* a source's: the content of a list marked xsi:nil, ignored */
	ANIMC_WARN_NIL_CONTENT,
	/* an FBX source's, where Assimp reads it wrongly or leaves it out */
	ANIMC_WARN_ZERO_SCALE_KEY,
	ANIMC_WARN_KEYS_OUTSIDE_TAKE,
	ANIMC_WARN_ANIMATION_LAYERS,
	ANIMC_WARN_EMPTY_TAKE,
	ANIMC_WARN_INHERIT_TYPE,
	ANIMC_WARN_EULER_BETWEEN_KEYS,
	/* a source's: an .X matrix key that shears */
	ANIMC_WARN_SHEARED_KEY,
	/* an FBX source's: a bone of RotationActive 0 Assimp turns in another order */
	ANIMC_WARN_ROTATION_ACTIVE,
	/* an XNA source's: bones numbered, no --skeleton to name them */
	ANIMC_WARN_NUMBERED_BONES,
	/* the run's own: no worker process could be started */
	ANIMC_WARN_NO_WORKER,
	ANIMC_WARN_KIND_COUNT
} animc_warning_kind;

typedef struct animc_warning_kind_info {
	const char *name;         /* "unknown-element" */
	const char *description;  /* one line */
} animc_warning_kind_info;

/* The kind's name and description; NULL for ANIMC_WARN_NONE and past the
 * last. */
const animc_warning_kind_info *animc_warning_kind_at(animc_warning_kind kind);
/* The kind named `name` (exactly), else ANIMC_WARN_NONE. */
animc_warning_kind animc_warning_kind_find(const char *name);

typedef void (*animc_diag_fn)(void *user, const animc_diag *diag);

/*
 * Where diagnostics go.  Zero-initialised, it only counts.  `path` is attached
 * to every diagnostic reported through it.  The counters are the caller's to
 * read (and reset).
 */
typedef struct animc_diag_sink {
	animc_diag_fn fn;
	void *user;
	const char *path;
	uint32_t error_count;
	uint32_t warning_count;
} animc_diag_sink;

/* Report at a line and column (0 when unknown).  `sink` may be NULL. */
void animc_diag_report(animc_diag_sink *sink, animc_severity severity,
		       uint32_t line, uint32_t column, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void animc_diag_vreport(animc_diag_sink *sink, animc_severity severity,
			uint32_t line, uint32_t column, int64_t byte_offset,
			const char *fmt, va_list ap);
/* Report at a byte offset of binary input. */
void animc_diag_report_at(animc_diag_sink *sink, animc_severity severity,
			  int64_t byte_offset, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* As animc_diag_report and animc_diag_vreport, for a warning of a kind
 * (the kind is dropped when severity is not ANIMC_WARNING). */
void animc_diag_report_kind(animc_diag_sink *sink, animc_severity severity, animc_warning_kind kind,
			    uint32_t line, uint32_t column, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
void animc_diag_vreport_kind(animc_diag_sink *sink, animc_severity severity, animc_warning_kind kind,
			     uint32_t line, uint32_t column, int64_t byte_offset,
			     const char *fmt, va_list ap);

/* ------------------------------------------------------------------ arena */

/* A bump allocator: many allocations, one release.  Zero-initialised = empty. */
typedef struct animc_arena {
	struct animc_arena_block *head;
	size_t total_bytes;
} animc_arena;

/* 16-byte aligned, zero-filled memory, or NULL when out of memory or when
 * `count * size` overflows. */
void *animc_arena_alloc(animc_arena *arena, size_t count, size_t size);
char *animc_arena_strndup(animc_arena *arena, const char *s, size_t len);
void animc_arena_release(animc_arena *arena);

/* ------------------------------------------------------------- clip model */

typedef enum animc_track_kind {
	ANIMC_TRANSLATION = 0, /* Vector3 x y z */
	ANIMC_ROTATION = 1,    /* Quaternion x y z w, unit length */
	ANIMC_SCALE = 2,       /* Vector3 x y z */
	ANIMC_TRACK_COUNT
} animc_track_kind;

/* Floats per value of each track kind: 3, 4, 3. */
extern const uint32_t animc_track_width[ANIMC_TRACK_COUNT];
/* "translation", "rotation", "scale". */
extern const char *const animc_track_name[ANIMC_TRACK_COUNT];

/*
 * One track of a channel.  Two shapes:
 *  - on the channel timeline (times_s == NULL): value_count is the channel's
 *    key_count, or 1 when is_fixed (one value for every key);
 *  - with its own keys (times_s != NULL, as Assimp gives them): value_count
 *    keys at times_s[i]; the merge pass moves such tracks onto the channel
 *    timeline.  A fixed track never has its own times.
 * An absent track (is_present false) has no values; it samples as identity.
 * is_fixed is kept for absent tracks too, because the original format stores
 * the flag independently and exact mode reproduces it.
 */
typedef struct animc_track {
	bool is_present;
	bool is_fixed;
	uint32_t value_count;
	float *values;   /* value_count * animc_track_width[kind] floats */
	float *times_s;  /* NULL, or value_count key times */
} animc_track;

/*
 * One bone's animation: the original KeyFrameSequence.  Keys lie either at
 * explicit times (has_time, times_s[key_count]) or uniformly at
 * i * key_interval_s.
 */
typedef struct animc_channel {
	const char *bone;
	uint32_t key_count;
	bool has_time;
	float *times_s;         /* key_count entries when has_time, else NULL */
	float key_interval_s;
	float duration_s;
	animc_track tracks[ANIMC_TRACK_COUNT];
	uint32_t line;          /* where the source defines it; 0 when unknown */
} animc_channel;

/* An up axis: of the ground plane root motion lies in, or the one a
 * source declares. */
typedef enum animc_up_axis {
	ANIMC_UP_DEFAULT = 0,      /* none given: the source's */
	ANIMC_UP_X,
	ANIMC_UP_Y,
	ANIMC_UP_Z
} animc_up_axis;

/*
 * A clip: the original AnimationSequence.  Memory: `arena` owns the name,
 * bone names and all key arrays; `channels` is a separate array that
 * animc_clip_add_channel() grows (so hold channel indices, not pointers,
 * while adding).
 */
typedef struct animc_clip {
	const char *name;               /* "" when the source names none */
	float duration_s;
	double ticks_per_second;        /* the rate the source's tick times used; 0 if none */
	double frame_rate;              /* the frames per second the source keys at, where its
					 * format says (FBX's time mode, BVH's frame time); 0 if none;
					 * below 0 when it keys in frames of a rate it does not say
					 * (FBX's default time mode): no frame is guessed */
	int64_t declared_channel_count; /* the count the source states; -1 if none */
	uint32_t channel_count;
	uint32_t channel_capacity;
	animc_channel *channels;
	uint32_t line;                  /* where the source defines it; 0 when unknown */
	/* The source spells out the KeyFrameSequences themselves (a RobotGame
	 * AnimationSequence, in either XML dialect): what the original XNA
	 * pipeline compiled, so exact mode reproduces its bytes.  A part cut
	 * from one (animc_clip_set_split) keeps it, and with it the source's
	 * conventions: Z is up (the root motion's default). */
	bool is_sequence_source;
	/* The up axis of the source's world frame, where it declares one
	 * that its reader keeps (FBX's UpAxis), the root motion's default;
	 * ANIMC_UP_DEFAULT when none (then Z for a sequence source, Y for the
	 * rest).  A part keeps its take's. */
	animc_up_axis declared_up;
	/* The compact layout's encoding of the clip, set by animc_pass_compact
	 * (in the clip's arena); the writer writes reader version 3 when it is
	 * there.  NULL otherwise. */
	const struct animc_compact *compact;
	/* Stored as its difference from a reference pose (animc_clip_make_additive):
	 * a layer for animrt_pose_add. */
	bool is_additive;
	/* With is_additive: each channel's reference pose, in the channels'
	 * order (translation, rotation x y z w, scale; in the clip's arena),
	 * the pose the layer is added onto.  The rigid-shell error of the
	 * lossy passes is measured on reference + layer, the pose a game
	 * sees, not on the differences.  NULL when not known. */
	const float (*additive_reference)[ANIMC_TRACK_COUNT][4];
	animc_arena arena;
} animc_clip;

/* A new empty clip named `name` (copied; NULL means ""), or NULL when out of memory. */
animc_clip *animc_clip_create(const char *name);
void animc_clip_destroy(animc_clip *clip);

/* Append a zeroed channel for `bone` (copied); returns its index, or -1 when
 * out of memory or past the limit of 2^31-1 channels. */
int64_t animc_clip_add_channel(animc_clip *clip, const char *bone, size_t bone_len);

/* Allocate `count` values of a track kind (count * width floats) from the
 * clip's arena; NULL on overflow or out of memory. */
float *animc_clip_alloc_values(animc_clip *clip, animc_track_kind kind, size_t count);
float *animc_clip_alloc_floats(animc_clip *clip, size_t count);

/* "clip 'run': bone 'L Calf': " into buf, for messages about a clip or one of
 * its channels (channel may be NULL; parts omitted when empty), cut to fit
 * `size` bytes as snprintf cuts; nothing written when size is 0. */
void animc_clip_where(const animc_clip *clip, const animc_channel *channel,
		      char *buf, size_t size);
/* Report about a clip or one of its channels (channel may be NULL, and
 * clip too: no prefix then): the message behind animc_clip_where's prefix,
 * at the channel's line, else the clip's (0 without a clip). */
void animc_clip_report(animc_diag_sink *sink, animc_severity severity, const animc_clip *clip,
		       const animc_channel *channel, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void animc_clip_vreport(animc_diag_sink *sink, animc_severity severity, const animc_clip *clip,
			const animc_channel *channel, const char *fmt, va_list ap);
/* The same for a warning of a kind. */
void animc_clip_report_kind(animc_diag_sink *sink, animc_severity severity, animc_warning_kind kind,
			    const animc_clip *clip, const animc_channel *channel, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
void animc_clip_vreport_kind(animc_diag_sink *sink, animc_severity severity, animc_warning_kind kind,
			     const animc_clip *clip, const animc_channel *channel, const char *fmt, va_list ap);

/* The clips one source holds. */
typedef struct animc_clip_set {
	animc_clip **clips;
	uint32_t count;
	uint32_t capacity;
	bool is_single_asset; /* the source's asset is one clip: output is <stem>.xnb */
	/* When an import finds no animation (ANIMC_ERR_NOT_FOUND): what the
	 * source holds instead, as the object of "holds ...", for messages
	 * ("an XnaContent asset of type 'Graphics.FontDescription', not
	 * animation"); "" when the importer does not say. */
	char holds[256];
} animc_clip_set;

/* Takes ownership of `clip` (destroyed on failure too). */
animc_status animc_clip_set_add(animc_clip_set *set, animc_clip *clip);
/* Remove and destroy clip `index`, keeping the order of the others. */
void animc_clip_set_remove(animc_clip_set *set, uint32_t index);
void animc_clip_set_release(animc_clip_set *set);

/*
 * Give clips that share a name distinct names, so that each one is written:
 * the first keeps the name, the later ones get a suffix in source order,
 * "arms_up", "arms_up.1", "arms_up.2", ... (skipping a suffix another clip
 * of the set already uses as its name).  One warning per shared name
 * lists what they became.  Unnamed clips ("") are left alone.  Returns
 * ANIMC_ERR_NOMEM when a name cannot be allocated.
 */
animc_status animc_clip_set_name_unique(animc_clip_set *set, animc_diag_sink *sink);

/* --------------------------------------------------------------- skeleton */

/*
 * A bone of a model's node tree with its rest (bind) transform relative to
 * its parent.  `local` is the 4x4 matrix in XNA's convention: row vectors,
 * M11..M44 row by row, translation in local[12..14]; translation, rotation
 * (x y z w) and scale are its decomposition.
 */
typedef struct animc_bone {
	const char *name;
	int32_t parent;        /* index of the parent bone; -1 for a root */
	float local[16];
	float translation[3];
	float rotation[4];
	float scale[3];
} animc_bone;

/*
 * The bones of a model, in depth-first pre-order, root first: the order in
 * which XNA's model processor numbered them.  `arena` owns the names; `bones`
 * is one allocation.  Zero-initialised = empty.
 */
typedef struct animc_skeleton {
	animc_bone *bones;
	uint32_t bone_count;
	/* The up axis of the model's world, where its file declares one that
	 * its reader keeps (FBX's UpAxis); ANIMC_UP_DEFAULT otherwise. */
	animc_up_axis declared_up;
	animc_arena arena;
	/* The bones by name (animc_skeleton_index); NULL: the lookups walk
	 * every bone. */
	struct animc_skeleton_names *names;
} animc_skeleton;

void animc_skeleton_release(animc_skeleton *skeleton);

/* Sort the bones' names, so that each lookup (animc_skeleton_find,
 * animc_skeleton_check) takes log time, not a walk through every bone (a
 * whole scene's 40,000 nodes given as the model took seconds per clip).
 * animc_skeleton_load calls it; again after the bones change.
 * ANIMC_ERR_NOMEM. */
animc_status animc_skeleton_index(animc_skeleton *skeleton);

/* Index of the first bone named `name` (exactly, else once surrounding
 * whitespace is left out of both names), or -1. */
int64_t animc_skeleton_find(const animc_skeleton *skeleton, const char *name);

/* Every bone a clip animates exists in the skeleton; where some do not,
 * one error names the clip, how many, and the first few of them
 * (ANIMC_ERR_NOT_FOUND).  A bone that names more than one bone of the
 * skeleton is a bone-name-clash warning (it binds to the first). */
animc_status animc_skeleton_check(const animc_skeleton *skeleton, const animc_clip *clip,
				  animc_diag_sink *sink);

/* ------------------------------------------------------------ units, axes */

/*
 * Units and axes, as MonoGame's ModelProcessor converts a model (its Scale
 * and RotationX/Y/Z, MeshHelper.TransformScene): T is the rotation about Z
 * first, then X, then Y (degrees), then the uniform scale (row vectors: Rz
 * * Rx * Ry * scale), and every bone's transform and every key K becomes
 * inverse(T) * K * T, so that the whole model turns about its origin and
 * a clip fits a model processed with the same parameters.  Zeroed =
 * identity (scale 0 means 1).
 */
typedef struct animc_units {
	double scale;
	double rotation_deg[3];   /* about X, Y, Z */
} animc_units;

bool animc_units_is_identity(const animc_units *units);   /* NULL: true */
bool animc_units_has_rotation(const animc_units *units);
/* The rotation as a unit quaternion x y z w (Rz, then Rx, then Ry). */
void animc_units_rotation(const animc_units *units, double out[4]);
/*
 * Convert a clip's keys in place, every channel alike: translation t *
 * R * scale, rotation R * q * conjugate(R) (Hamilton), scale
 * inverse(R) * S * R, which is a scale (its components permuted) when S
 * is uniform or R turns by quarter turns.  A mirror (one size, signs
 * apart) keeps its scale and the rest of its turn goes into the rotation
 * (a rotation track made if need be); another scale keeps its diagonal,
 * the nearest a scale key holds, and an ANIMC_WARN_SHEARED_SCALE warning
 * names the bone.  Absent tracks stay absent.  ANIMC_ERR_ARGUMENT when the scale
 * is not finite and positive or an angle not finite; nothing changes then.
 */
animc_status animc_clip_apply_units(animc_clip *clip, const animc_units *units, animc_diag_sink *sink);
/* The same for a model's rest transforms: `local` exactly (inverse(T) *
 * local * T), its decomposition as a clip's keys are, a rest scale turned
 * off its axes said to `sink` (may be NULL) as ANIMC_WARN_SHEARED_SCALE. */
animc_status animc_skeleton_apply_units(animc_skeleton *skeleton, const animc_units *units,
					animc_diag_sink *sink);

/* ----------------------------------------------------------------- strings */

/*
 * The compiled format's rule for strings (bone and reader names): UTF-8
 * without NUL bytes, shortest forms, no surrogates, nothing past U+10FFFF.
 * True when s[0..size) follows it; else *bad (may be NULL) is the offset of
 * the first byte at fault.
 */
bool animc_utf8_check(const char *s, size_t size, size_t *bad);

/*
 * UTF-16 text, `size` bytes little- or big-endian without a byte-order mark,
 * as UTF-8 into `out`, which holds at least size / 2 * 3 bytes: the number
 * of bytes written.  An unpaired surrogate becomes U+FFFD, as libxml2 and
 * .NET read it; a surrogate pair or a unit cut by the end is left out.
 */
size_t animc_utf16_to_utf8(const uint8_t *data, size_t size, bool is_big_endian, uint8_t *out);

/* The UTF-8 form of the code point c (at most U+10FFFF) into out, which holds
 * 4 bytes: its length. */
size_t animc_utf8_put(uint8_t *out, uint32_t c);

/* ------------------------------------------------------------ validation */

typedef enum animc_validate_stage {
	/* After import: tracks may still have their own key times. */
	ANIMC_STAGE_IMPORTED = 0,
	/* Before write: every track on its channel timeline, as the format needs. */
	ANIMC_STAGE_WRITABLE
} animc_validate_stage;

#define ANIMC_UNIT_QUAT_TOLERANCE 1e-3f

/*
 * The validity rule of a clip, stated once:
 *  - every float finite; clip and channel durations >= 0; key_interval_s >= 0;
 *  - key_count >= 1; a uniform channel with more than one key and a
 *    non-fixed present track has key_interval_s > 0;
 *  - has_time: key_count times, >= 0, non-decreasing; otherwise no times;
 *  - a present track on the timeline has key_count values, 1 when fixed;
 *    an absent one none;
 *  - a track with its own times (IMPORTED stage only): >= 1 keys, times >= 0
 *    and strictly increasing, not fixed;
 *  - rotations unit length within ANIMC_UNIT_QUAT_TOLERANCE;
 *  - bone names UTF-8 (the format's strings; animc_utf8_check);
 *  - with `require_declared_count`, declared_channel_count equals channel_count.
 * Every breach is reported (naming clip and bone); returns ANIMC_ERR_INVALID
 * when there is any.
 */
typedef struct animc_validate_options {
	animc_validate_stage stage;
	bool require_declared_count;
} animc_validate_options;

animc_status animc_clip_validate(const animc_clip *clip,
				 const animc_validate_options *options,
				 animc_diag_sink *sink);

/* ------------------------------------------------------------ playability */

/* The shortest sequence Duration animc writes, in seconds: one frame at
 * 60 Hz, where looping costs the original runtime one subtraction a frame
 * (FORMAT.md section 2.1). */
#define ANIMC_MIN_DURATION_S (1.0f / 60)
/* The most KeyInterval steps a uniform sequence's Duration may span. */
#define ANIMC_MAX_INTERVAL_STEPS 1e7

/*
 * The playability rule, stated once: what the original runtime (RobotGame's
 * KeyFrameSequence driven by AnimationBinder; FORMAT.md section 2.1) needs
 * to play every sequence of a clip, in both play modes, without looping
 * forever or computing NaN:
 *  - Duration >= ANIMC_MIN_DURATION_S: Repeat wraps the time by subtracting
 *    the Duration in a loop, which never ends for 0 (and hardly for a tiny
 *    one);
 *  - uniform keys (HasTime false), one key included: KeyInterval > 0 and
 *    Duration / KeyInterval <= ANIMC_MAX_INTERVAL_STEPS: the key index is
 *    (int)(t / KeyInterval) and the weight a subtraction loop by KeyInterval;
 *  - explicit times: two keys share a time only at the end of the sequence,
 *    and not at its start above 0: the weight is (t - T1) / (T2 - T1);
 *  - explicit times, more than one key: the first at 0: before it the
 *    original extrapolates the first span back (a weight below 0), where
 *    animrt.h's rule holds the first key;
 *  - translation and scale (not fixed): two consecutive keys differ by at
 *    most what a float holds in each component: the lerp is a + (b - a) u,
 *    infinity between them otherwise, and NaN at the first (u = 0).
 * Reports each breach at `severity`, naming clip and bone, and returns
 * ANIMC_ERR_INVALID when there is any.  The clip must pass validation.
 */
animc_status animc_clip_check_playable(const animc_clip *clip, animc_severity severity,
				       animc_diag_sink *sink);

/* --------------------------------------------------------------- passes */

/* ------------------------------------------------------------- reduction */

/*
 * Bounds of the error against the source, per track: translation in model
 * units (distance), rotation in degrees (angle of the relative rotation),
 * scale absolute (largest component difference).  All zero: lossless.
 * Each a number from 0 to 1e30: animc_clip_process, animc_pass_reduce and
 * animc_pass_compact refuse a NaN, negative or larger one with
 * ANIMC_ERR_ARGUMENT, naming it, before changing anything.
 */
typedef struct animc_tolerance {
	float translation;
	float rotation_deg;
	float scale;
} animc_tolerance;

/* `--tolerance default`. */
#define ANIMC_TOLERANCE_TRANSLATION 1e-3f
#define ANIMC_TOLERANCE_ROTATION_DEG 0.05f
#define ANIMC_TOLERANCE_SCALE 1e-4f

/* True when any bound is above zero (the lossy passes run). */
bool animc_tolerance_is_set(const animc_tolerance *tolerance);

/* The error of value a against value b of a track of `kind`, in its bound's
 * unit above: what the lossy passes measure and -v reports.  Rotations are
 * x y z w and need not be of unit length. */
double animc_track_error(animc_track_kind kind, const float *a, const float *b);

/* The worst error a lossy pass left against its source, measured where the
 * runtime samples (every key and halfway between), and the keys it kept. */
typedef struct animc_clip_error {
	double translation;       /* model units */
	double rotation_deg;
	double scale;
	double shell;             /* with a skeleton: model-space shell error, units */
	uint64_t keys_before;     /* keys of non-constant tracks, source */
	uint64_t keys_after;      /* the same, output */
	/* The original layout: sequences written with every key (uniform
	 * timing, or times where the source's were uneven), with every m-th
	 * key (a coarser uniform interval), with fewer keys evenly spaced
	 * anew (resampled), and with fewer keys and their times; each the
	 * smallest of the four that holds the bounds, but uniform keys stay
	 * unless the timed ones save more than 3% (formats/xnb/FORMAT.md
	 * section 6). */
	uint32_t sequences_lossless, sequences_coarser, sequences_timed;
	uint32_t sequences_resampled;
	/* The compact layout: tracks stored as identity, as one constant,
	 * as keys at one bit rate for the track, and as keys with a bit rate
	 * per segment; and the grid's step as a fraction of the keys' spacing
	 * (grid_finer: 2^grid_finer times finer; 0 on the keys' own grid). */
	uint32_t tracks_identity, tracks_constant, tracks_keyed, tracks_segmented;
	uint32_t grid_finer;
} animc_clip_error;

/* Options of the lossy passes; zeroed = nothing to do. */
typedef struct animc_reduce_options {
	animc_tolerance tolerance;
	/* With a skeleton, the translation bound applies in model space
	 * through the bone hierarchy, to points on a rigid shell
	 * shell_distance (model units, > 0) around each bone; NULL: each
	 * track on its own, in local space. */
	const animc_skeleton *skeleton;
	float shell_distance;
	/* A root motion (animc_clip_extract_motion), which a game adds once
	 * per loop: every track keeps its first and last key as they are, and
	 * a component zero at every key of a track (the up axis of a
	 * translation; an axis a yaw does not turn about) stays zero.  The
	 * compact layout's quantised keys cannot: animc_clip_process writes
	 * such a clip in the original layout (a compact-declined warning). */
	bool keep_ends;
} animc_reduce_options;

/* What the passes changed, for reporting.  Zeroed by the caller. */
typedef struct animc_pass_stats {
	uint32_t channels_sorted;      /* keys were out of time order */
	uint32_t duplicate_keys_dropped;
	uint32_t tracks_made_fixed;
	uint32_t channels_merged;      /* tracks with their own times put on one timeline */
	uint32_t channels_made_uniform;
	uint32_t channels_collapsed;   /* every track fixed: down to one key */
	uint32_t rotations_flipped;    /* put on the previous key's hemisphere */
	uint32_t keys_trimmed;         /* own-time keys outside [0, duration] dropped */
	uint32_t intervals_set;        /* one-key uniform sequences given KeyInterval = Duration */
	uint32_t channels_given_times; /* uniform keys too dense for the original: explicit times */
	uint32_t shared_times_split;   /* runs of keys at one time taken apart */
	uint32_t durations_lengthened; /* sequences (and clips) raised to ANIMC_MIN_DURATION_S */
	bool declared_count_corrected;
	bool is_reduced;               /* a lossy pass ran: `error` holds its result */
	/* ANIMC_LAYOUT_COMPACT: the layout could not hold the clip, or held
	 * it only on a grid finer than the keys' spacing in more bytes, and
	 * the clip went to the original layout instead (animc_clip_process).  After
	 * is_reduced, in what was padding, so that results recorded before
	 * it read the same. */
	bool compact_declined;
	animc_clip_error error;
} animc_pass_stats;

/*
 * Sort keys by time, stably.  Channel timelines: the keys of every non-fixed
 * track move with their times; equal times are legal and kept.  Tracks with
 * their own times: sorted, and of keys at one time the last one wins (both
 * repairs warn, naming clip and bone).
 */
animc_status animc_pass_sort(animc_clip *clip, animc_diag_sink *sink, animc_pass_stats *stats);

/*
 * A present, non-fixed track whose values all equal its first one (bit for
 * bit, so the pass is lossless) becomes fixed.  A channel left with no
 * non-fixed track collapses to one key.
 */
animc_status animc_pass_fixed(animc_clip *clip, animc_diag_sink *sink, animc_pass_stats *stats);

/*
 * Put every track with its own times on its channel's timeline: the union of
 * their key times, each track evaluated where it lacks a key (lerp, shortest
 * arc slerp; clamped outside its keys), consecutive rotations on one
 * hemisphere.
 */
animc_status animc_pass_merge(animc_clip *clip, animc_diag_sink *sink, animc_pass_stats *stats);

/*
 * A channel with explicit times that start at 0 and are evenly spaced within
 * float precision becomes uniform (has_time false, key_interval_s).
 */
animc_status animc_pass_uniform(animc_clip *clip, animc_diag_sink *sink, animc_pass_stats *stats);

/*
 * Tracks with their own key times (as Assimp gives them) hold a take whose
 * range is [0, clip duration]: keys before 0 or past the duration are the
 * take's pre- and post-roll.  Each such track is cut to the range: keys
 * at 0 and at the duration with the value interpolated from the keys around
 * them (held beyond the first and last key), the keys outside dropped; one
 * warning per clip counts them.  Tracks whose times are not finite and
 * strictly increasing are left for validation to report.
 */
animc_status animc_pass_trim(animc_clip *clip, animc_diag_sink *sink, animc_pass_stats *stats);

/*
 * Make a valid clip follow the playability rule without changing what
 * sampling it gives (animrt.h's sampling rule):
 *  - a clip or sequence shorter than ANIMC_MIN_DURATION_S is lengthened to
 *    it (one warning per clip); a sequence of 0 s, whose every time is 0,
 *    first becomes one key holding its pose at 0;
 *  - a one-key uniform sequence gets KeyInterval = Duration (its one key
 *    spans the sequence); uniform keys too dense for the original's
 *    subtraction loop get explicit times;
 *  - keys sharing a time before the end: the earlier one moves one float
 *    step earlier (and a sequence starting with such keys above 0 gets a
 *    key at 0 holding the first value); where no float lies between, the
 *    earlier keys go (one warning per clip).
 * Keys that differ by more than a float holds sample as infinity between
 * them, under animrt.h's rule too, so no form of them is playable: the
 * clip is refused, an error naming each such sequence, track and keys, and
 * ANIMC_ERR_LIMIT, before anything changes.
 */
animc_status animc_pass_playable(animc_clip *clip, animc_diag_sink *sink, animc_pass_stats *stats);

/*
 * Error-bounded key reduction for the original layout.  A track within the
 * bounds of one value becomes fixed; then each channel keeps, from each kept
 * key on, the farthest key such that every track of the channel stays within
 * its bound at every source key and halfway between them, interpolated as
 * the runtime does (the tracks of a channel share key times).  A channel
 * whose keys would cost more bytes with explicit times than all of them
 * without keeps them.  stats->error gets the worst error left.
 */
animc_status animc_pass_reduce(animc_clip *clip, const animc_reduce_options *options,
			       animc_diag_sink *sink, animc_pass_stats *stats);

/* ------------------------------------------------------------ compact layout */

/* How a track is stored in the compact layout (FORMAT.md section 7). */
typedef enum animc_compact_kind {
	ANIMC_COMPACT_ABSENT = 0,    /* no track */
	ANIMC_COMPACT_IDENTITY = 1,  /* present, identity: no data */
	ANIMC_COMPACT_CONSTANT = 2,  /* one value */
	ANIMC_COMPACT_ANIMATED = 3   /* quantised keys on the clip's grid */
} animc_compact_kind;

typedef struct animc_compact_track {
	animc_compact_kind kind;
	/* CONSTANT: the value as stored (x y z, or x y z w), and whether it
	 * is stored as float32 (else f16, or 3 x 16 bits for a rotation). */
	bool is_f32;
	float value[4];
	/* Rotations stored as three components: the one left out (0 x .. 3 w),
	 * the largest of every key, rebuilt >= 0. */
	uint8_t dropped;
	/* ANIMATED: bits per component (1..19; 31 float32; 0 each segment its
	 * own), the clip range kind (0 none, 1 f16, 2 f32, 3 u8 on [-1, 1]),
	 * its values as stored (min[3], extent[3]) and, for u8, its codes. */
	uint8_t bits;
	uint8_t range;
	float range_values[6];
	uint8_t range_codes[6];
	/* bits 0: per segment, 7 bytes: bits (and a rotation's dropped
	 * component << 5), min[3], extent[3] (256ths of the clip range). */
	uint8_t *segment_codes;
	uint32_t key_count;
	uint32_t *samples;       /* key_count grid samples, increasing */
	uint32_t *q;             /* key_count * 3: quantised components (the
				  * three stored), float32 bits when raw */
} animc_compact_track;

/* A clip encoded for the compact layout: one grid for the clip (sample i
 * at i / rate_hz seconds) in segments of 64 samples, per bone three
 * tracks. */
typedef struct animc_compact {
	float duration_s;
	float rate_hz;
	uint32_t sample_count;
	uint32_t segment_count;
	uint32_t bone_count;
	const char **bones;
	animc_compact_track (*tracks)[ANIMC_TRACK_COUNT];
	animc_clip_error error;
	/* The grid is 2^grid_finer times finer than the keys' spacing: on
	 * theirs a track could not stay within the tolerance. */
	uint8_t grid_finer;
} animc_compact;

/*
 * Encode the clip for the compact layout within options->tolerance (the
 * defaults when unset): a grid every source key lies on (or the finest one
 * tried, with the keys off it checked where they are); each track identity,
 * one value, or quantised keys with the bit rates, ranges and key set that
 * cost the fewest bytes within its bound, measured at every grid sample and
 * halfway between, through the runtime's dequantisation and interpolation.
 * Sets clip->compact (in the clip's arena); stats->error gets the worst
 * error.  ANIMC_ERR_UNSUPPORTED, naming the bone, when a channel's duration
 * is not the clip's (the layout keeps one) or a track cannot be held (a
 * jump between keys closer than any grid could follow fails before a grid
 * is tried); animc_clip_process then writes the original layout.
 */
animc_status animc_pass_compact(animc_clip *clip, const animc_reduce_options *options,
				animc_diag_sink *sink, animc_pass_stats *stats);

/*
 * The compact layout's payload of clip->compact (reader version 3,
 * FORMAT.md section 7.7: what follows the XNB container's reader table),
 * malloc'd into *out, which
 * the caller frees.  ANIMC_ERR_INVALID, reported, when the encoding breaks
 * the layout; ANIMC_ERR_ARGUMENT, reported, when the clip has none
 * (clip->compact NULL); ANIMC_ERR_NOMEM.  On failure *out is NULL.
 */
animc_status animc_compact_write(const animc_clip *clip, uint8_t **out, size_t *out_size, animc_diag_sink *sink);

/* Which binary layout the pipeline prepares and the writer writes. */
typedef enum animc_layout {
	ANIMC_LAYOUT_ORIGINAL = 0,   /* reader version 0: XNA, FNA, MonoGame and libanimrt */
	ANIMC_LAYOUT_COMPACT         /* reader version 3: libanimrt only */
} animc_layout;

/* Options of animc_clip_process; zeroed = the lossless default pipeline. */
typedef struct animc_process_options {
	/*
	 * No normalisation.  A sequence source (is_sequence_source) is
	 * validated as it is, for the original pipeline's bytes: a declared
	 * channel count that disagrees and keys out of order are errors, and
	 * what breaks the playability rule is written with a warning naming
	 * the bone.  Other sources, which the original pipeline never
	 * compiled, keep every key at its own time: the default mode without
	 * its normalisations (no track made fixed, no channel collapsed to one
	 * key, no key times made uniform: a track the importer gives one value
	 * stays fixed as it came); keys are still sorted, trimmed to the clip,
	 * put on one timeline per bone and made playable, each with its
	 * warning.
	 */
	bool exact;
	/* With a tolerance, the lossy pass runs after the lossless ones. */
	animc_reduce_options reduce;
	/* ANIMC_LAYOUT_COMPACT: animc_pass_compact runs last (with the default
	 * tolerance when reduce.tolerance is unset); animc_pass_reduce does not.
	 * With reduce.keep_ends, the original layout instead, reduced within
	 * that tolerance (stats->compact_declined). */
	animc_layout layout;
} animc_process_options;

/*
 * The processor.  Default mode: sort, trim, validate, correct the declared
 * channel count (warning), then the merge and fixed passes, the reduction
 * when options->reduce has a tolerance, the uniform and playable passes;
 * validate the result for writing and check that it is playable (an error
 * if not); for the compact layout, encode it (animc_pass_compact).  Exact
 * mode: see animc_process_options.  `stats` may be NULL.  A layout none of
 * animc_layout's, or a tolerance that is no number, is ANIMC_ERR_ARGUMENT,
 * reported, before anything changes.
 */
animc_status animc_clip_process(animc_clip *clip, const animc_process_options *options,
				animc_diag_sink *sink, animc_pass_stats *stats);

/* -------------------------------------------------------------- authoring
 *
 * Passes that turn takes as exported into the clips a game plays: named
 * parts of a long take, root motion taken out into a track of its own, and
 * additive layers.  They run on imported clips, before animc_clip_process,
 * and sample the source by the runtime's rule (animrt.h), so that what they
 * cut and subtract is what the runtime would have played.
 */

/* Sort, trim and put every track on its channel's timeline (the first
 * passes of animc_clip_process), so the authoring passes see one timeline
 * per bone.  A clip that is not valid at the IMPORTED stage is left alone
 * (animc_clip_process reports it); returns ANIMC_OK then too. */
animc_status animc_clip_prepare(animc_clip *clip, animc_diag_sink *sink);

/*
 * The pose of one bone of a prepared clip at time_s by the runtime's rule
 * (animrt.h: ANIMRT_PLAY_ONCE, the channel's own duration): translation[3],
 * rotation[4] (x y z w) and scale[3]; an absent track gives identity.
 */
void animc_channel_sample(const animc_channel *channel, float time_s, float translation[3],
			  float rotation[4], float scale[3]);

/* A time of a split: seconds, or a frame number. */
typedef struct animc_split_time {
	double value;
	bool is_frame;
} animc_split_time;

/* One named part: START to END inclusive. */
typedef struct animc_split_part {
	const char *name;
	animc_split_time start, end;
	uint32_t line;             /* where its document defines it; 0 when none */
} animc_split_part;

/*
 * How one take becomes named clips: an AnimationDefinition document
 * (animc_split_doc_parse) or --split options.  Frames lie at k * take
 * duration / frame_count when frame_count > 0 (AnimationDefinition's
 * originalFrameCount), else at the take's frame rate (animc_clip_frame_rate).
 * `path` names the document in messages (NULL: the command line).
 */
typedef struct animc_split {
	const char *take;          /* the take to split; NULL: the source's only take */
	uint32_t take_line;
	double frame_count;
	const animc_split_part *parts;
	uint32_t part_count;
	const char *path;
} animc_split;

/* The frame rate of a prepared clip: the one its source states
 * (clip->frame_rate), else the one its bones' key gaps agree on most
 * (animc_frame_rate_of_gaps), or 0 when neither is known or the source says
 * its rate is not known (clip->frame_rate below 0).  0 also when out of memory. */
double animc_clip_frame_rate(const animc_clip *clip);

/* The frame rate `count` gaps between keys (seconds) agree on most: one over
 * the mean of the largest group of gaps within 1% of each other (the shorter
 * group on a tie), rounded to a whole rate within 1e-3; 0 when no gap is
 * positive.  Reorders `gaps`.  *off_grid (may be NULL) counts the positive
 * gaps that are not a whole number of frames at that rate (within 1%). */
double animc_frame_rate_of_gaps(double *gaps, size_t count, size_t *off_grid);

/*
 * Replace each split take of `set` by its parts, in place and in order:
 * each part a clip named after it, holding the take from START to END
 * (keys at START and END with the take's pose there, the take's keys in
 * between shifted to start at 0), so that sampling the part at t gives the
 * take at START + t; a part of one frame (END = START) is the take's pose
 * there, one key a channel, of 0 s.  A START or END within 1e-4 of the key spacing of a
 * key is that key, for each channel its own (frames converted to seconds
 * land beside their keys by rounding, and bones may key a hair apart), and a part between keys of evenly spaced keys keeps them
 * evenly spaced.  An evenly keyed channel whose last key lies within 0.01
 * of its spacing of its duration has its keys meant at k * duration / last
 * too (a key interval written to six decimals drifts: 0.033333 s for 1/30
 * s), and its last key is within the take however far past the duration
 * that drift puts it.  The take itself goes; other takes stay.  The set's
 * clips must be prepared (animc_clip_prepare).  Errors, each naming the
 * document (and line): a take not found (ANIMC_ERR_NOT_FOUND, listing the
 * takes), a part ending past the take's end, END < START or START < 0,
 * two parts of one name, a part named as a take that is not split (it
 * stays, and one of the two would be renamed), frames where the take has
 * no frame rate, a take split into no parts (ANIMC_ERR_INVALID).  On error
 * the set is unchanged.
 */
animc_status animc_clip_set_split(animc_clip_set *set, const animc_split *splits, uint32_t split_count,
				  animc_diag_sink *sink);

/* The up axis of a clip's source's world frame: declared_up when the
 * source declares one, else Z for a sequence source and Y for the rest;
 * never ANIMC_UP_DEFAULT. */
animc_up_axis animc_clip_up_axis(const animc_clip *clip);

typedef struct animc_root_motion_options {
	const char *bone;          /* the bone whose ground travel is taken out */
	animc_up_axis up;          /* ANIMC_UP_DEFAULT: animc_clip_up_axis(clip) */
	bool has_yaw;              /* take the rotation about the up axis out too */
	/* How far, as quaternion components, motion * in place may stray
	 * from the source between keys before keys are added there; 0: 1e-6.
	 * A lossy output can take a part of its bound and fewer keys. */
	float recompose_error;
} animc_root_motion_options;

/*
 * Take the root motion out of a prepared clip.  motion(t) is the bone's
 * ground translation (the two axes across `up`) at t minus that at 0, and
 * with has_yaw the twist about `up` of the bone's change of rotation since
 * 0, twist(rotation(t) * conjugate(rotation(0))) (Hamilton), so that the
 * bone's rest orientation does not matter and a roll about a ground axis
 * turns nothing.  The clip keeps the bone at its first-frame ground
 * position and heading: translation(t) - motion(t), conjugate(yaw
 * motion(t)) * rotation(t); its
 * vertical travel and every other bone are unchanged.  *motion gets a new
 * clip of the same name and duration with one channel, the bone, holding
 * the motion: translation, and rotation when has_yaw (identity
 * otherwise), so that motion + in-place recomposes the source.  A clip
 * with two channels of the bone's name has each put in place, and the
 * motion is the last one's, whose values the runtime plays.  An unknown
 * bone is ANIMC_ERR_NOT_FOUND, listing the clip's bones; no bone (NULL
 * options or bone) or an up axis past ANIMC_UP_Z, ANIMC_ERR_ARGUMENT.
 */
animc_status animc_clip_extract_motion(animc_clip *clip, const animc_root_motion_options *options,
				       animc_clip **motion, animc_diag_sink *sink);

/*
 * The motion of a clip that does not animate `bone`: none.  *motion gets a
 * clip of the clip's name and duration with one channel, `bone`, holding
 * one key of no translation and no turn, the motion file of a clip that
 * plays in place (an upper-body layer beside the walks of one source).
 * ANIMC_ERR_ARGUMENT when bone is NULL.
 */
animc_status animc_clip_still_motion(const animc_clip *clip, const char *bone, animc_clip **motion);

/* What an additive clip is the difference from. */
typedef enum animc_additive_kind {
	ANIMC_ADDITIVE_FIRST_FRAME = 0, /* the clip's own pose at 0 */
	ANIMC_ADDITIVE_BIND,            /* the skeleton's rest pose */
	ANIMC_ADDITIVE_CLIP             /* the pose at 0 of another (prepared) clip */
} animc_additive_kind;

typedef struct animc_additive_options {
	animc_additive_kind kind;
	const animc_skeleton *skeleton;  /* BIND; CLIP: rest poses after `rest`'s */
	const animc_clip *reference;     /* CLIP */
	/* CLIP: the source's own node tree (its importer's load_skeleton),
	 * whose rest pose references a bone the reference clip does not
	 * animate; NULL when the source has none. */
	const animc_skeleton *rest;
} animc_additive_options;

/*
 * Store a prepared clip as its difference from a reference pose, in the
 * convention animrt_pose_add applies with a NULL reference: per key,
 * translation - reference translation, conjugate(reference rotation) *
 * rotation, scale - reference scale + 1.  Added to the reference pose with
 * weight 1 it gives back the source.  A mirrored reference is first put in
 * the decomposition of the bone's first scale key (two scale signs negated
 * with a half turn about the third axis), so that a key equal to the
 * reference transform gives identity.  Tracks the clip does not animate
 * stay absent.  Sets clip->is_additive and clip->additive_reference.  BIND:
 * a bone the skeleton lacks is ANIMC_ERR_NOT_FOUND.  CLIP: a bone the
 * reference does not animate is referenced at its rest pose in `rest`,
 * else in `skeleton`; with neither, at identity, and one warning a clip
 * (ANIMC_WARN_REFERENCE_LACKS_BONE) names such bones.  ANIMC_ERR_ARGUMENT,
 * reported, when options is NULL or its kind none of the three.
 */
animc_status animc_clip_make_additive(animc_clip *clip, const animc_additive_options *options,
				      animc_diag_sink *sink);

#ifdef __cplusplus
}
#endif

#endif /* ANIMC_H */
