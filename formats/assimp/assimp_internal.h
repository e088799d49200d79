/*
 * assimp_internal.h - what the Assimp sources of formats/assimp/ share (and
 * their tests and fuzz target use): reading a scene with the one set of
 * import settings, and turning a scene's animations into clips.  Includes
 * Assimp's C API, so nothing outside formats/assimp/ may include it.
 */
#ifndef ANIMC_FORMATS_ASSIMP_INTERNAL_H
#define ANIMC_FORMATS_ASSIMP_INTERNAL_H

#include "assimp_api.h"

#include <animc/animc_formats.h>

/*
 * Read a scene with the settings every animc use of Assimp shares: no
 * post-processing, not even Assimp's data-structure validation (it refuses
 * files without meshes), so readers of the scene check the pointers and
 * counts they use; FBX pivots not preserved (no `$AssimpFbx$` helper
 * nodes); an .md5mesh not pulling in the .md5anim beside it (that file is
 * a source of its own).
 * From `path` when it is not NULL (formats that span several files),
 * otherwise from `data` with `format` (an extension without the dot, or
 * NULL) as Assimp's hint.  Files the source names are read only when they
 * lie in its folder or below it (beside.h), and none when it is read from
 * memory; a refused one is a warning to `sink`.  NULL on failure, with
 * Assimp's message reported to `sink`.  Release with aiReleaseImport().
 */
const struct aiScene *animc_assimp_scene_open(const char *path, const uint8_t *data, size_t size,
					      const char *format, animc_diag_sink *sink);
/* The same, telling `options`' on_file_read (`options` and the hooks may
 * be NULL) the path of every file other than `path` that Assimp opens, the
 * siblings of formats that span files, and its on_file_missing each file
 * in the source's folder or below it that Assimp looked for and did not
 * find. */
const struct aiScene *animc_assimp_scene_read(const char *path, const uint8_t *data, size_t size,
					      const char *format, const animc_import_options *options,
					      animc_diag_sink *sink);

/*
 * Turn every aiAnimation with node channels into a clip of `out` (see
 * NOTES.md): key times from ticks to seconds, quaternions from w x y z to
 * x y z w and unit length, each track keeping its own key times for the
 * merge pass.  `format` (lowercase extension, or NULL) picks the rate
 * assumed when the file declares none.  ANIMC_ERR_NOT_FOUND when the scene
 * holds no node animation.  Pure: reads the scene, writes `out` and `sink`.
 */
animc_status animc_assimp_scene_import(const struct aiScene *scene, const char *format,
				       const animc_import_options *options, animc_clip_set *out,
				       animc_diag_sink *sink);

/* The ticks per second assumed for a format whose file declares none: 4800
 * for .X (the DirectX file format's default), 24 for .md5anim (Assimp's MD5
 * reader's), else 25 (what Assimp's own viewer assumes).  `why` gets a
 * short phrase naming the source of it. */
double animc_assimp_default_rate(const char *format, const char **why);

/* The node tree of any model Assimp reads (animc_skeleton_load's fallback). */
animc_status animc_assimp_skeleton_load(const char *path, animc_skeleton *out, animc_diag_sink *sink);
/* The same, telling `hooks` (may be NULL) the files read beside the model
 * and those looked for there and not found, as animc_assimp_scene_read. */
animc_status animc_assimp_skeleton_read(const char *path, const animc_import_options *hooks, animc_skeleton *out,
					animc_diag_sink *sink);
/* The same of the model's bytes `data` (`size`), read of `path` by the
 * caller (NULL: read here); files it names are read beside `path`. */
animc_status animc_assimp_skeleton_read_bytes(const char *path, const uint8_t *data, size_t size,
					      const animc_import_options *hooks, animc_skeleton *out,
					      animc_diag_sink *sink);

/* The Assimp version animc was built against, "5.2.4" (read without
 * loading Assimp). */
const char *animc_assimp_version(void);
/* The version of the Assimp loaded at run time (loaded for it), "5.2.4",
 * or "none (built against 5.2.4)" when it cannot be loaded. */
const char *animc_assimp_loaded_version(void);

/* ------------------------------------------------------------ .X (xfile.c) */

/* What a text .X file's own bytes say of its animation sets, where
 * Assimp's reader loses or changes it. */
typedef struct animc_xfile animc_xfile;

/*
 * Read the animation sets of the .X file `data` and mend the channels of
 * `scene` (Assimp's reading of it) that Assimp got wrong, saying to `sink`
 * what cannot be mended.  NULL for a binary or compressed file, for text
 * this reader does not follow, and on no memory: then the scene is used as
 * Assimp gave it.  Release with animc_xfile_close().
 */
animc_xfile *animc_xfile_open(const uint8_t *data, size_t size, const struct aiScene *scene,
			      animc_diag_sink *sink);
void animc_xfile_close(animc_xfile *xf);   /* NULL is fine */
/* The line of the .X file `data` an Assimp error's "Line N" names; 0 when
 * the file is binary or compressed (its lines are those of text the user
 * never sees) or N is past its end. */
uint32_t animc_xfile_line(const uint8_t *data, size_t size, uint32_t assimp_line);
/* Where the tokens of the binary .X file `data` break off (Assimp gives no
 * place in a binary file): the first token that runs past the end of the
 * file, or that is no token of the format, said into `why` as "its binary
 * tokens break off at byte N: ..." (N from 0); false when they hold
 * together, or the file is no uncompressed binary .X. */
bool animc_xfile_binary_break(const uint8_t *data, size_t size, char *why, size_t why_size);
/* Where Assimp's read of an AnimationKey of the binary .X file `data`,
 * whose tokens hold together, fails (a key type it does not know, a key's
 * value count not its type's, numbers left before the closing brace),
 * said into `why` as "in the AnimationKey at byte N: ..."; false when none
 * fails so. */
bool animc_xfile_binary_bad_key(const uint8_t *data, size_t size, char *why, size_t why_size);
/* For an .X file Assimp could not read, giving no line: say the first key
 * of the file's animation sets whose values it cannot read (too few or too
 * many of them, or `1,2`, which it reads as the decimal 1.2) as an error
 * at its line; false when there is none. */
bool animc_xfile_say_bad_key(const uint8_t *data, size_t size, animc_diag_sink *sink);
/* Channel `c` of animation `a` of the scene to import: `na`, or the mended
 * one, which `xf` owns, or NULL for a channel to leave out (said by
 * animc_xfile_open).  `xf` may be NULL. */
const struct aiNodeAnim *animc_xfile_channel(const animc_xfile *xf, unsigned a, unsigned c,
					     const struct aiNodeAnim *na);
/* Say what mending that channel took, about `ch` of `clip`; true when it
 * holds a rotation key of no length (Assimp reads it as the identity) or a
 * matrix key no split holds (a projection, an axis of scale 0), said as an
 * error at its line: the clip is not to be written. */
bool animc_xfile_say(const animc_xfile *xf, unsigned a, unsigned c, const animc_clip *clip,
		     const animc_channel *ch, animc_diag_sink *sink);

#endif
