/*
 * gltf_internal.h - what the glTF sources of formats/gltf/ share (and their
 * tests and fuzz target use): the parsed document with its buffers, typed
 * reads of JSON members that report the JSON path, accessor reads, and the
 * conversion of a sampler's keys (STEP, LINEAR, CUBICSPLINE) into keys the
 * original runtime interpolates linearly.  Includes jansson, so nothing
 * outside formats/gltf/ may include it.
 */
#ifndef ANIMC_FORMATS_GLTF_INTERNAL_H
#define ANIMC_FORMATS_GLTF_INTERNAL_H

#include <jansson.h>

#include <animc/animc_formats.h>

/* Longest JSON path a message carries ("animations[12].samplers[3].output"). */
#define GLTF_PATH_BYTES 160

/* Largest buffer (external file, data URI, GLB chunk) read: the CLI's own
 * input limit. */
#define GLTF_MAX_BUFFER_BYTES ((uint64_t)1 << 30)

/* Components (floats) an accessor without a bufferView (zeros, maybe
 * sparse) may hold: such an accessor costs memory without costing input
 * bytes, 64 MiB at most. */
#define GLTF_MAX_VIRTUAL_COMPONENTS ((uint64_t)1 << 24)

/* Keys one baked track may reach; a cubic spline that needs more (absurd
 * tangents) is refused rather than allowed to exhaust memory. */
#define GLTF_MAX_BAKED_KEYS ((uint32_t)1 << 20)

/* The error bound of baking, per track kind: translation in model units,
 * rotation in radians (the angle between the baked and the exact rotation),
 * scale in scale units. */
typedef struct gltf_bounds {
	double translation;
	double rotation_rad;
	double scale;
} gltf_bounds;

/* The bounds when the caller gives none: 1e-4 of each. */
extern const gltf_bounds animc_gltf_default_bounds;

/* One buffer of the document, loaded on first use. */
typedef struct gltf_buffer {
	const uint8_t *data;
	uint64_t size;        /* byteLength */
	uint8_t *owned;       /* malloc()ed bytes behind data, or NULL */
	bool is_loaded;
	bool has_failed;      /* reported once; later uses fail quietly */
} gltf_buffer;

typedef struct gltf_doc {
	const char *path;     /* the source, for external buffers; may be NULL */
	animc_diag_sink *sink;
	json_t *root;
	const uint8_t *bin;   /* the GLB BIN chunk, or NULL */
	uint64_t bin_size;
	bool is_glb;
	json_t *buffers_json, *views_json, *accessors_json, *nodes_json;
	size_t buffer_count;
	gltf_buffer *buffers;
	animc_status error_status;   /* of the last error reported */
	/* Told each external buffer file read (animc_import_options). */
	void (*on_file_read)(void *user, const char *path);
	void *on_file_read_user;
} gltf_doc;

/*
 * Parse a .gltf or .glb held in memory: the GLB container (lengths and
 * alignment checked), the JSON (jansson, duplicate keys refused), the asset
 * version (2.x).  Buffers are loaded when an accessor first reads them.
 * Errors go to `sink` (line and column for JSON syntax, byte offsets for
 * the container).  Release with animc_gltf_doc_release, also after a failure.
 */
animc_status animc_gltf_doc_parse(gltf_doc *doc, const char *path, const uint8_t *data, size_t size,
			    animc_diag_sink *sink);
void animc_gltf_doc_release(gltf_doc *doc);

/* The version of jansson in use, "2.14". */
const char *animc_gltf_jansson_version(void);

/* printf a JSON path into out[GLTF_PATH_BYTES] (cut short when longer). */
void animc_gltf_path(char *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Report an error whose message starts with a JSON path. */
animc_status animc_gltf_fail(gltf_doc *doc, animc_status status, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The status of the last error reported (helpers that return false have
 * reported one); ANIMC_ERR_PARSE when there was none. */
animc_status animc_gltf_status(const gltf_doc *doc);
/* A warning says what is wrong in the file and what to do about it; what
 * needs no action is a note (printed with -v).  docs/warnings.md lists
 * every warning with its fix. */
void animc_gltf_warn(gltf_doc *doc, animc_warning_kind kind, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void animc_gltf_note(gltf_doc *doc, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ------------------------------------------------------------ JSON reads */

/* Member `key` of `obj`, or NULL when absent. */
json_t *animc_gltf_member(json_t *obj, const char *key);
/* The object at `value` (path `path`); NULL, reported, when it is another type. */
json_t *animc_gltf_expect_object(gltf_doc *doc, json_t *value, const char *path);
/* The array member `key` of `obj` (empty when absent); false, reported, when
 * it is another type.  *out is NULL when absent. */
bool animc_gltf_get_array(gltf_doc *doc, json_t *obj, const char *obj_path, const char *key, json_t **out);
/* An integer member in [0, limit): an index into an array of `limit`
 * entries, or a count; UINT64_MAX for no upper limit (an offset, a length,
 * a value checked later).  `required` false: *out unchanged when absent.
 * False, reported, on a wrong type or a value out of range. */
bool animc_gltf_get_index(gltf_doc *doc, json_t *obj, const char *obj_path, const char *key,
		    bool required, uint64_t limit, uint64_t *out);
/* A string member; NULL when absent (reported when required) or not a string (reported). */
const char *animc_gltf_get_string(gltf_doc *doc, json_t *obj, const char *obj_path, const char *key,
			    bool required, bool *ok);
/* `count` numbers of the array member `key`, as floats: false, reported,
 * when it is not an array of that many finite numbers (absent: *present false). */
bool animc_gltf_get_floats(gltf_doc *doc, json_t *obj, const char *obj_path, const char *key,
		     float *out, size_t count, bool *present);

/* ------------------------------------------------------------- accessors */

enum {
	GLTF_BYTE = 5120,
	GLTF_UNSIGNED_BYTE = 5121,
	GLTF_SHORT = 5122,
	GLTF_UNSIGNED_SHORT = 5123,
	GLTF_UNSIGNED_INT = 5125,
	GLTF_FLOAT = 5126
};

/* An accessor's elements as floats (normalised integers per the glTF 2.0
 * formulas, other integers as their value), sparse substitution applied,
 * every value finite. */
typedef struct gltf_accessor {
	uint32_t count;        /* elements */
	unsigned width;        /* components per element: 1 SCALAR ... 16 MAT4 */
	int component_type;    /* GLTF_BYTE ... GLTF_FLOAT */
	bool is_normalized;
	bool is_matrix;        /* MAT2, MAT3, MAT4 */
	bool has_view;         /* false: zeros, but for its sparse entries */
	uint32_t sparse_count; /* elements its sparse member replaces */
	float *values;         /* count * width, malloc()ed */
} gltf_accessor;

/*
 * Read accessor `index` for the member at `user_path` (named in every
 * error, beside the accessor's own path).  Every offset and length is
 * checked against its bufferView and buffer in subtraction form, counts
 * against overflow; a NaN or infinite value is an error naming its element.
 * Release with animc_gltf_accessor_release.
 */
animc_status animc_gltf_accessor_read(gltf_doc *doc, uint64_t index, const char *user_path,
				gltf_accessor *out);
/* The same checks with no element read and nothing allocated (values
 * stays NULL): what an accessor is, to be checked against its use before
 * its elements cost memory. */
animc_status animc_gltf_accessor_describe(gltf_doc *doc, uint64_t index, const char *user_path,
				    gltf_accessor *out);
void animc_gltf_accessor_release(gltf_accessor *acc);

/* --------------------------------------------------------------- sampling */

typedef enum gltf_interpolation {
	GLTF_LINEAR = 0,
	GLTF_STEP,
	GLTF_CUBICSPLINE
} gltf_interpolation;

/* A track as keys the original runtime interpolates linearly (lerp, slerp
 * for rotations): strictly increasing times from 0 on.  malloc()ed. */
typedef struct gltf_keys {
	float *times_s;
	float *values;       /* count * width */
	uint32_t count;
	uint32_t capacity;
	uint32_t dropped_before_zero;  /* source keys before time 0, left out */
	/* After ANIMC_ERR_LIMIT (the rest released): the source key that starts
	 * the segment not followed, and whether a rotation curve there passes
	 * through (or next to) the zero quaternion, where there is no rotation
	 * to normalise. */
	uint32_t limit_key;
	bool is_through_zero;
} gltf_keys;

/*
 * Turn one sampler's keys into linear keys.  `times` are `n` strictly
 * increasing finite seconds; `values` hold n values of `width` floats (3,
 * or 4 for rotations, unit length), or 3n for CUBICSPLINE (in-tangent,
 * value, out-tangent per key).
 *  - LINEAR: the keys as they are.
 *  - STEP: before each change of value, one more key holding the old value
 *    at the float just below the new key's time, so that no float time
 *    samples between the two.
 *  - CUBICSPLINE: the Hermite curve of the glTF 2.0 specification
 *    (tangents times the key interval; rotations normalised) baked into
 *    keys by adaptive bisection until linear interpolation between them
 *    stays within `bound` (gltf_bounds, per kind) of the curve.
 * Keys before time 0 are left out, the value at 0 interpolated by the
 * sampler's own rule; a track whose first key is after 0 gets one at 0 with
 * the first value (the original runtime extrapolates before its first key).
 * ANIMC_ERR_LIMIT when the curve needs more than GLTF_MAX_BAKED_KEYS keys
 * (limit_key and is_through_zero then say where and why).
 * Pure: no diagnostics; the caller names the sampler.
 */
animc_status animc_gltf_keys_build(gltf_interpolation mode, bool is_rotation, unsigned width,
			     const float *times, const float *values, uint32_t n, double bound,
			     gltf_keys *out);
void animc_gltf_keys_release(gltf_keys *keys);

/* The error bound of `kind` within `bounds`. */
double animc_gltf_bound_of(const gltf_bounds *bounds, animc_track_kind kind);

/* ------------------------------------------------------------ import, skeleton */

/* Every animation of a parsed document into clips (see NOTES.md).
 * `bounds` NULL = animc_gltf_default_bounds. */
animc_status animc_gltf_doc_import(gltf_doc *doc, const animc_import_options *options,
			     const gltf_bounds *bounds, animc_clip_set *out);

/* The node tree of the document's default scene as a skeleton (see NOTES.md). */
animc_status animc_gltf_doc_skeleton(gltf_doc *doc, animc_skeleton *out);

/* The glTF name of node `index`: its "name", or "nodes[N]" when it has none. */
const char *animc_gltf_node_name(gltf_doc *doc, size_t index, char buf[GLTF_PATH_BYTES]);

/* Read a whole regular file of at most `max_bytes`; false with a reason. */
bool animc_gltf_read_file(const char *path, uint64_t max_bytes, uint8_t **data, size_t *size,
		    char *why, size_t why_size);

#endif
