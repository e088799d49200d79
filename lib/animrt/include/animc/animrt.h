/*
 * animrt.h - the animc runtime: loads compiled clips (.xnb, and .xnb.zst when
 * built with zstd) after checking every byte against the format
 * (formats/xnb/FORMAT.md), and evaluates them: poses at a time, play modes,
 * bone binding, crossfades and additive layers.  Depends on the C standard
 * library (and libm) alone; zstd support is optional (ANIMRT_WITH_ZSTD).
 *
 * Usage (docs/examples/usage.c is this example as a whole program, which
 * `make test` compiles and runs on a compiled clip; docs/examples/load.c
 * opens a file by its path):
 *
 *     animrt_clip *clip;
 *     animrt_error err;
 *     if (animrt_open(bytes, size, &clip, &err) != ANIMRT_OK) {
 *         fprintf(stderr, "%s\n", err.message);   // names the byte offset
 *         return 1;
 *     }
 *     for (uint32_t i = 0; i < clip->sequence_count; i++)   // either layout
 *         printf("sequence %u: %s\n", i, animrt_clip_bone_name(clip, i, NULL));
 *
 *     // The pose at 0.25 s, one bone per sequence, in the file's order.
 *     animrt_pose pose;
 *     void *memory = malloc(animrt_pose_size_bytes(clip->sequence_count));
 *     uint32_t *cursors = calloc(clip->sequence_count, sizeof *cursors);   // or NULL
 *     animrt_pose_init(&pose, memory, clip->sequence_count);
 *     animrt_clip_sample(clip, 0.25f, ANIMRT_PLAY_REPEAT, cursors, &pose);
 *     // pose.translation[3 * i ...], pose.rotation[4 * i ...], pose.scale[3 * i ...]
 *
 *     // An engine's skeleton: bind once (no string work after this), then
 *     // play, crossfade and sample every frame without allocating.
 *     static const char *const bone_names[] = { "Base", "Cab", "Jib", "Hook" };
 *     animrt_binding *walk;
 *     animrt_binding_create(clip, bone_names, bone_count, &walk, &err);
 *     for (uint32_t i = 0; i < walk->unmatched_count; i++)
 *         warn("no bone '%s'", animrt_clip_bone_name(clip, walk->unmatched[i], NULL));
 *     animrt_pose skeleton_pose;
 *     void *skeleton_memory = malloc(animrt_pose_size_bytes(bone_count));
 *     animrt_pose_init(&skeleton_pose, skeleton_memory, bone_count);
 *     animrt_player *player;
 *     animrt_player_create(bone_count, &player, &err);
 *     animrt_player_play(player, walk, ANIMRT_PLAY_REPEAT, 0.3f);  // 0.3 s crossfade
 *     for (int frame = 0; frame < 60; frame++) {   // every frame:
 *         animrt_player_advance(player, dt_s);
 *         animrt_player_sample(player, &skeleton_pose);
 *     }
 *     animrt_player_destroy(player);
 *     animrt_binding_destroy(walk);
 *     free(skeleton_memory);
 *     free(cursors);
 *     free(memory);
 *     animrt_close(clip);
 *
 * Ownership: animrt_open copies what it needs, so the caller's buffer may be
 * freed as soon as it returns.  A clip is one allocation, read-only after
 * open, released by animrt_close (which accepts NULL).  A binding is one
 * allocation, read-only after create; it points into its clip, which must
 * outlive it.  A player is one allocation and points to the bindings it
 * plays.  Poses and key cursors are the caller's memory: animrt_pose_init
 * carves a pose's arrays out of the block it is given and neither keeps nor
 * frees it, so keep the pointer you passed and free that block once the
 * pose is no longer used (which array starts the block is not part of the
 * interface).  Sampling and blending never allocate.
 *
 * Threads: a loaded clip and a binding may be read and sampled from several
 * threads at once; a pose, a cursor array, a context (it caches keys as it
 * samples: one per playing instance) or a player belongs to one thread at
 * a time.
 */
#ifndef ANIMRT_H
#define ANIMRT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* libanimrt is compiled with -fvisibility=hidden: what this header
 * declares is marked default, and is all that a shared object linking
 * libanimrt.a exports of it.  Its internal functions are named animrt_rt_*
 * (never declared here), so that they meet no name of the program's. */
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(default)
#endif

#define ANIMRT_VERSION_MAJOR 0
#define ANIMRT_VERSION_MINOR 7
#define ANIMRT_VERSION_PATCH 0

/* A new version adds statuses at the end, before ANIMRT_STATUS_COUNT (0.6
 * added ANIMRT_ERR_POSE_SIZE to ANIMRT_ERR_NOT_MOTION): a switch over
 * animrt_status with no default warns (-Wswitch, in -Wall) of those it does
 * not handle, an error with -Werror until it does. */
typedef enum animrt_status {
	ANIMRT_OK = 0,
	ANIMRT_ERR_ARGUMENT,        /* NULL where a pointer is needed (a pose's arrays, the data
				     * of a non-zero size, included) */
	ANIMRT_ERR_NOMEM,
	ANIMRT_ERR_IO,              /* the file could not be read */
	ANIMRT_ERR_TRUNCATED,       /* the data ends inside a field */
	ANIMRT_ERR_MAGIC,           /* neither XNB nor a zstd frame */
	ANIMRT_ERR_VERSION,         /* XNB format version other than 5 */
	ANIMRT_ERR_FLAGS,           /* compressed XNB or unknown flag bits */
	ANIMRT_ERR_SIZE,            /* header size field differs from the data */
	ANIMRT_ERR_READER,          /* type reader table or asset index wrong */
	ANIMRT_ERR_READER_VERSION,  /* a reader version this loader does not know */
	ANIMRT_ERR_SHARED,          /* shared resources declared */
	ANIMRT_ERR_COUNT,           /* a count negative, too big, or against the flags */
	ANIMRT_ERR_BOOL,            /* a bool byte other than 0 or 1 */
	ANIMRT_ERR_VALUE,           /* a float not finite, a negative duration */
	ANIMRT_ERR_ORDER,           /* key times decrease */
	ANIMRT_ERR_STRING,          /* a string not UTF-8, or holding NUL */
	ANIMRT_ERR_TRAILING,        /* bytes left after the asset */
	ANIMRT_ERR_COMPRESSION,     /* a damaged zstd frame */
	ANIMRT_ERR_UNSUPPORTED,     /* .xnb.zst without zstd support built in */
	ANIMRT_ERR_CONTENT,         /* other content: its type reader is not an animation reader */
	/* From 0.6 on: what the sampling, context, player and motion calls
	 * refuse besides NULL, each for one cause a game can act on. */
	ANIMRT_ERR_POSE_SIZE,       /* a pose of another bone count than the call needs: fewer than
				     * the clip's sequences, not the binding's or the player's,
				     * two poses of a blend or layer that differ */
	ANIMRT_ERR_BINDING_SIZE,    /* a binding made for another bone count than the player's */
	ANIMRT_ERR_CONTEXT_SIZE,    /* a context with fewer bones than the pose (or the clip, for
				     * one bone), or fewer tracks than the clip needs */
	ANIMRT_ERR_PLAY_MODE,       /* a play mode neither ANIMRT_PLAY_ONCE nor ANIMRT_PLAY_REPEAT */
	ANIMRT_ERR_TIME,            /* a time not finite, or a blend time negative or not finite */
	ANIMRT_ERR_BONE,            /* a sequence index past the clip's sequence_count */
	ANIMRT_ERR_NOT_PLAYING,     /* a player call that needs a clip playing, before any play */
	ANIMRT_ERR_NOT_MOTION,      /* a motion clip without exactly one sequence (the clip, not
				     * its CLIP.motion.xnb) */
	ANIMRT_STATUS_COUNT
} animrt_status;

/* A lowercase description of a status; never NULL.  For the statuses a
 * sampling or player call returns, it also says what to change
 * ("pose has the wrong bone count: size it by ..."). */
const char *animrt_status_string(animrt_status status);

typedef struct animrt_error {
	animrt_status status;
	/* Offset in the (decompressed) .xnb of the field at fault, or -1 (also
	 * for an error of a .xnb.zst's zstd frame itself, which has no place in
	 * the .xnb: its message gives the place in the compressed file, if any). */
	int64_t byte_offset;
	/* "byte 123: rotation count 7 of bone 'L Calf' needs 112 bytes, 40 are left" */
	char message[256];
} animrt_error;

/* A compact clip's keys and grid (reader version 3); opaque. */
typedef struct animrt_compact animrt_compact;
/* The loader's index of a timed sequence's key times; opaque. */
typedef struct animrt_time_index animrt_time_index;

/*
 * One KeyFrameSequence: one bone's keys, as in FORMAT.md section 2.
 *
 * Compact clips (reader version 3, clip->compact set) are sampled in place
 * by default: the clip keeps the file's payload packed, and has no
 * sequence list (clip->sequences is NULL).  What a caller reads directly
 * then: the container, duration_s, sequence_count, grid_rate_hz and
 * grid_sample_count; bone names through animrt_clip_bone_name, keys
 * through animrt_track_keys, poses through the samplers.  Opened with
 * animrt_open_options.is_decoded, a compact clip has its keys decoded to
 * floats at load and a sequence list, in which the lists hold the constant
 * tracks only (fixed, count 1; identity when the layout stores none); an
 * animated track has its has_ flag, count 0 and no list: read its keys with
 * animrt_track_keys.  key_count is then its tracks' most keys.
 *
 * Memory of a loaded compact clip.  In place (the default): its payload
 * (bone names NUL-terminated instead of length-prefixed, never longer), a
 * fixed header of about 250 bytes, 30 bytes per group of four animated
 * tracks of a kind, and 4 bytes per group and 64 grid samples; and, only
 * where the whole stays within 1.05 times the file plus 512 bytes (a .xnb,
 * not a .xnb.zst), its still pose half built for the sampler: 7 bytes a
 * bone (13 where a constant translation is float32), 6 more a bone where a
 * scale is constant, 6 per constant rotation.  The bound to budget by is
 * the larger of two: 1.05 times the file plus 512 bytes; and the file (the
 * .xnb; for a .xnb.zst, what it decompresses to) plus 8 bytes per animated
 * track (animrt_clip_context_tracks), 4 bytes per group (at most a quarter
 * of the animated tracks, plus 3) and 64 grid samples (grid_sample_count
 * rounded up to 64), and 512 bytes.  Both bounds count the bytes the
 * loader asks malloc for; glibc's gives a block past its mmap threshold
 * (128 KiB at first) in whole pages, up to 4 KiB more.  Clips keyed about
 * every grid sample come within the first, as every clip of the shared
 * RobotGame and Assimp corpora does (63 KB for 61 clips in 38 KB of files;
 * 171 KB for 7 clips in 166 KB); a long clip of few keys a track need not.
 * Measured on those corpora, ratios and not bounds: 0.25 (RobotGame) and
 * 0.13 (Assimp) of the same clips loaded in the original layout.
 * Decoded (is_decoded): 16 bytes per key plus per-bone and per-row tables,
 * measured at 1.44 and 1.34 times the original layout's memory, 5.7 and
 * 10.5 times the in-place clip.  The context of a playing instance adds
 * ANIMRT_CONTEXT_BYTES_PER_BONE per bone, the caller's.
 */
typedef struct animrt_sequence {
	const char *bone;            /* UTF-8, NUL-terminated, no NUL inside */
	uint32_t bone_size;          /* bytes, without the terminator */
	uint32_t key_count;          /* >= 1 */
	float duration_s;
	float key_interval_s;        /* seconds between keys when !has_time */
	bool has_translation, has_rotation, has_scale, has_time;
	bool is_fixed_translation, is_fixed_rotation, is_fixed_scale;
	/* Counts follow the flags: key_count, 1 when fixed, 0 when absent;
	 * time_count is key_count with has_time, else 0. */
	uint32_t translation_count, rotation_count, scale_count, time_count;
	const float *translation;    /* translation_count * 3: x y z */
	const float *rotation;       /* rotation_count * 4: x y z w */
	const float *scale;          /* scale_count * 3 */
	const float *times_s;        /* time_count, non-decreasing */
	/* The loader's index of times_s (4 keys or more, no two at one
	 * time, not too bunched): the sampler finds a time's key with one
	 * lookup and a count of 4 times, the key the binary search finds.
	 * NULL otherwise, and in a sequence built by hand (the sampler then
	 * searches). */
	const animrt_time_index *time_index;
	/* Compact clips: the clip's keys and this sequence's index in it (for
	 * animrt_sequence_sample); NULL and 0 otherwise. */
	const animrt_compact *compact;
	uint32_t index;
} animrt_sequence;

typedef struct animrt_container {
	char platform;               /* 'w' for Windows, ... */
	uint8_t format_version;      /* 5 */
	uint8_t flags;               /* 0, or 0x01 (HiDef) */
	uint32_t file_size_bytes;    /* of the .xnb, as the header states */
	const char *reader;          /* type reader name of the asset */
	int32_t reader_version;      /* 0 (original layout) or 3 (compact layout) */
	uint32_t shared_resources;   /* 0 */
	bool is_zstd;                /* the file was a .xnb.zst */
} animrt_container;

typedef struct animrt_clip {
	animrt_container container;
	float duration_s;
	uint32_t sequence_count;
	/* NULL for a compact clip sampled in place (the default for
	 * --layout compact): to sample one bone on every layout, call
	 * animrt_clip_sample_bone(clip, i, ...), not
	 * animrt_sequence_sample(&clip->sequences[i], ...). */
	const animrt_sequence *sequences;
	/* Reader version 3: keys quantised on one grid of grid_sample_count
	 * samples, sample i at i / grid_rate_hz seconds (FORMAT.md section 7).
	 * NULL and 0 for the original layout. */
	const animrt_compact *compact;
	float grid_rate_hz;
	uint32_t grid_sample_count;
	/* Compact clips: the layout marks the clip additive (its tracks are
	 * differences from a reference pose, for animrt_pose_add).  The
	 * original layout has no mark: false. */
	bool is_additive;
	/* Some sequence has a time_index (the loader sets it). */
	bool has_time_index;
} animrt_clip;

/* Tracks of a sequence, in the order of the clip model and the file. */
#define ANIMRT_TRANSLATION 0
#define ANIMRT_ROTATION 1
#define ANIMRT_SCALE 2

/*
 * The name of sequence `sequence`'s bone (UTF-8, NUL-terminated), and its
 * size in bytes in *size (may be NULL); NULL when out of range.  Every
 * layout; a compact clip in place finds it by walking the names before it.
 */
const char *animrt_clip_bone_name(const animrt_clip *clip, uint32_t sequence, uint32_t *size);

/*
 * The keys of one animated track of a compact clip (`track` one of
 * ANIMRT_TRANSLATION, ANIMRT_ROTATION, ANIMRT_SCALE): returns how many it
 * has (0 when the track is constant or absent, the sequence or track out of
 * range, or the clip of the original layout, whose lists are in
 * `sequences`).  With times_s or values (either may be NULL), fills up to
 * `capacity` keys from key `first`: times in seconds and values (3 floats,
 * or x y z w for rotations) as the samplers decode them.  Key times lie on
 * the clip's grid (i / grid_rate_hz), and the last one may be up to one
 * grid step past duration_s: when the clip ends between two grid samples,
 * the grid reaches the next one (FORMAT.md section 7): no play time
 * reaches that key, but the pose at the end interpolates toward it.  A
 * tool that walks keys clamps their times to duration_s.
 */
uint32_t animrt_track_keys(const animrt_clip *clip, uint32_t sequence, unsigned track, uint32_t first,
			   uint32_t capacity, float *times_s, float *values);

/*
 * Which type readers a caller takes as AnimationSequence readers.  An XNB
 * names the reader of its asset ("Namespace.Type, Assembly, Version=...");
 * the loader checks that name before it reads anything of the asset, and
 * refuses other content (a texture, a font, a Vector2) with
 * ANIMRT_ERR_CONTENT, naming its reader.  The "type part" of a name is the
 * text before its first comma outside brackets.
 *
 * Zeroed (or NULL), the default: a reader whose type part ends in
 * "AnimationReader", as the original RobotGameData.GameObject.AnimationReader
 * does.  Nothing here is copied or allocated; the names must outlive the
 * call that uses them.
 */
typedef struct animrt_open_options {
	/* More names to take, each matching a reader name whole or its type
	 * part ("MyGame.ClipReader" or "MyGame.ClipReader, MyGame"). */
	const char *const *reader_names;
	uint32_t reader_name_count;
	/* Take the listed names only, not the default's AnimationReader rule. */
	bool is_listed_only;
	/* Compact clips: decode every key to floats at load (faster sampling
	 * when no context is kept, 5.7 to 10.5 times the memory on the shared
	 * corpora; see animrt_sequence).  Off: the clip stays packed and is sampled in place.
	 * A trade of memory for speed only: every sampler gives the same
	 * poses either way, bit for bit. */
	bool is_decoded;
} animrt_open_options;

/*
 * Check and load a compiled clip from memory: an .xnb, or a .xnb.zst (one
 * zstd frame around an .xnb) when built with zstd.  On failure *out is NULL
 * and `err` (may be NULL) says what and where.  `options` (may be NULL)
 * says which type readers to take.
 */
animrt_status animrt_open_with(const void *data, size_t size, const animrt_open_options *options,
			       animrt_clip **out, animrt_error *err);

/* animrt_open_with, the default reader names. */
animrt_status animrt_open(const void *data, size_t size, animrt_clip **out, animrt_error *err);

/* The same, reading the file at `path` first.  Its messages name no path
 * ("cannot open: No such file or directory", "byte 6: ..."): the caller
 * names the file. */
animrt_status animrt_open_file_with(const char *path, const animrt_open_options *options,
				    animrt_clip **out, animrt_error *err);
animrt_status animrt_open_file(const char *path, animrt_clip **out, animrt_error *err);

/* True when `options` (may be NULL: the default) takes the type reader
 * `name` (name_size bytes, not NUL-terminated). */
bool animrt_reader_is_accepted(const char *name, size_t name_size, const animrt_open_options *options);

void animrt_close(animrt_clip *clip);

/* True when this build reads .xnb.zst. */
bool animrt_has_zstd(void);

/* ================================================================ poses
 *
 * Conventions: seconds, translation x y z, rotation a quaternion x y z w,
 * scale x y z.  A track a sequence does not have samples as identity
 * (0 translation, rotation 0 0 0 1, scale 1).
 *
 * Sampling one sequence at a time t follows the original runtime
 * (KeyFrameSequence with AnimationBinder's time rule; FORMAT.md section 2):
 *   - time rule, with the sequence's own duration d: ANIMRT_PLAY_ONCE clamps
 *     t > d to d; ANIMRT_PLAY_REPEAT wraps t > d to fmod(t, d).  A negative
 *     time clamps to 0 (Once) or wraps into [0, d] (Repeat); NaN is 0.
 *   - key: with key times, the original binary search (the last key from
 *     its time on); uniform keys, key = (int)(t / KeyInterval) in double
 *     precision.  Past the last key the pose holds the last key in both
 *     modes: the original picked key 0 as the next key for Repeat and then
 *     overwrote it, so nothing interpolates toward key 0.
 *   - translation and scale lerp, rotation slerps along the shorter arc
 *     (a normalised lerp when the two keys' dot product exceeds 0.999999);
 *     fixed tracks and single keys give their one value.
 * Deviations where the original had no defined result: a time before the
 * first key time holds the first key (the original extrapolated), KeyInterval
 * 0 with several keys gives the last key (the original indexed out of range),
 * and a duration of 0 makes every time 0.
 */

typedef enum animrt_play_mode {
	ANIMRT_PLAY_ONCE = 0,    /* past the end, hold the end */
	ANIMRT_PLAY_REPEAT       /* past the end, start again */
} animrt_play_mode;

/* Bits of animrt_pose.tracks: which tracks of a bone a clip animates. */
#define ANIMRT_TRACK_TRANSLATION 0x1u
#define ANIMRT_TRACK_ROTATION 0x2u
#define ANIMRT_TRACK_SCALE 0x4u

/*
 * A pose: one local transform per bone, as flat arrays (structure of
 * arrays).  The arrays are the caller's: set them yourself, or carve them
 * from one block with animrt_pose_init.  `tracks` says, per bone, which
 * tracks the sampled clip animates (0: the clip does not animate the bone;
 * its transform is identity); crossfades and layers use it.
 */
typedef struct animrt_pose {
	uint32_t bone_count;
	float *translation;   /* bone_count * 3 */
	float *rotation;      /* bone_count * 4 */
	float *scale;         /* bone_count * 3 */
	uint8_t *tracks;      /* bone_count, ANIMRT_TRACK_* bits */
} animrt_pose;

/* Bytes animrt_pose_init needs for bone_count bones, a multiple of 16 (so
 * poses carved one after another from one block stay aligned); 0 when too
 * many. */
size_t animrt_pose_size_bytes(uint32_t bone_count);

/* Carve a pose for bone_count bones out of `memory` (animrt_pose_size_bytes
 * of it, aligned for float, as malloc returns it) and set it to identity.
 * A NULL pose: nothing done.  A NULL memory (a failed malloc): a pose of 0
 * bones and no arrays, which the sampling calls refuse with
 * ANIMRT_ERR_POSE_SIZE for a clip that has bones. */
void animrt_pose_init(animrt_pose *pose, void *memory, uint32_t bone_count);

/* Every bone identity, no tracks. */
void animrt_pose_reset(animrt_pose *pose);

/*
 * Play modes: every call that takes one (the samplers, animrt_player_play,
 * animrt_motion_between) refuses a value that is neither ANIMRT_PLAY_ONCE
 * nor ANIMRT_PLAY_REPEAT with ANIMRT_ERR_PLAY_MODE, writing nothing: an
 * engine's own loop flag must be mapped, not cast.
 */

/*
 * One sequence at time_s (seconds) by the rule above.  `cursor` (may be
 * NULL) is the caller's hint of where the last search ended: with it, a time
 * that moves forward finds its key in a step or two; any value is safe (0
 * to start).  Writes translation[3], rotation[4], scale[3]; a NULL one is
 * a track the caller does not want, and is not written.
 * ANIMRT_ERR_ARGUMENT when seq is NULL, ANIMRT_ERR_PLAY_MODE; nothing is
 * written then.  (Before 0.6 this returned void.  Calls that ignore the
 * status compile as they did; a function pointer typed for 0.5, returning
 * void, needs this type (C warns, C++ refuses), and a C++ function returning
 * void that returns the call, return animrt_sequence_sample(...), must call
 * it and return.)  A sequence of a clip sampled in place has
 * no struct: animrt_clip_sample_bone samples one bone of any clip.
 */
animrt_status animrt_sequence_sample(const animrt_sequence *seq, float time_s, animrt_play_mode mode,
				     uint32_t *cursor, float translation[3], float rotation[4], float scale[3]);

/*
 * The whole clip at time_s into `pose`, bone i = sequence i.  `cursors`
 * (may be NULL) holds one cursor per pose bone.  Bones past the clip's
 * sequences are set to identity with no tracks.  ANIMRT_ERR_ARGUMENT when
 * a pointer is NULL (clip, pose, or a pose's array), ANIMRT_ERR_PLAY_MODE,
 * ANIMRT_ERR_POSE_SIZE when the pose has fewer bones than the clip has
 * sequences; the pose is not written then.
 */
animrt_status animrt_clip_sample(const animrt_clip *clip, float time_s, animrt_play_mode mode,
				 uint32_t *cursors, animrt_pose *pose);

/*
 * Crossfade: out = a blended toward b by weight (clamped to [0, 1]; on a
 * track both animate 0 gives a, 1 gives b), per bone and track as the
 * original AnimationBlender:
 * lerp for translation and scale, shorter-arc slerp for rotation when both
 * poses animate the track; the one that animates it when only one does;
 * identity when neither.  out's tracks are a's and b's together.  out may
 * be a or b.  ANIMRT_ERR_ARGUMENT when a pointer is NULL,
 * ANIMRT_ERR_POSE_SIZE when the bone counts differ.
 */
animrt_status animrt_pose_blend(const animrt_pose *a, const animrt_pose *b, float weight,
				animrt_pose *out);

/*
 * Additive layer: for every track the layer animates, out = base plus the
 * layer's difference from `reference`, scaled by weight (clamped to [0, 1]):
 * translation and scale base + w * (layer - reference); rotation
 * base * slerp(identity, conjugate(reference) * layer, w).  Tracks the layer
 * does not animate keep the base.  Weight 0 (or NaN) gives the base
 * exactly, its `tracks` too; above 0, out's tracks are the base's and the
 * layer's together (a bone only the layer animates counts as animated,
 * with the base's value moved by the layer).  Weight 1 with reference =
 * base gives the layer.  reference may be NULL (identity); out may be base,
 * layer or reference.  ANIMRT_ERR_ARGUMENT when a pointer is NULL,
 * ANIMRT_ERR_POSE_SIZE when the bone counts differ.
 */
animrt_status animrt_pose_add(const animrt_pose *base, const animrt_pose *layer,
			      const animrt_pose *reference, float weight, animrt_pose *out);

/* ============================================================== binding */

#define ANIMRT_NO_BONE UINT32_MAX

/*
 * A clip's sequences mapped once to a caller's bone table, so that sampling
 * compares no strings.  Read-only after animrt_binding_create.
 */
typedef struct animrt_binding {
	const animrt_clip *clip;
	uint32_t bone_count;              /* entries of the caller's table */
	/* clip->sequence_count entries: the table index of each sequence's
	 * bone, or ANIMRT_NO_BONE.  A bone named twice in the table binds to
	 * its first entry; two sequences of one bone: the later one wins. */
	const uint32_t *bone_of_sequence;
	/* bone_of_sequence with each sequence but the last of its bone left
	 * out (ANIMRT_NO_BONE): what sampling writes. */
	const uint32_t *sample_map;
	/* Sequences whose bone the table lacks (the original runtime threw for
	 * these), in file order; they are left out of poses. */
	uint32_t unmatched_count;
	const uint32_t *unmatched;
	/* Table bones no sequence animates; poses give them identity. */
	uint32_t unanimated_count;
	const uint32_t *unanimated;
	/* Distinct for every binding the process creates: a context tells
	 * bindings apart by it, also one created where a destroyed one was. */
	uint64_t serial;
} animrt_binding;

/*
 * Bind `clip` to bone_names[0 .. bone_count) (UTF-8, compared byte for
 * byte).  Names that do not match are listed in the binding, not errors:
 * check unmatched_count to be as strict as the original.  One allocation;
 * the names are not kept.  ANIMRT_ERR_ARGUMENT for NULL pointers (a NULL
 * name matches nothing), ANIMRT_ERR_NOMEM.  On failure *out is NULL.
 */
animrt_status animrt_binding_create(const animrt_clip *clip, const char *const *bone_names,
				    uint32_t bone_count, animrt_binding **out, animrt_error *err);

void animrt_binding_destroy(animrt_binding *binding);

/* The binding's clip at time_s into `pose` (binding->bone_count bones),
 * `cursors` (may be NULL) one per pose bone.  ANIMRT_ERR_ARGUMENT when a
 * pointer is NULL, ANIMRT_ERR_PLAY_MODE, ANIMRT_ERR_POSE_SIZE when the pose
 * has another bone count. */
animrt_status animrt_binding_sample(const animrt_binding *binding, float time_s,
				    animrt_play_mode mode, uint32_t *cursors, animrt_pose *pose);

/* ============================================================== context */

/*
 * Playback state of one playing instance, the caller's memory: per pose
 * bone the key cursor of the original layout and, for compact clips
 * sampled in place, the pose where nothing moves (constants and identity,
 * decoded once when the context starts to follow the clip) and per
 * animated track the two keys around the playhead (with the arc between
 * rotation keys, and how the track's keys decode in their segment), so
 * that a sample copies the still pose and interpolates, and forward
 * playback unpacks each key once.  ANIMRT_CONTEXT_BYTES_PER_BONE per bone
 * plus ANIMRT_CONTEXT_HEADER_BYTES; animrt_context_size_bytes computes
 * it.  A context follows one clip and binding: given another one (a clip
 * reloaded, a binding created again, also at the same address) it starts
 * over.  Sampling with a context never allocates; the results equal those
 * sampled without one, bit for bit.  It pays in playback: the shared
 * corpora's compact clips in place played at 60 Hz take 0.57 (RobotGame)
 * and 0.54 (Assimp) of the time with one that they take without.  At
 * random times the caches would go back to the clip's records track by
 * track, so a sample that jumps (further than 0.125 s, 8 grid samples or
 * an eighth of the clip from the last one, either way round the clip: a
 * loop's wrap does not jump) is taken as without a context, and so are
 * the two after it; the context takes over from the third step in a row
 * that stays near, and refills there.  A game that seeks, scrubs or blends
 * at arbitrary times pays about nothing for its context: at random times
 * the shared corpora measure 1.10 (RobotGame) and 0.93 (Assimp) of the
 * lossless SIMD sampler with one, 1.09 and 1.02 without (a clip of one
 * sample is cheaper with it).
 */
typedef struct animrt_context animrt_context;
#define ANIMRT_CONTEXT_HEADER_BYTES 128u
#define ANIMRT_CONTEXT_BYTES_PER_BONE 384u

/* Bytes of a context for poses of bone_count bones; 0 when too many. */
size_t animrt_context_size_bytes(uint32_t bone_count);

/* A context for bone_count bones carved from `memory` (that many bytes,
 * 16-byte aligned, as malloc returns it); NULL when memory is NULL or not
 * 16-byte aligned.  It plays any clip of up to bone_count bones. */
animrt_context *animrt_context_init(void *memory, uint32_t bone_count);

/*
 * A context sized for the clips it plays: a compact clip sampled in place
 * keeps a cache per animated track, and animrt_context_init makes room
 * for three a bone.  animrt_clip_context_tracks gives what one clip needs
 * (0 for other clips); a player of known clips takes the largest, and the
 * context then costs 45 bytes a bone and 112 a track past the header,
 * rounded up to a multiple of 16 (the bound is the formula: a clip whose
 * every bone animates all three tracks needs all of
 * animrt_context_size_bytes; measured, compact clip by clip, 0.12 to 0.39
 * of it on the shared RobotGame and Assimp corpora, 0.56 for a one-bone
 * clip of one animated track, 0.78 for one of two; a --root-motion
 * CLIP.motion.xnb is in the original layout, which needs no track: 0.34).
 * Sampling a clip that needs more tracks than the context holds gives
 * ANIMRT_ERR_CONTEXT_SIZE.
 */
uint32_t animrt_clip_context_tracks(const animrt_clip *clip);
size_t animrt_context_size_bytes_for(uint32_t bone_count, uint32_t track_count);
/* As animrt_context_init: NULL when memory is NULL or not 16-byte aligned. */
animrt_context *animrt_context_init_for(void *memory, uint32_t bone_count, uint32_t track_count);

/* Forget every cached key (the next sample unpacks what it needs). */
void animrt_context_reset(animrt_context *context);

/* animrt_clip_sample and animrt_binding_sample with a context (may be
 * NULL: random access) in place of the cursors, and their statuses; also
 * ANIMRT_ERR_CONTEXT_SIZE when the context has fewer bones than the pose,
 * or fewer tracks than the clip needs (animrt_context_init_for). */
animrt_status animrt_clip_sample_with(const animrt_clip *clip, float time_s, animrt_play_mode mode,
				      animrt_context *context, animrt_pose *pose);
animrt_status animrt_binding_sample_with(const animrt_binding *binding, float time_s,
					 animrt_play_mode mode, animrt_context *context, animrt_pose *pose);

/*
 * One bone of any clip, whatever its layout: sequence `sequence` at time_s
 * into translation[3], rotation[4], scale[3] (a NULL one is not written),
 * the values animrt_clip_sample gives that bone, bit for bit.  The clip's
 * duration gives the time rule of a compact clip, the sequence's that of
 * the original layout (as animrt_clip_sample).  `context` (may be NULL)
 * keeps the keys around the playhead, as for animrt_clip_sample_with: one
 * made for at least the clip's sequence_count bones (and its tracks).
 * Cost: it is for the few bones a game needs alone (an attachment, an IK
 * target); for a whole pose, sample the clip.  Every bone one at a time
 * costs several times animrt_clip_sample (measured in 60 Hz playback of
 * the shared corpora's compact clips in place: 1.4 to 15 times the clip
 * sampled with a context when the bones take one, 1.6 to 37 times the
 * clip without one when they do not; 2.5 to 2.7 on the original layout).
 * Without a context a compact clip in place also walks the bones before
 * the one asked for, so bone k costs in proportion to k, and every bone
 * one at a time grows with the square of the bone count; with one, it
 * looks the bone's tracks up among the context's, in proportion to the
 * clip's animated tracks.
 * ANIMRT_ERR_ARGUMENT when clip is NULL, ANIMRT_ERR_PLAY_MODE,
 * ANIMRT_ERR_BONE when sequence >= clip->sequence_count,
 * ANIMRT_ERR_CONTEXT_SIZE when the context is too small; nothing is
 * written then.  (New in 0.6.)
 */
animrt_status animrt_clip_sample_bone(const animrt_clip *clip, uint32_t sequence, float time_s,
				      animrt_play_mode mode, animrt_context *context, float translation[3],
				      float rotation[4], float scale[3]);

/* =============================================================== player */

/*
 * Playback state for one skeleton, like the original AnimationBinder and
 * AnimationBlender together: the clip playing (local time, time scale, play
 * mode) and, during a crossfade, the clip fading out.  Opaque; one
 * allocation holding a context (animrt_context) per clip it plays and the
 * scratch pose of crossfades.
 */
typedef struct animrt_player animrt_player;

/* A player for poses of bone_count bones, playing nothing (identity). */
animrt_status animrt_player_create(uint32_t bone_count, animrt_player **out, animrt_error *err);

void animrt_player_destroy(animrt_player *player);

/*
 * Start binding's clip at local time 0, time scale 1.  blend_time_s 0 cuts
 * to it; more crossfades from what plays now to it over that many seconds
 * of advance() (the original counted from the start time; here from 0),
 * then drops the old clip.  As in the original, starting a clip during a
 * crossfade drops the clip fading out and fades from the one fading in.
 * The new clip has no motion (animrt_player_set_motion after this).
 * ANIMRT_ERR_ARGUMENT when a pointer is NULL, ANIMRT_ERR_PLAY_MODE,
 * ANIMRT_ERR_BINDING_SIZE when the binding's bone_count is not the
 * player's, ANIMRT_ERR_TIME when blend_time_s is negative or not finite;
 * nothing changes then.
 */
animrt_status animrt_player_play(animrt_player *player, const animrt_binding *binding,
				 animrt_play_mode mode, float blend_time_s);

/* Set the newest clip's local time in seconds (clamped, or wrapped, at the
 * clip's end by its play mode, animrt_player_advance). */
void animrt_player_set_time(animrt_player *player, float time_s);

/* Set the newest clip's time scale: 1 plays at normal speed, 0 freezes (the
 * original returned an empty key frame instead), 2 plays twice as fast, a
 * negative scale plays backward.  Not finite: ignored. */
void animrt_player_set_time_scale(animrt_player *player, float time_scale);

/*
 * Move time on by dt_s seconds: each clip's local time by dt_s times its
 * time scale, a crossfade by dt_s.  Once clamps the time at the clip's
 * end: its duration, or the longest of its bound sequences where one lasts
 * longer (a hand-made RobotGame file; each sequence clamps at its own, as
 * the samplers and the original's binders do).  Repeat wraps it at the
 * duration the clip's moving sequences share; where they last differently,
 * the time is kept unwrapped and each sequence wraps at its own duration
 * as it is sampled.  A crossfade that reaches its blend time
 * ends (the clip fading out is dropped).  A dt_s that is not finite (NaN,
 * an infinity: a frame timer after a pause) is ignored as dt_s 0 is: no
 * time moves, and animrt_player_motion gives identity.  The player keeps
 * each local time in double: after hours of advances it is the sum of the
 * dt_s given (times the scale), wrapped, to float precision, so a loop
 * stays on its phase whatever the frame rate.
 */
void animrt_player_advance(animrt_player *player, float dt_s);

/* The newest clip's local time (rounded to float, as it is sampled); 0
 * when nothing plays. */
float animrt_player_time(const animrt_player *player);

/* How far a crossfade has come, 0 to 1; 1 when there is none. */
float animrt_player_blend_weight(const animrt_player *player);

/* True when the newest clip plays Once and has reached the end it moves
 * toward: its end (animrt_player_advance) at a time scale of 0 or more, 0
 * at a negative (backward) one; or when nothing plays. */
bool animrt_player_is_done(const animrt_player *player);

/* The pose now: the newest clip, or the crossfade of the two.  Nothing
 * playing gives identity.  ANIMRT_ERR_ARGUMENT when a pointer is NULL,
 * ANIMRT_ERR_POSE_SIZE when the pose has another bone count than the
 * player. */
animrt_status animrt_player_sample(animrt_player *player, animrt_pose *out);

/* ========================================================== root motion
 *
 * A clip built with `animc build --root-motion BONE` plays in place; its
 * motion is the file CLIP.motion.xnb beside it, loaded like any clip (one
 * sequence, BONE): the bone's ground travel (and turn about the up axis)
 * from the clip's first frame.  These read it.
 */

/* A motion: a translation (x y z) and a rotation (x y z w). */
typedef struct animrt_motion {
	float translation[3];
	float rotation[4];
} animrt_motion;

/*
 * The motion of playing from from_s to to_s (seconds of play time, either
 * order; to_s < from_s gives the inverse): where the motion places the
 * character at to_s, seen from where it places it at from_s.  The rotation
 * is the turn from from_s to to_s; the translation is the travel in the
 * character's frame at from_s (turned back by the motion's own turn at
 * from_s, as Unity and Unreal give root motion).  A controller applies it
 * to its own position and heading, in this order:
 *     position += heading * translation;   heading = heading * rotation;
 * and follows the clip's root exactly, turns and loops included, however
 * its advances cut the time.  ANIMRT_PLAY_ONCE clamps both times to
 * [0, duration]; ANIMRT_PLAY_REPEAT composes whole loops: each loop travels
 * one loop's travel turned by the turn of the loops before it (a walk that
 * turns a quarter a loop is back at its start after four loops; one that
 * does not turn goes ten times one loop's travel in ten).  Without a turn
 * (--root-motion without ",yaw") the translation is the motion clip's at
 * to_s minus that at from_s.  ANIMRT_ERR_ARGUMENT when a pointer is NULL,
 * ANIMRT_ERR_TIME when a time is not finite, ANIMRT_ERR_PLAY_MODE,
 * ANIMRT_ERR_NOT_MOTION when the clip does not have exactly one sequence
 * (CLIP.xnb given for CLIP.motion.xnb).
 */
animrt_status animrt_motion_between(const animrt_clip *motion, float from_s, float to_s,
				    animrt_play_mode mode, animrt_motion *out);

/*
 * Give the clip the player started last its motion clip (NULL: none, the
 * default; a clip without motion moves nothing).  Call it after
 * animrt_player_play of that clip: play starts every clip without motion.
 * The motion clip must outlive its use.  ANIMRT_ERR_ARGUMENT when player is
 * NULL, ANIMRT_ERR_NOT_PLAYING before any play, ANIMRT_ERR_NOT_MOTION when
 * `motion` does not have exactly one sequence (the clip given for its
 * CLIP.motion.xnb); the player's motion is unchanged then.  (Before 0.6
 * this returned void and ignored both mistakes.  Calls that ignore the
 * status compile as they did; a function pointer typed for 0.5 and a C++
 * function returning void that returns the call need changing, as for
 * animrt_sequence_sample.)
 */
animrt_status animrt_player_set_motion(animrt_player *player, const animrt_clip *motion);

/* The motion of the player's last advance: each playing clip's motion over
 * the time it moved (animrt_motion_between: in the frame at the advance's
 * start, for the controller recipe there), and during a crossfade the two
 * blended by the weight the advance reached (lerp, slerp).  Identity before
 * any advance, and when nothing with motion plays. */
void animrt_player_motion(const animrt_player *player, animrt_motion *out);

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif /* ANIMRT_H */
