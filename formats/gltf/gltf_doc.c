/*
 * gltf_doc.c - reading a glTF 2.0 document: the GLB container, the JSON
 * (through jansson), typed member reads that name the JSON path, buffers
 * (GLB chunk, base64 data URIs, files beside the source) and accessors of
 * every component type, strided, normalised and sparse.  Every read of
 * input bytes is checked in subtraction form (`len > size - off`).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "beside.h"
#include "gltf_internal.h"

#define GLB_MAGIC 0x46546C67u       /* "glTF" */
#define GLB_CHUNK_JSON 0x4E4F534Au  /* "JSON" */
#define GLB_CHUNK_BIN 0x004E4942u   /* "BIN\0" */
#define GLB_HEADER_BYTES 12
#define GLB_CHUNK_HEADER_BYTES 8

/* ------------------------------------------------------------ diagnostics */

static animc_status vfail(gltf_doc *doc, animc_severity severity, animc_warning_kind kind,
			  animc_status status, const char *path, const char *fmt, va_list ap)
{
	char what[1024];

	vsnprintf(what, sizeof what, fmt, ap);
	if (path && path[0])
		animc_diag_report_kind(doc->sink, severity, kind, 0, 0, "%s: %s", path, what);
	else
		animc_diag_report_kind(doc->sink, severity, kind, 0, 0, "%s", what);
	return status;
}

animc_status animc_gltf_fail(gltf_doc *doc, animc_status status, const char *path, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(doc, ANIMC_ERROR, ANIMC_WARN_NONE, status, path, fmt, ap);
	va_end(ap);
	doc->error_status = status;
	return status;
}

animc_status animc_gltf_status(const gltf_doc *doc)
{
	return doc->error_status != ANIMC_OK ? doc->error_status : ANIMC_ERR_PARSE;
}

void animc_gltf_warn(gltf_doc *doc, animc_warning_kind kind, const char *path, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(doc, ANIMC_WARNING, kind, ANIMC_OK, path, fmt, ap);
	va_end(ap);
}

void animc_gltf_note(gltf_doc *doc, const char *path, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(doc, ANIMC_NOTE, ANIMC_WARN_NONE, ANIMC_OK, path, fmt, ap);
	va_end(ap);
}

void animc_gltf_path(char *out, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(out, GLTF_PATH_BYTES, fmt, ap);
	va_end(ap);
}

static const char *json_type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "an integer";
	case JSON_REAL: return "a number";
	case JSON_TRUE:
	case JSON_FALSE: return "a boolean";
	case JSON_NULL: return "null";
	}
	return "a value";
}

/* ------------------------------------------------------------ JSON reads */

json_t *animc_gltf_member(json_t *obj, const char *key)
{
	return obj && json_is_object(obj) ? json_object_get(obj, key) : NULL;
}

json_t *animc_gltf_expect_object(gltf_doc *doc, json_t *value, const char *path)
{
	if (value && json_is_object(value))
		return value;
	animc_gltf_fail(doc, ANIMC_ERR_PARSE, path, "expected an object, found %s",
		  value ? json_type_name(value) : "nothing");
	return NULL;
}

bool animc_gltf_get_array(gltf_doc *doc, json_t *obj, const char *obj_path, const char *key, json_t **out)
{
	json_t *v = animc_gltf_member(obj, key);

	*out = NULL;
	if (!v)
		return true;
	if (!json_is_array(v)) {
		animc_gltf_fail(doc, ANIMC_ERR_PARSE, NULL, "%s%s%s: expected an array, found %s", obj_path,
			  obj_path[0] ? "." : "", key, json_type_name(v));
		return false;
	}
	*out = v;
	return true;
}

bool animc_gltf_get_index(gltf_doc *doc, json_t *obj, const char *obj_path, const char *key,
		    bool required, uint64_t limit, uint64_t *out)
{
	json_t *v = animc_gltf_member(obj, key);
	json_int_t i;

	if (!v) {
		if (required)
			animc_gltf_fail(doc, ANIMC_ERR_PARSE, obj_path, "'%s' is missing", key);
		return !required;
	}
	if (!json_is_integer(v)) {
		animc_gltf_fail(doc, ANIMC_ERR_PARSE, NULL, "%s%s%s: expected an integer, found %s", obj_path,
			  obj_path[0] ? "." : "", key,
			  json_type_name(v));
		return false;
	}
	i = json_integer_value(v);
	/* No limit (an offset, a length, a componentType checked later): the
	 * only range is "not negative". */
	if (i < 0 && limit == UINT64_MAX) {
		animc_gltf_fail(doc, ANIMC_ERR_INVALID, NULL, "%s%s%s: must not be negative (found %lld)",
			  obj_path, obj_path[0] ? "." : "", key, (long long)i);
		return false;
	}
	if (i < 0 || (uint64_t)i >= limit) {
		if (limit)
			animc_gltf_fail(doc, ANIMC_ERR_INVALID, NULL, "%s%s%s: %lld is out of range (0 to %llu)", obj_path,
				  obj_path[0] ? "." : "", key, (long long)i, (unsigned long long)(limit - 1));
		else
			animc_gltf_fail(doc, ANIMC_ERR_INVALID, NULL, "%s%s%s: %lld is out of range: the list it "
				  "indexes is empty or missing", obj_path, obj_path[0] ? "." : "", key, (long long)i);
		return false;
	}
	*out = (uint64_t)i;
	return true;
}

const char *animc_gltf_get_string(gltf_doc *doc, json_t *obj, const char *obj_path, const char *key,
			    bool required, bool *ok)
{
	json_t *v = animc_gltf_member(obj, key);

	*ok = true;
	if (!v) {
		if (required) {
			animc_gltf_fail(doc, ANIMC_ERR_PARSE, obj_path, "'%s' is missing", key);
			*ok = false;
		}
		return NULL;
	}
	if (!json_is_string(v)) {
		animc_gltf_fail(doc, ANIMC_ERR_PARSE, NULL, "%s%s%s: expected a string, found %s", obj_path,
			  obj_path[0] ? "." : "", key, json_type_name(v));
		*ok = false;
		return NULL;
	}
	return json_string_value(v);
}

bool animc_gltf_get_floats(gltf_doc *doc, json_t *obj, const char *obj_path, const char *key,
		     float *out, size_t count, bool *present)
{
	json_t *v = animc_gltf_member(obj, key);

	*present = v != NULL;
	if (!v)
		return true;
	if (!json_is_array(v) || json_array_size(v) != count) {
		animc_gltf_fail(doc, ANIMC_ERR_PARSE, NULL, "%s%s%s: expected an array of %zu numbers, found %s",
			  obj_path, obj_path[0] ? "." : "", key, count, json_type_name(v));
		return false;
	}
	for (size_t i = 0; i < count; i++) {
		json_t *e = json_array_get(v, i);
		double d;

		if (!json_is_number(e)) {
			animc_gltf_fail(doc, ANIMC_ERR_PARSE, NULL, "%s%s%s[%zu]: expected a number, found %s",
				  obj_path, obj_path[0] ? "." : "", key, i, json_type_name(e));
			return false;
		}
		d = json_number_value(e);
		if (!isfinite((float)d)) {
			animc_gltf_fail(doc, ANIMC_ERR_INVALID, NULL, "%s%s%s[%zu]: %g does not fit in a float",
				  obj_path, obj_path[0] ? "." : "", key, i, d);
			return false;
		}
		out[i] = (float)d;
	}
	return true;
}

/* A boolean member; absent: false. */
static bool get_bool(gltf_doc *doc, json_t *obj, const char *obj_path, const char *key, bool *out)
{
	json_t *v = animc_gltf_member(obj, key);

	*out = false;
	if (!v)
		return true;
	if (!json_is_boolean(v)) {
		animc_gltf_fail(doc, ANIMC_ERR_PARSE, NULL, "%s%s%s: expected a boolean, found %s", obj_path,
			  obj_path[0] ? "." : "", key,
			  json_type_name(v));
		return false;
	}
	*out = json_is_true(v);
	return true;
}

/* ------------------------------------------------------------------ parse */

static uint32_t read_u32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The GLB container: header, JSON chunk, optional BIN chunk, other chunks
 * ignored (as the specification asks).  The JSON chunk's bytes go to json and json_size. */
static animc_status parse_glb(gltf_doc *doc, const uint8_t *data, size_t size, const uint8_t **json,
			      size_t *json_size)
{
	uint32_t version, length;
	size_t off = GLB_HEADER_BYTES;
	unsigned chunk = 0;

	if (size < GLB_HEADER_BYTES) {
		animc_diag_report_at(doc->sink, ANIMC_ERROR, (int64_t)size,
				     "GLB header: the file ends after %zu of its 12 bytes", size);
		return ANIMC_ERR_PARSE;
	}
	version = read_u32(data + 4);
	length = read_u32(data + 8);
	if (version != 2) {
		animc_diag_report_at(doc->sink, ANIMC_ERROR, 4,
				     "GLB version %u: only GLB version 2 (glTF 2.0) is read%s", version,
				     version == 1 ? " (nor does Assimp read glTF 1.0 animations): convert the file to "
				     "glTF 2.0" : "");
		return ANIMC_ERR_UNSUPPORTED;
	}
	if (length != size) {
		animc_diag_report_at(doc->sink, ANIMC_ERROR, 8,
				     "GLB header: length %u, but the file is %zu bytes", length, size);
		return ANIMC_ERR_PARSE;
	}
	while (off < size) {
		uint32_t chunk_length, type;

		if (size - off < GLB_CHUNK_HEADER_BYTES) {
			animc_diag_report_at(doc->sink, ANIMC_ERROR, (int64_t)off,
					     "GLB chunk %u: its header runs past the end of the file", chunk);
			return ANIMC_ERR_PARSE;
		}
		chunk_length = read_u32(data + off);
		type = read_u32(data + off + 4);
		if (chunk_length > size - off - GLB_CHUNK_HEADER_BYTES) {
			animc_diag_report_at(doc->sink, ANIMC_ERROR, (int64_t)off,
					     "GLB chunk %u: length %u runs past the end of the file (%zu bytes "
					     "left)", chunk, chunk_length, size - off - GLB_CHUNK_HEADER_BYTES);
			return ANIMC_ERR_PARSE;
		}
		if (chunk_length % 4 != 0) {
			animc_diag_report_at(doc->sink, ANIMC_ERROR, (int64_t)off,
					     "GLB chunk %u: length %u is not a multiple of 4 (chunks are "
					     "4-byte aligned)", chunk, chunk_length);
			return ANIMC_ERR_PARSE;
		}
		if (chunk == 0) {
			if (type != GLB_CHUNK_JSON) {
				animc_diag_report_at(doc->sink, ANIMC_ERROR, (int64_t)off + 4,
						     "GLB chunk 0 is of type 0x%08X, not JSON", type);
				return ANIMC_ERR_PARSE;
			}
			*json = data + off + GLB_CHUNK_HEADER_BYTES;
			*json_size = chunk_length;
		} else if (type == GLB_CHUNK_JSON) {
			animc_diag_report_at(doc->sink, ANIMC_ERROR, (int64_t)off + 4,
					     "GLB chunk %u: a second JSON chunk", chunk);
			return ANIMC_ERR_PARSE;
		} else if (type == GLB_CHUNK_BIN) {
			if (chunk != 1) {
				animc_diag_report_at(doc->sink, ANIMC_ERROR, (int64_t)off + 4,
						     "GLB chunk %u: a BIN chunk must be chunk 1", chunk);
				return ANIMC_ERR_PARSE;
			}
			doc->bin = data + off + GLB_CHUNK_HEADER_BYTES;
			doc->bin_size = chunk_length;
		}
		off += GLB_CHUNK_HEADER_BYTES + (size_t)chunk_length;
		chunk++;
	}
	if (chunk == 0) {
		animc_diag_report_at(doc->sink, ANIMC_ERROR, GLB_HEADER_BYTES, "GLB file without chunks");
		return ANIMC_ERR_PARSE;
	}
	return ANIMC_OK;
}

/* "2.0" and any later 2.x: major and minor as digits, dot between. */
static bool parse_version(const char *s, unsigned long *major, unsigned long *minor)
{
	char *end;

	if (!s || *s < '0' || *s > '9')
		return false;
	*major = strtoul(s, &end, 10);
	if (*end != '.' || end[1] < '0' || end[1] > '9')
		return false;
	*minor = strtoul(end + 1, &end, 10);
	return *end == '\0';
}

static animc_status check_asset(gltf_doc *doc)
{
	json_t *asset = animc_gltf_member(doc->root, "asset");
	unsigned long major, minor;
	const char *version, *min_version;
	bool ok;

	if (!asset)
		return animc_gltf_fail(doc, ANIMC_ERR_PARSE, "asset", "missing: a glTF document has an asset "
				 "object with its version");
	if (!animc_gltf_expect_object(doc, asset, "asset"))
		return animc_gltf_status(doc);
	version = animc_gltf_get_string(doc, asset, "asset", "version", true, &ok);
	if (!ok)
		return animc_gltf_status(doc);
	if (!parse_version(version, &major, &minor))
		return animc_gltf_fail(doc, ANIMC_ERR_PARSE, "asset.version", "'%s' is not a version "
				 "(MAJOR.MINOR)", version);
	if (major != 2)
		return animc_gltf_fail(doc, ANIMC_ERR_UNSUPPORTED, "asset.version",
				 "glTF %s: only glTF 2.0 is read%s", version,
				 major == 1 ? " (nor does Assimp read glTF 1.0 animations): convert the file to glTF 2.0" : "");
	min_version = animc_gltf_get_string(doc, asset, "asset", "minVersion", false, &ok);
	if (!ok)
		return animc_gltf_status(doc);
	if (min_version && (!parse_version(min_version, &major, &minor) || major != 2 || minor > 0))
		return animc_gltf_fail(doc, ANIMC_ERR_UNSUPPORTED, "asset.minVersion",
				 "'%s': this reader knows glTF 2.0", min_version);
	return ANIMC_OK;
}

/*
 * Extensions a file may require that animc reads, or that touch no
 * animation, node transform or accessor it reads.  Read: the meshopt ones
 * (a compressed view is refused where an accessor uses it, its fallback
 * read when it has one), KHR_mesh_quantization (integer accessors), and
 * KHR_animation_pointer (node channels read, pointers to a node's
 * translation, rotation, scale or weights read as those channels, other
 * pointers left out with a warning each).  Ignored safely: meshes, textures, materials,
 * lights, instancing and metadata.  NOTES.md lists them.
 */
static const char *const known_required[] = {
	"EXT_meshopt_compression", "KHR_meshopt_compression", "KHR_mesh_quantization",
	"KHR_animation_pointer", "KHR_draco_mesh_compression", "KHR_technique_webgl",
	"KHR_lights_punctual", "EXT_lights_image_based", "EXT_mesh_gpu_instancing", "KHR_xmp_json_ld",
};

/* Materials and textures, of any vendor (KHR_texture_basisu, EXT_texture_webp,
 * GOOGLE_texture_basis, MSFT_texture_dds, KHR_texture_ktx, ...): they touch
 * no node or animation. */
static const char *const known_required_prefixes[] = {
	"KHR_materials_", "KHR_texture_", "EXT_texture_", "MSFT_texture_", "GOOGLE_texture_",
};

static bool is_known_required(const char *name)
{
	for (size_t i = 0; i < sizeof known_required_prefixes / sizeof known_required_prefixes[0]; i++)
		if (strncmp(name, known_required_prefixes[i], strlen(known_required_prefixes[i])) == 0)
			return true;
	for (size_t i = 0; i < sizeof known_required / sizeof known_required[0]; i++)
		if (strcmp(name, known_required[i]) == 0)
			return true;
	return false;
}

/* The glTF 2.0 specification: a loader that does not support an extension
 * of extensionsRequired must fail to load the asset.  One it does not know
 * may change what animations or nodes mean (a time remap, another node
 * transform), so it is refused, naming it, rather than read as if absent. */
static animc_status check_required_extensions(gltf_doc *doc)
{
	json_t *required;

	if (!animc_gltf_get_array(doc, doc->root, "", "extensionsRequired", &required))
		return animc_gltf_status(doc);
	for (size_t i = 0; required && i < json_array_size(required); i++) {
		json_t *entry = json_array_get(required, i);
		char path[GLTF_PATH_BYTES];

		animc_gltf_path(path, "extensionsRequired[%zu]", i);
		if (!json_is_string(entry))
			return animc_gltf_fail(doc, ANIMC_ERR_PARSE, path, "expected an extension's name, found %s",
					 json_type_name(entry));
		if (!is_known_required(json_string_value(entry)))
			return animc_gltf_fail(doc, ANIMC_ERR_UNSUPPORTED, path, "the file requires extension '%s', "
					 "which animc does not read; it may change what the animations mean, so the "
					 "file is not read: export it without that extension",
					 json_string_value(entry));
	}
	return ANIMC_OK;
}

animc_status animc_gltf_doc_parse(gltf_doc *doc, const char *path, const uint8_t *data, size_t size,
			    animc_diag_sink *sink)
{
	const uint8_t *json = data;
	size_t json_size = size, offset = 0;
	json_error_t err;
	animc_status status;

	memset(doc, 0, sizeof *doc);
	doc->path = path;
	doc->sink = sink;
	if (size == 0) {
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "the file is empty");
		return ANIMC_ERR_PARSE;
	}
	/* The magic, or as much of it as a cut file holds. */
	if (size >= 4 ? read_u32(data) == GLB_MAGIC : memcmp(data, "glTF", size) == 0) {
		doc->is_glb = true;
		status = parse_glb(doc, data, size, &json, &json_size);
		if (status != ANIMC_OK)
			return status;
		offset = (size_t)(json - data);
	}
	/* A byte order mark is not JSON; some writers put one anyway. */
	if (json_size >= 3 && memcmp(json, "\xEF\xBB\xBF", 3) == 0) {
		json += 3;
		json_size -= 3;
		offset += 3;
	}
	doc->root = json_loadb((const char *)json, json_size, JSON_REJECT_DUPLICATES, &err);
	if (!doc->root) {
		if (doc->is_glb)
			animc_diag_report_at(sink, ANIMC_ERROR, (int64_t)(offset + (size_t)err.position),
					     "JSON chunk: %s", err.text);
		else
			animc_diag_report(sink, ANIMC_ERROR, err.line > 0 ? (uint32_t)err.line : 0,
					  err.column > 0 ? (uint32_t)err.column : 0, "JSON: %s", err.text);
		return animc_gltf_status(doc);
	}
	if (!json_is_object(doc->root))
		return animc_gltf_fail(doc, ANIMC_ERR_PARSE, NULL, "the JSON root is %s, not an object",
				 json_type_name(doc->root));
	status = check_asset(doc);
	if (status == ANIMC_OK)
		status = check_required_extensions(doc);
	if (status != ANIMC_OK)
		return status;
	if (!animc_gltf_get_array(doc, doc->root, "", "buffers", &doc->buffers_json) ||
	    !animc_gltf_get_array(doc, doc->root, "", "bufferViews", &doc->views_json) ||
	    !animc_gltf_get_array(doc, doc->root, "", "accessors", &doc->accessors_json) ||
	    !animc_gltf_get_array(doc, doc->root, "", "nodes", &doc->nodes_json))
		return animc_gltf_status(doc);
	doc->buffer_count = doc->buffers_json ? json_array_size(doc->buffers_json) : 0;
	if (doc->buffer_count) {
		doc->buffers = calloc(doc->buffer_count, sizeof *doc->buffers);
		if (!doc->buffers)
			return animc_gltf_fail(doc, ANIMC_ERR_NOMEM, NULL, "out of memory");
	}
	return ANIMC_OK;
}

void animc_gltf_doc_release(gltf_doc *doc)
{
	if (!doc)
		return;
	for (size_t i = 0; doc->buffers && i < doc->buffer_count; i++)
		free(doc->buffers[i].owned);
	free(doc->buffers);
	if (doc->root)
		json_decref(doc->root);
	memset(doc, 0, sizeof *doc);
}

/* ---------------------------------------------------------------- buffers */

static int base64_value(uint8_t c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

/* Strict base64 (RFC 4648 alphabet, '=' padding only at the end); the
 * decoded bytes into a new buffer.  False, with the offending position. */
static bool base64_decode(const char *s, size_t n, uint8_t **out, size_t *out_size, size_t *bad)
{
	size_t pad = 0, len, o = 0;
	uint8_t *buf;
	uint32_t acc = 0;
	unsigned bits = 0;

	while (pad < 2 && n > pad && s[n - 1 - pad] == '=')
		pad++;
	len = n - pad;
	if ((len + pad) % 4 != 0 && pad) {
		*bad = n - 1;
		return false;
	}
	if (len % 4 == 1) {
		*bad = n;
		return false;
	}
	buf = malloc(len / 4 * 3 + 3);
	if (!buf) {
		*bad = SIZE_MAX;
		return false;
	}
	for (size_t i = 0; i < len; i++) {
		int v = base64_value((uint8_t)s[i]);

		if (v < 0) {
			free(buf);
			*bad = i;
			return false;
		}
		acc = acc << 6 | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			buf[o++] = (uint8_t)(acc >> bits);
		}
	}
	*out = buf;
	*out_size = o;
	return true;
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* animc_gltf_read_file of the file open as `fd` (closed here; -1, with
 * errno, when the open failed). */
static bool read_opened(int fd, uint64_t max_bytes, uint8_t **data, size_t *size, char *why, size_t why_size)
{
	struct stat st;
	uint8_t *buf;
	size_t got = 0;

	*data = NULL;
	if (fd < 0) {
		snprintf(why, why_size, "cannot open: %s", strerror(errno));
		return false;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		snprintf(why, why_size, "is not a regular file");
		close(fd);
		return false;
	}
	if ((uint64_t)st.st_size > max_bytes) {
		snprintf(why, why_size, "is larger than %llu bytes", (unsigned long long)max_bytes);
		close(fd);
		return false;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		snprintf(why, why_size, "out of memory");
		close(fd);
		return false;
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n < 0)
				snprintf(why, why_size, "cannot read: %s", strerror(errno));
			else
				snprintf(why, why_size, "changed while it was read");
			free(buf);
			close(fd);
			return false;
		}
		got += (size_t)n;
	}
	close(fd);
	buf[got] = 0;
	*data = buf;
	*size = got;
	return true;
}

bool animc_gltf_read_file(const char *path, uint64_t max_bytes, uint8_t **data, size_t *size,
		    char *why, size_t why_size)
{
	return read_opened(open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), max_bytes, data, size, why, why_size);
}

/*
 * A relative URI reference to a file beside the source: percent-decoded,
 * no scheme, not absolute, no '..' that climbs out of the source's folder,
 * and (symbolic links resolved) inside that folder.  The file's path in
 * a new string, and the file open in *fd (animc_beside_open: the file
 * checked, not one a folder swapped for a link since leads to; -1, with
 * errno, when it cannot be opened), or NULL (reported).
 */
static char *resolve_uri_path(gltf_doc *doc, const char *uri, const char *path, int *fd)
{
	size_t n = strlen(uri), o = 0;
	char *decoded = malloc(n + 1), *dir = NULL, *joined = NULL, *real = NULL;
	long depth = 0;
	int open_error;

	*fd = -1;
	if (!decoded) {
		animc_gltf_fail(doc, ANIMC_ERR_NOMEM, path, "out of memory");
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		char c = uri[i];

		if (c == '%') {
			int hi = n - i >= 3 ? hex_value(uri[i + 1]) : -1;
			int lo = hi >= 0 ? hex_value(uri[i + 2]) : -1;

			if (hi < 0 || lo < 0 || (hi == 0 && lo == 0)) {
				animc_gltf_fail(doc, ANIMC_ERR_PARSE, path, "'%s': bad percent-encoding at "
					  "character %zu", uri, i + 1);
				goto fail;
			}
			c = (char)(hi << 4 | lo);
			i += 2;
		} else if (c == '?' || c == '#') {
			animc_gltf_fail(doc, ANIMC_ERR_UNSUPPORTED, path, "'%s': a query or fragment in a buffer "
				  "URI is not supported", uri);
			goto fail;
		}
		decoded[o++] = c;
	}
	decoded[o] = '\0';
	/* A scheme ("file:", "http:") or a drive letter: not a relative path. */
	for (size_t i = 0; i < o && decoded[i] != '/'; i++) {
		if (decoded[i] == ':') {
			animc_gltf_fail(doc, ANIMC_ERR_INVALID, path, "'%s' is not a relative URI: only files "
				  "beside the source are read", uri);
			goto fail;
		}
	}
	if (o == 0 || decoded[0] == '/' || strchr(decoded, '\\')) {
		animc_gltf_fail(doc, ANIMC_ERR_INVALID, path, "'%s' is %s: only relative paths to files beside "
			  "the source are read", uri, o == 0 ? "empty" : decoded[0] == '/' ?
			  "an absolute path" : "not a URI path (it holds a backslash)");
		goto fail;
	}
	/* Lexically: every '..' must stay within the folder.  The dot segments
	 * are removed as a URI reference resolves (RFC 3986, 5.2.4), in place:
	 * "textures/../m.bin" is m.bin whether or not a folder "textures" is
	 * there, as a browser loads it. */
	o = 0;
	for (const char *p = decoded; *p;) {
		const char *end = strchr(p, '/');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len == 2 && p[0] == '.' && p[1] == '.') {
			depth--;
			while (o > 0 && decoded[--o] != '/')
				;
		} else if (len > 0 && !(len == 1 && p[0] == '.')) {
			depth++;
			if (o > 0)
				decoded[o++] = '/';
			memmove(decoded + o, p, len);
			o += len;
		}
		if (depth < 0) {
			animc_gltf_fail(doc, ANIMC_ERR_INVALID, path, "'%s' leads out of the source's folder: only "
				  "files beside the source are read", uri);
			goto fail;
		}
		p += len + (end != NULL);
	}
	decoded[o] = '\0';
	if (!doc->path) {
		animc_gltf_fail(doc, ANIMC_ERR_ARGUMENT, path, "'%s' is an external file, and the source was "
			  "given from memory without its path", uri);
		goto fail;
	}
	dir = animc_beside_folder(doc->path);
	if (dir && asprintf(&joined, "%s/%s", dir, decoded) < 0)
		joined = NULL;
	if (!dir || !joined) {
		animc_gltf_fail(doc, ANIMC_ERR_NOMEM, path, "out of memory");
		goto fail;
	}
	switch (animc_beside_open(dir, joined, O_NONBLOCK, &real, fd)) {
	case ANIMC_BESIDE_INSIDE:
		break;
	case ANIMC_BESIDE_MISSING: {
		int error = errno;

		/* Needed all the same: a build watching what the import
		 * read builds it again once the file is there. */
		if (doc->on_file_read)
			doc->on_file_read(doc->on_file_read_user, joined);
		animc_gltf_fail(doc, ANIMC_ERR_IO, path, "'%s': cannot open '%s': %s", uri, joined,
			  strerror(error));
		goto fail;
	}
	case ANIMC_BESIDE_OUTSIDE:
		animc_gltf_fail(doc, ANIMC_ERR_INVALID, path, "'%s' resolves to '%s', outside the source's "
			  "folder: only files beside the source are read", uri, real);
		goto fail;
	case ANIMC_BESIDE_FOLDER:
		animc_gltf_fail(doc, ANIMC_ERR_INVALID, path, "'%s' names the source's folder ('%s'), not a "
			  "file: only files beside the source are read", uri, real);
		goto fail;
	}
	open_error = errno;
	free(decoded);
	free(dir);
	free(real);
	errno = open_error;
	return joined;
fail:
	free(decoded);
	free(dir);
	free(joined);
	free(real);
	return NULL;
}

/* Load buffer `index` (once); false when it cannot be (reported once). */
static bool load_buffer(gltf_doc *doc, uint64_t index)
{
	gltf_buffer *b = &doc->buffers[index];
	char path[GLTF_PATH_BYTES], uri_path[GLTF_PATH_BYTES];
	json_t *obj;
	const char *uri;
	uint64_t length;
	bool ok;

	if (b->is_loaded)
		return true;
	if (b->has_failed)
		return false;
	b->has_failed = true;
	animc_gltf_path(path, "buffers[%llu]", (unsigned long long)index);
	animc_gltf_path(uri_path, "%s.uri", path);
	obj = animc_gltf_expect_object(doc, json_array_get(doc->buffers_json, index), path);
	if (!obj || !animc_gltf_get_index(doc, obj, path, "byteLength", true, GLTF_MAX_BUFFER_BYTES + 1,
				    &length))
		return false;
	if (length == 0) {
		animc_gltf_fail(doc, ANIMC_ERR_INVALID, path, "byteLength is 0");
		return false;
	}
	uri = animc_gltf_get_string(doc, obj, path, "uri", false, &ok);
	if (!ok)
		return false;
	if (!uri) {
		if (!doc->is_glb || index != 0 || !doc->bin) {
			animc_gltf_fail(doc, ANIMC_ERR_INVALID, path, "has no uri, and %s", !doc->is_glb ?
				  "only a GLB file holds a buffer without one" : index != 0 ?
				  "only buffers[0] can be the GLB binary chunk" :
				  "the GLB file has no BIN chunk");
			return false;
		}
		/* The chunk is padded to 4 bytes: up to 3 bytes more. */
		if (length > doc->bin_size || doc->bin_size - length > 3) {
			animc_gltf_fail(doc, ANIMC_ERR_INVALID, path, "byteLength %llu, but the GLB BIN chunk "
				  "holds %llu bytes", (unsigned long long)length,
				  (unsigned long long)doc->bin_size);
			return false;
		}
		b->data = doc->bin;
	} else if (strncmp(uri, "data:", 5) == 0) {
		const char *comma = strchr(uri, ',');
		size_t decoded_size, bad;
		uint8_t *decoded;

		if (!comma || comma - uri < 12 || memcmp(comma - 7, ";base64", 7) != 0) {
			animc_gltf_fail(doc, ANIMC_ERR_UNSUPPORTED, uri_path, "a data URI that is not base64 "
				  "(only 'data:...;base64,' is read)");
			return false;
		}
		if (!base64_decode(comma + 1, strlen(comma + 1), &decoded, &decoded_size, &bad)) {
			if (bad == SIZE_MAX)
				animc_gltf_fail(doc, ANIMC_ERR_NOMEM, uri_path, "out of memory");
			else
				animc_gltf_fail(doc, ANIMC_ERR_PARSE, uri_path, "bad base64 at character %zu of "
					  "the data", bad + 1);
			return false;
		}
		if (decoded_size < length) {
			free(decoded);
			animc_gltf_fail(doc, ANIMC_ERR_INVALID, uri_path, "the data URI holds %zu bytes, "
				  "byteLength says %llu", decoded_size, (unsigned long long)length);
			return false;
		}
		b->owned = decoded;
		b->data = decoded;
	} else {
		int fd, error;
		char *file = resolve_uri_path(doc, uri, uri_path, &fd), why[256];
		uint8_t *bytes;
		size_t size;

		if (!file)
			return false;
		error = errno;
		/* Said before it is read: one the read fails on (out of
		 * memory, say) is still one the import needed. */
		if (doc->on_file_read)
			doc->on_file_read(doc->on_file_read_user, file);
		errno = error;
		if (!read_opened(fd, GLTF_MAX_BUFFER_BYTES, &bytes, &size, why, sizeof why)) {
			animc_gltf_fail(doc, ANIMC_ERR_IO, uri_path, "'%s' %s", file, why);
			free(file);
			return false;
		}
		if (size < length) {
			animc_gltf_fail(doc, ANIMC_ERR_INVALID, uri_path, "'%s' is %zu bytes, byteLength says "
				  "%llu", file, size, (unsigned long long)length);
			free(bytes);
			free(file);
			return false;
		}
		free(file);
		b->owned = bytes;
		b->data = bytes;
	}
	b->size = length;
	b->is_loaded = true;
	b->has_failed = false;
	return true;
}

/* A bufferView: its bytes, checked to lie in its buffer. */
typedef struct view {
	const uint8_t *data;
	uint64_t size;
	uint64_t stride;   /* 0 when not given */
} view;

/* The meshopt extension object of a bufferView or buffer, or NULL. */
static json_t *meshopt_of(json_t *obj)
{
	json_t *ext = animc_gltf_member(animc_gltf_member(obj, "extensions"), "EXT_meshopt_compression");

	return ext ? ext : animc_gltf_member(animc_gltf_member(obj, "extensions"), "KHR_meshopt_compression");
}

/*
 * Whether a meshopt-compressed view's own buffer holds its data
 * uncompressed (gltfpack -cf, the extension not required): loaders without
 * the extension read that, as the extension's specification intends.  A
 * buffer marked "fallback": true, or with no bytes (no uri, and not the GLB
 * BIN chunk), holds none: the view can be read only compressed.
 */
static bool has_fallback(gltf_doc *doc, uint64_t buffer)
{
	json_t *obj = json_array_get(doc->buffers_json, buffer);

	if (json_is_true(animc_gltf_member(meshopt_of(obj), "fallback")))
		return false;
	return json_is_string(animc_gltf_member(obj, "uri")) || (doc->is_glb && buffer == 0 && doc->bin);
}

static bool read_view(gltf_doc *doc, uint64_t index, const char *user, view *out)
{
	char path[GLTF_PATH_BYTES];
	uint64_t buffer, offset = 0, length, stride = 0;
	json_t *obj, *ext;

	animc_gltf_path(path, "bufferViews[%llu]", (unsigned long long)index);
	obj = animc_gltf_expect_object(doc, json_array_get(doc->views_json, index), path);
	if (!obj || !animc_gltf_get_index(doc, obj, path, "buffer", true, doc->buffer_count, &buffer) ||
	    !animc_gltf_get_index(doc, obj, path, "byteOffset", false, UINT64_MAX, &offset) ||
	    !animc_gltf_get_index(doc, obj, path, "byteLength", true, UINT64_MAX, &length) ||
	    !animc_gltf_get_index(doc, obj, path, "byteStride", false, 253, &stride))
		return false;
	ext = meshopt_of(obj);
	if (ext && !has_fallback(doc, buffer)) {
		animc_gltf_fail(doc, ANIMC_ERR_UNSUPPORTED, path, "meshopt-compressed buffer views are not "
			  "read, and buffers[%llu] holds no uncompressed fallback (used by %s)",
			  (unsigned long long)buffer, user);
		return false;
	}
	if (animc_gltf_member(obj, "byteStride") && (stride < 4 || stride % 4 != 0)) {
		animc_gltf_fail(doc, ANIMC_ERR_INVALID, path, "byteStride %llu is not a multiple of 4 from 4 "
			  "to 252", (unsigned long long)stride);
		return false;
	}
	if (length == 0) {
		animc_gltf_fail(doc, ANIMC_ERR_INVALID, path, "byteLength is 0");
		return false;
	}
	if (!load_buffer(doc, buffer))
		return false;
	if (length > doc->buffers[buffer].size || offset > doc->buffers[buffer].size - length) {
		animc_gltf_fail(doc, ANIMC_ERR_INVALID, path, "byteOffset %llu + byteLength %llu runs past the "
			  "end of buffers[%llu] (%llu bytes); used by %s", (unsigned long long)offset,
			  (unsigned long long)length, (unsigned long long)buffer,
			  (unsigned long long)doc->buffers[buffer].size, user);
		return false;
	}
	out->data = doc->buffers[buffer].data + offset;
	out->size = length;
	out->stride = stride;
	return true;
}

/* --------------------------------------------------------------- accessors */

static unsigned component_size(int type)
{
	switch (type) {
	case GLTF_BYTE:
	case GLTF_UNSIGNED_BYTE: return 1;
	case GLTF_SHORT:
	case GLTF_UNSIGNED_SHORT: return 2;
	case GLTF_UNSIGNED_INT:
	case GLTF_FLOAT: return 4;
	}
	return 0;
}

static unsigned type_width(const char *type, unsigned *columns)
{
	static const struct {
		const char *name;
		unsigned width, columns;
	} types[] = {
		{ "SCALAR", 1, 0 }, { "VEC2", 2, 0 }, { "VEC3", 3, 0 }, { "VEC4", 4, 0 },
		{ "MAT2", 4, 2 }, { "MAT3", 9, 3 }, { "MAT4", 16, 4 },
	};

	*columns = 0;
	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
		if (strcmp(type, types[i].name) == 0) {
			*columns = types[i].columns;
			return types[i].width;
		}
	}
	return 0;
}

/* One component at p as a float, per the glTF 2.0 normalisation formulas. */
static float read_component(const uint8_t *p, int type, bool normalized)
{
	switch (type) {
	case GLTF_BYTE: {
		int8_t c = (int8_t)p[0];
		return normalized ? fmaxf((float)c / 127.0f, -1.0f) : (float)c;
	}
	case GLTF_UNSIGNED_BYTE:
		return normalized ? (float)p[0] / 255.0f : (float)p[0];
	case GLTF_SHORT: {
		int16_t c = (int16_t)(uint16_t)(p[0] | p[1] << 8);
		return normalized ? fmaxf((float)c / 32767.0f, -1.0f) : (float)c;
	}
	case GLTF_UNSIGNED_SHORT: {
		uint16_t c = (uint16_t)(p[0] | p[1] << 8);
		return normalized ? (float)c / 65535.0f : (float)c;
	}
	case GLTF_UNSIGNED_INT:
		return (float)read_u32(p);
	case GLTF_FLOAT: {
		uint32_t bits = read_u32(p);
		float f;

		memcpy(&f, &bits, sizeof f);
		return f;
	}
	}
	return 0;
}

/* Element layout: its size in bytes and the byte offset of component c
 * (matrix columns of 1- and 2-byte components start 4-byte aligned). */
static uint64_t element_bytes(unsigned width, unsigned columns, unsigned csize)
{
	if (columns && csize < 4) {
		uint64_t column = (uint64_t)(width / columns) * csize;

		return columns * ((column + 3) / 4 * 4);
	}
	return (uint64_t)width * csize;
}

static uint64_t component_offset(unsigned c, unsigned width, unsigned columns, unsigned csize)
{
	if (columns && csize < 4) {
		unsigned rows = width / columns;
		uint64_t column = (uint64_t)rows * csize;

		return (c / rows) * ((column + 3) / 4 * 4) + (uint64_t)(c % rows) * csize;
	}
	return (uint64_t)c * csize;
}

#define COMPONENT_TYPES "a glTF component type (5120 to 5126)"
#define UNSIGNED_TYPES "an unsigned integer type (5121, 5123, 5125)"

/* A componentType member, which a negative value is no more than a large
 * one: `types` names the ones allowed where it is used. */
static bool get_component_type(gltf_doc *doc, json_t *obj, const char *obj_path, const char *types,
			       uint64_t *out)
{
	json_t *v = animc_gltf_member(obj, "componentType");

	if (v && json_is_integer(v) && json_integer_value(v) < 0) {
		animc_gltf_fail(doc, ANIMC_ERR_INVALID, obj_path, "componentType %lld is not %s",
			  (long long)json_integer_value(v), types);
		return false;
	}
	return animc_gltf_get_index(doc, obj, obj_path, "componentType", true, UINT64_MAX, out);
}

/* The sparse substitution of an accessor (indices strictly increasing). */
static animc_status apply_sparse(gltf_doc *doc, json_t *sparse, const char *acc_path, const char *user,
				 gltf_accessor *acc, unsigned columns, unsigned csize)
{
	char path[GLTF_PATH_BYTES], ipath[GLTF_PATH_BYTES], vpath[GLTF_PATH_BYTES];
	uint64_t count, iview, ioff = 0, itype, vview, voff = 0, elem, previous = 0;
	json_t *indices, *values;
	view iv, vv;
	unsigned isize;

	animc_gltf_path(path, "%s.sparse", acc_path);
	animc_gltf_path(ipath, "%s.indices", path);
	animc_gltf_path(vpath, "%s.values", path);
	if (!animc_gltf_expect_object(doc, sparse, path) ||
	    !animc_gltf_get_index(doc, sparse, path, "count", true, (uint64_t)acc->count + 1, &count))
		return animc_gltf_status(doc);
	if (count == 0)
		return animc_gltf_fail(doc, ANIMC_ERR_INVALID, path, "count is 0");
	indices = animc_gltf_expect_object(doc, animc_gltf_member(sparse, "indices"), ipath);
	values = animc_gltf_expect_object(doc, animc_gltf_member(sparse, "values"), vpath);
	if (!indices || !values ||
	    !animc_gltf_get_index(doc, indices, ipath, "bufferView",  true, json_array_size(doc->views_json), &iview) ||
	    !animc_gltf_get_index(doc, indices, ipath, "byteOffset", false, UINT64_MAX, &ioff) ||
	    !get_component_type(doc, indices, ipath, UNSIGNED_TYPES, &itype) ||
	    !animc_gltf_get_index(doc, values, vpath, "bufferView", true, json_array_size(doc->views_json), &vview) ||
	    !animc_gltf_get_index(doc, values, vpath, "byteOffset", false, UINT64_MAX, &voff))
		return animc_gltf_status(doc);
	if (itype != GLTF_UNSIGNED_BYTE && itype != GLTF_UNSIGNED_SHORT && itype != GLTF_UNSIGNED_INT)
		return animc_gltf_fail(doc, ANIMC_ERR_INVALID, ipath, "componentType %llu is not %s",
				 (unsigned long long)itype, UNSIGNED_TYPES);
	if (!read_view(doc, iview, user, &iv) || !read_view(doc, vview, user, &vv))
		return animc_gltf_status(doc);
	isize = component_size((int)itype);
	elem = element_bytes(acc->width, columns, csize);
	/* Tightly packed: count indices and count elements must fit. */
	if (ioff > iv.size || count > (iv.size - ioff) / isize)
		return animc_gltf_fail(doc, ANIMC_ERR_INVALID, ipath, "%llu indices from byteOffset %llu run past "
				 "the end of bufferViews[%llu] (%llu bytes); used by %s",
				 (unsigned long long)count, (unsigned long long)ioff,
				 (unsigned long long)iview, (unsigned long long)iv.size, user);
	if (voff > vv.size || count > (vv.size - voff) / elem)
		return animc_gltf_fail(doc, ANIMC_ERR_INVALID, vpath, "%llu values from byteOffset %llu run past "
				 "the end of bufferViews[%llu] (%llu bytes); used by %s",
				 (unsigned long long)count, (unsigned long long)voff,
				 (unsigned long long)vview, (unsigned long long)vv.size, user);
	for (uint64_t i = 0; i < count; i++) {
		const uint8_t *p = iv.data + ioff + i * isize;
		uint64_t at = isize == 1 ? p[0] : isize == 2 ? (uint64_t)(p[0] | p[1] << 8) : read_u32(p);

		if (at >= acc->count || (i > 0 && at <= previous))
			return animc_gltf_fail(doc, ANIMC_ERR_INVALID, ipath, "index %llu (entry %llu) is %s; used "
					 "by %s", (unsigned long long)at, (unsigned long long)i,
					 at >= acc->count ? "past the accessor's count" :
					 "not above the one before (sparse indices strictly increase)",
					 user);
		previous = at;
		for (unsigned c = 0; c < acc->width; c++) {
			float f = read_component(vv.data + voff + i * elem +
						 component_offset(c, acc->width, columns, csize),
						 acc->component_type, acc->is_normalized);

			acc->values[at * acc->width + c] = f;
		}
	}
	return ANIMC_OK;
}

/* Where an accessor's elements lie, once its members are checked. */
typedef struct layout {
	char path[GLTF_PATH_BYTES];
	json_t *sparse;
	view v;            /* its bufferView's bytes, when it has one */
	uint64_t offset, stride;
	unsigned columns, csize;
} layout;

/* Every member of accessor `index` checked, and every offset and length
 * against its bufferView, with no element read and nothing allocated. */
static animc_status accessor_layout(gltf_doc *doc, uint64_t index, const char *user, gltf_accessor *out,
				    layout *lay)
{
	const char *path = lay->path;
	uint64_t ctype, count, view_index = 0, elem, sparse_count = 0;
	const char *type;
	json_t *obj;
	bool ok;

	memset(out, 0, sizeof *out);
	memset(lay, 0, sizeof *lay);
	animc_gltf_path(lay->path, "accessors[%llu]", (unsigned long long)index);
	obj = animc_gltf_expect_object(doc, json_array_get(doc->accessors_json, index), path);
	if (!obj || !get_component_type(doc, obj, path, COMPONENT_TYPES, &ctype) ||
	    !animc_gltf_get_index(doc, obj, path, "count", true, (uint64_t)UINT32_MAX + 1, &count) ||
	    !get_bool(doc, obj, path, "normalized", &out->is_normalized))
		return animc_gltf_status(doc);
	type = animc_gltf_get_string(doc, obj, path, "type", true, &ok);
	if (!ok)
		return animc_gltf_status(doc);
	lay->csize = component_size((int)ctype);
	if (!lay->csize)
		return animc_gltf_fail(doc, ANIMC_ERR_INVALID, path, "componentType %llu is not %s; used by %s",
				 (unsigned long long)ctype, COMPONENT_TYPES, user);
	out->component_type = (int)ctype;
	out->width = type_width(type, &lay->columns);
	out->is_matrix = lay->columns != 0;
	if (!out->width)
		return animc_gltf_fail(doc, ANIMC_ERR_INVALID, path, "type '%s' is not SCALAR, VEC2-4 or MAT2-4; "
				 "used by %s", type, user);
	if (out->is_normalized && (ctype == GLTF_FLOAT || ctype == GLTF_UNSIGNED_INT))
		return animc_gltf_fail(doc, ANIMC_ERR_INVALID, path, "normalized is true for componentType %llu "
				 "(only 8- and 16-bit integers are normalised); used by %s",
				 (unsigned long long)ctype, user);
	if (count == 0)
		return animc_gltf_fail(doc, ANIMC_ERR_INVALID, path, "count is 0; used by %s", user);
	out->has_view = animc_gltf_member(obj, "bufferView") != NULL;
	if (!animc_gltf_get_index(doc, obj, path, "bufferView", false, json_array_size(doc->views_json),
			    &view_index) ||
	    !animc_gltf_get_index(doc, obj, path, "byteOffset", false, UINT64_MAX, &lay->offset))
		return animc_gltf_status(doc);
	/* Counted in components: a MAT4 element costs sixteen. */
	if (!out->has_view && count * out->width > GLTF_MAX_VIRTUAL_COMPONENTS)
		return animc_gltf_fail(doc, ANIMC_ERR_LIMIT, path, "count %llu of %s without a bufferView: more "
				 "than %llu components of zeros; used by %s", (unsigned long long)count, type,
				 (unsigned long long)GLTF_MAX_VIRTUAL_COMPONENTS, user);
	elem = element_bytes(out->width, lay->columns, lay->csize);
	if (out->has_view) {
		view *v = &lay->v;

		if (!read_view(doc, view_index, user, v))
			return animc_gltf_status(doc);
		lay->stride = v->stride ? v->stride : elem;
		if (lay->offset % lay->csize != 0)
			return animc_gltf_fail(doc, ANIMC_ERR_INVALID, path, "byteOffset %llu is not a multiple of "
					 "the component size %u; used by %s", (unsigned long long)lay->offset,
					 lay->csize, user);
		if (v->stride && (v->stride < elem || v->stride % lay->csize != 0))
			return animc_gltf_fail(doc, ANIMC_ERR_INVALID, path, "bufferViews[%llu].byteStride %llu "
					 "does not fit elements of %llu bytes; used by %s",
					 (unsigned long long)view_index, (unsigned long long)v->stride,
					 (unsigned long long)elem, user);
		/* The last element ends within the view: subtraction form. */
		if (elem > v->size || lay->offset > v->size - elem ||
		    count - 1 > (v->size - elem - lay->offset) / lay->stride)
			return animc_gltf_fail(doc, ANIMC_ERR_INVALID, path, "%llu elements of %llu bytes (stride "
					 "%llu) from byteOffset %llu run past the end of bufferViews[%llu] "
					 "(%llu bytes); used by %s", (unsigned long long)count,
					 (unsigned long long)elem, (unsigned long long)lay->stride,
					 (unsigned long long)lay->offset, (unsigned long long)view_index,
					 (unsigned long long)v->size, user);
	} else {
		lay->stride = elem;
	}
	/* count <= 2^32 - 1 and width <= 16: the product fits a size_t on a
	 * 64-bit system; on a 32-bit one, calloc refuses it. */
	if ((uint64_t)out->width * count > SIZE_MAX / sizeof(float))
		return animc_gltf_fail(doc, ANIMC_ERR_LIMIT, path, "count %llu is too large; used by %s",
				 (unsigned long long)count, user);
	lay->sparse = animc_gltf_member(obj, "sparse");
	if (lay->sparse) {
		char spath[GLTF_PATH_BYTES];

		animc_gltf_path(spath, "%s.sparse", path);
		if (!animc_gltf_expect_object(doc, lay->sparse, spath) ||
		    !animc_gltf_get_index(doc, lay->sparse, spath, "count", true, count + 1, &sparse_count))
			return animc_gltf_status(doc);
	}
	out->count = (uint32_t)count;
	out->sparse_count = (uint32_t)sparse_count;
	return ANIMC_OK;
}

animc_status animc_gltf_accessor_describe(gltf_doc *doc, uint64_t index, const char *user, gltf_accessor *out)
{
	layout lay;

	return accessor_layout(doc, index, user, out, &lay);
}

animc_status animc_gltf_accessor_read(gltf_doc *doc, uint64_t index, const char *user, gltf_accessor *out)
{
	layout lay;
	animc_status status = accessor_layout(doc, index, user, out, &lay);
	const char *path = lay.path;
	uint64_t count = out->count;

	if (status != ANIMC_OK)
		return status;
	/* Zeros only where no bufferView fills them. */
	out->values = out->has_view ? malloc((size_t)count * out->width * sizeof(float)) :
				      calloc((size_t)count * out->width, sizeof(float));
	if (!out->values)
		return animc_gltf_fail(doc, ANIMC_ERR_NOMEM, path, "out of memory for %llu elements; used by %s",
				 (unsigned long long)count, user);
	for (uint64_t i = 0; out->has_view && i < count; i++) {
		const uint8_t *e = lay.v.data + lay.offset + i * lay.stride;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		/* Little-endian floats are the host's: one copy per element. */
		if (out->component_type == GLTF_FLOAT) {
			memcpy(&out->values[i * out->width], e, (size_t)out->width * sizeof(float));
			continue;
		}
#endif
		for (unsigned c = 0; c < out->width; c++)
			out->values[i * out->width + c] =
				read_component(e + component_offset(c, out->width, lay.columns, lay.csize),
					       out->component_type, out->is_normalized);
	}
	if (lay.sparse) {
		status = apply_sparse(doc, lay.sparse, path, user, out, lay.columns, lay.csize);
		if (status != ANIMC_OK) {
			animc_gltf_accessor_release(out);
			return status;
		}
	}
	for (uint64_t i = 0; i < (uint64_t)count * out->width; i++) {
		if (!isfinite(out->values[i])) {
			animc_gltf_fail(doc, ANIMC_ERR_INVALID, path, "element %llu holds %s; used by %s",
				  (unsigned long long)(i / out->width), isnan(out->values[i]) ? "NaN" :
				  "an infinite value", user);
			animc_gltf_accessor_release(out);
			return animc_gltf_status(doc);
		}
	}
	return ANIMC_OK;
}

void animc_gltf_accessor_release(gltf_accessor *acc)
{
	if (!acc)
		return;
	free(acc->values);
	acc->values = NULL;
	acc->count = 0;
}

const char *animc_gltf_jansson_version(void)
{
	return jansson_version_str();
}
