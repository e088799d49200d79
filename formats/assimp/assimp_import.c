/*
 * assimp_import.c - the Assimp importer: recognises the files Assimp reads
 * (content first, extension second), reads them with the shared settings,
 * and turns each aiAnimation into a clip whose tracks keep their own key
 * times, in seconds, for the passes to merge (see NOTES.md).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <assimp/cimport.h>
#include <assimp/config.h>

#include "beside.h"
#include "b3d.h"
#include "xml/xml.h"
#include "assimp_internal.h"
#include "assimp_fbx.h"
#include "bvh.h"
#include "collada.h"
#include "ms3d.h"
#include "csm.h"
#include "lws.h"
#include "ogre.h"
#include "md5anim.h"
#include "smd.h"

/* Longest extension the probe looks up, dot excluded. */
#define EXT_BYTES 16

/* The name a source given from memory is read under: Assimp's own for
 * such a source (AI_MEMORYIO_MAGIC_FILENAME), which some of its readers
 * know, and which serves every name that starts with it. */
#define MEMORY_NAME "$$$___magic___$$$"

/* ------------------------------------------------------------- reading */

/* One class of the errors Assimp logged during an import. */
#define ERROR_BYTES 512

typedef struct assimp_errors {
	char first[ERROR_BYTES]; /* the first of them, "" for none */
	uint32_t count;
} assimp_errors;

/* Files read through Assimp's file system callbacks, plain stdio, so that
 * the files a format pulls in beside the one named are known, and only
 * those in the source's folder or below it are read (beside.h). */
typedef struct read_log {
	struct aiFileIO io;
	const char *path;  /* the source's path, or NULL: it is `data` */
	const char *name;  /* what Assimp reads it under: `path`, or that with the sniffed extension */
	char *folder;      /* the folder of `path` */
	const uint8_t *data;
	size_t size;
	const animc_import_options *hooks; /* on_file_read, on_file_missing; may be NULL */
	animc_diag_sink *sink;
	char **refused;    /* the files refused, each reported once */
	size_t refused_count;
	assimp_errors lost;   /* errors Assimp logged that cost animation */
	assimp_errors other;  /* the rest: meshes, materials, lights */
	bool is_file_missing; /* a file Assimp asked for was not opened */
	char *beside;      /* the last file read beside the source, as Assimp named it */
} read_log;

static size_t file_read(struct aiFile *f, char *buf, size_t size, size_t count)
{
	return fread(buf, size, count, (FILE *)(void *)f->UserData);
}

static size_t file_write(struct aiFile *f, const char *buf, size_t size, size_t count)
{
	(void)f, (void)buf, (void)size, (void)count;
	return 0;   /* an import writes nothing */
}

static size_t file_tell(struct aiFile *f)
{
	long at = ftell((FILE *)(void *)f->UserData);

	return at < 0 ? 0 : (size_t)at;
}

static size_t file_size(struct aiFile *f)
{
	FILE *fp = (FILE *)(void *)f->UserData;
	long at = ftell(fp), end;

	if (at < 0 || fseek(fp, 0, SEEK_END) != 0)
		return 0;
	end = ftell(fp);
	fseek(fp, at, SEEK_SET);
	return end < 0 ? 0 : (size_t)end;
}

static enum aiReturn file_seek(struct aiFile *f, size_t offset, enum aiOrigin origin)
{
	int whence = origin == aiOrigin_CUR ? SEEK_CUR : origin == aiOrigin_END ? SEEK_END : SEEK_SET;

	if (offset > (size_t)LONG_MAX)
		return aiReturn_FAILURE;
	return fseek((FILE *)(void *)f->UserData, (long)offset, whence) == 0 ? aiReturn_SUCCESS :
									      aiReturn_FAILURE;
}

static void file_flush(struct aiFile *f)
{
	(void)f;
}

/* Whether file `real` was refused already (refuse). */
static bool was_refused(const read_log *log, const char *real)
{
	for (size_t i = 0; i < log->refused_count; i++)
		if (strcmp(log->refused[i], real) == 0)
			return true;
	return false;
}

/* Report the refusal of file `real` (resolved; freed here), once: Assimp's
 * readers ask for a file more than once, under more than one spelling, and
 * in turn with the other names they try (an .obj's material library and
 * its fallback, one after the other, again and again): each is said once,
 * outside the folder whether it is there or not. */
static void refuse(read_log *log, const char *path, char *real, bool is_folder)
{
	char **grown;

	/* Given from memory, every name is refused as named (three
	 * spellings of one guess, say): the first is said. */
	if (was_refused(log, real) || (!log->path && log->refused_count)) {
		free(real);
		return;
	}
	if (log->path)
		animc_diag_report_kind(log->sink, ANIMC_WARNING, ANIMC_WARN_FILE_NOT_READ, 0, 0, "'%s' resolves to '%s', %s: "
				  "not read (only files beside the source are read)", path, real,
				  is_folder ? "the source's folder, not a file" : "outside the source's folder");
	else
		animc_diag_report_kind(log->sink, ANIMC_WARNING, ANIMC_WARN_FILE_NOT_READ, 0, 0, "'%s' not read: the source was "
				  "given from memory, without a folder", path);
	grown = realloc(log->refused, (log->refused_count + 1) * sizeof *grown);
	if (!grown) {
		free(real);
		return;
	}
	log->refused = grown;
	log->refused[log->refused_count++] = real;
}

/* Whether `path` is a name Assimp made from the source's folder as given
 * (or an absolute one, or any when that folder is the working one): a
 * relative name of another form is one of its readers' guesses from the
 * working folder, the name as the source writes it, which is the source's
 * folder only when the build runs there. */
static bool is_named_from_folder(const char *folder, const char *path)
{
	size_t n = strlen(folder);

	return path[0] == '/' || strcmp(folder, ".") == 0 ||
	       (strncmp(path, folder, n) == 0 && (path[n] == '/' || (n && folder[n - 1] == '/')));
}

/*
 * The file `path` open for reading: the source itself, or a file it names
 * that resolves inside the source's folder (animc_beside_open: the file
 * checked, not one a folder swapped for a link since leads to).  NULL for
 * a file that is not there (Assimp's readers try several names) and for
 * one outside the folder, or the folder itself, which is reported: it is
 * never read.
 */
static FILE *confined_open(read_log *log, const char *path)
{
	char *real;
	FILE *fp;
	int fd;

	if (!log->path) {
		/* Refused as named, there or not: looked up, one there was
		 * warned of and one not there was not. */
		if ((real = strdup(path)))
			refuse(log, path, real, false);
		return NULL;
	}
	if (strcmp(path, log->path) == 0)
		return fopen(path, "rb");
	/* Blocking, as fopen() opens: a FIFO there is read once it has a
	 * writer. */
	animc_beside where = animc_beside_open(log->folder, path, 0, &real, &fd);
	switch (where) {
	case ANIMC_BESIDE_INSIDE:
		free(real);
		fp = fd >= 0 ? fdopen(fd, "rb") : NULL;
		if (!fp && fd >= 0)
			close(fd);
		return fp;
	case ANIMC_BESIDE_OUTSIDE:
	case ANIMC_BESIDE_FOLDER:
		/* Not read either way; said only of a name from the source's
		 * folder: a file of that name where the build happens to run
		 * is none the source names, and warned of, it would fail
		 * --warnings-as-errors there and not elsewhere. */
		if (is_named_from_folder(log->folder, path))
			refuse(log, path, real, where == ANIMC_BESIDE_FOLDER);
		else
			free(real);
		return NULL;
	case ANIMC_BESIDE_MISSING:
		/* Not there (yet): a file made under that name later is read. */
		if ((errno == ENOENT || errno == ENOTDIR) && log->hooks && log->hooks->on_file_missing &&
		    animc_beside_would_be_inside(log->folder, path))
			log->hooks->on_file_missing(log->hooks->on_file_read_user, path);
		break;
	}
	return NULL;
}

static struct aiFile *file_open(struct aiFileIO *io, const char *path, const char *mode)
{
	read_log *log = (read_log *)(void *)io;
	struct aiFile *f;
	FILE *fp = NULL;

	if (!path || !mode || strchr(mode, 'w') || strchr(mode, 'a') || strchr(mode, '+'))
		return NULL;
	/* The source itself is the bytes the caller read (and keyed the
	 * output by), never the file again: a checkout or a save may have
	 * replaced it since, and its output would be the other version's. */
	if (log->path ? log->data && log->size && (strcmp(path, log->path) == 0 || strcmp(path, log->name) == 0)
		      : strncmp(path, MEMORY_NAME, strlen(MEMORY_NAME)) == 0) {
		f = calloc(1, sizeof *f);
		if (f)
			fp = fmemopen((void *)(uintptr_t)log->data, log->size, "rb");
	} else {
		fp = confined_open(log, path);
		f = fp ? calloc(1, sizeof *f) : NULL;
		if (!f && fp)
			fclose(fp);
		if (!f)
			fp = NULL;
	}
	if (!fp) {
		free(f);
		log->is_file_missing = true;
		return NULL;
	}
	f->ReadProc = file_read;
	f->WriteProc = file_write;
	f->TellProc = file_tell;
	f->FileSizeProc = file_size;
	f->SeekProc = file_seek;
	f->FlushProc = file_flush;
	f->UserData = (aiUserData)(void *)fp;
	if (log->path && strcmp(path, log->path) != 0 && strcmp(path, log->name) != 0) {
		if (log->hooks && log->hooks->on_file_read)
			log->hooks->on_file_read(log->hooks->on_file_read_user, path);
		free(log->beside);
		log->beside = strdup(path);
	}
	return f;
}

static void file_close(struct aiFileIO *io, struct aiFile *f)
{
	(void)io;
	if (f) {
		fclose((FILE *)(void *)f->UserData);
		free(f);
	}
}

const struct aiScene *animc_assimp_scene_open(const char *path, const uint8_t *data, size_t size,
					      const char *format, animc_diag_sink *sink)
{
	return animc_assimp_scene_read(path, data, size, format, NULL, sink);
}

/*
 * The line of the file an Assimp error names, and the rest of it in *rest:
 * "Line 76: ..." (the DirectX reader) or "NAME:716 - ..." (the BVH reader
 * and others, NAME the file as it was opened), so that the message leads
 * with it as every other.  0 (and *rest untouched) for any other form.
 */
static uint32_t line_of(const char *why, const char *name, const char **rest)
{
	const char *base = strrchr(name, '/'), *p = why;
	unsigned long line;
	char *end;
	size_t n;
	bool is_line = strncmp(p, "Line ", 5) == 0;

	base = base ? base + 1 : name;
	if (is_line) {
		p += 5;
	} else {
		n = strlen(name);
		if (strncmp(p, name, n) == 0 && p[n] == ':')
			p += n + 1;
		else if ((n = strlen(base)) && strncmp(p, base, n) == 0 && p[n] == ':')
			p += n + 1;
		else
			return 0;
	}
	if (*p < '1' || *p > '9')
		return 0;
	line = strtoul(p, &end, 10);
	if (line > UINT32_MAX)
		return 0;
	if (!is_line && strncmp(end, " - ", 3) == 0)
		*rest = end + 3;
	else if (is_line && strncmp(end, ": ", 2) == 0)
		*rest = end + 2;
	else
		return 0;
	return (uint32_t)line;
}

/* The line of byte `at` of `data` (LF, CR LF or a lone CR end a line). */
static uint32_t line_at(const uint8_t *data, const uint8_t *at)
{
	uint32_t line = 1;

	for (const uint8_t *p = data; p < at; p++)
		line += *p == '\n' || (*p == '\r' && (p + 1 == at || p[1] != '\n'));
	return line;
}

/*
 * The start of line `line` of an ASCII FBX as Assimp's reader counts its
 * lines: each CR, LF and form feed ends one, so that a CR LF counts two.
 * NULL past the end.
 */
static const uint8_t *fbx_assimp_line(const uint8_t *data, size_t size, uint32_t line)
{
	const uint8_t *p = data, *end = data + size;

	for (uint32_t at = 1; at < line; at++) {
		while (p < end && *p != '\r' && *p != '\n' && *p != '\f')
			p++;
		if (p == end)
			return NULL;
		p++;
	}
	return p;
}

static bool is_fbx_word(uint8_t c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '|';
}

/*
 * The type (Model, AnimationCurve, ...) of the object of an ASCII FBX's
 * Objects block that byte `at` lies in, into `type`; false when it lies
 * in none.  Keys are words before a colon; quoted strings and `;`
 * comments are skipped.
 */
static bool fbx_ascii_object(const uint8_t *data, const uint8_t *at, char type[32])
{
	const uint8_t *p = data, *word = NULL, *word_end = NULL;
	unsigned depth = 0;
	bool in_objects = false;

	type[0] = '\0';
	for (; p < at; p++) {
		if (*p == ';') {
			while (p + 1 < at && p[1] != '\r' && p[1] != '\n')
				p++;
		} else if (*p == '"') {
			const uint8_t *close = memchr(p + 1, '"', (size_t)(at - p - 1));

			if (!close)
				break;
			p = close;
		} else if (is_fbx_word(*p)) {
			if (!word || word_end != p)
				word = p;
			word_end = p + 1;
			continue;
		} else if (*p == ':' && word) {
			size_t n = (size_t)(word_end - word);

			if (depth == 0)
				in_objects = n == 7 && memcmp(word, "Objects", 7) == 0;
			else if (depth == 1 && in_objects)
				snprintf(type, 32, "%.*s", (int)(n < 31 ? n : 31), (const char *)word);
		} else if (*p == '{') {
			depth++;
		} else if (*p == '}') {
			depth -= depth > 0;
			if (depth == 0)
				type[0] = '\0';
		}
		if (*p != ' ' && *p != '\t')
			word = NULL;
	}
	return in_objects && depth >= 1 && type[0];
}

/* A binary FBX node record's field at `p` (32 bits before FBX 7.5, 64
 * from it). */
static uint64_t fbx_field(const uint8_t *p, bool is_wide)
{
	uint64_t v = 0;

	for (unsigned i = is_wide ? 8 : 4; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

/*
 * The type of the object of a binary FBX's Objects record that byte
 * `offset` lies in, into `type`; false when it lies in none.  A record
 * is its end offset, property count and length, name length and name.
 */
static bool fbx_binary_object(const uint8_t *data, size_t size, uint64_t offset, char type[32])
{
	uint32_t version;
	bool is_wide;
	size_t field, head, p = 27;

	if (size < 27)
		return false;
	memcpy(&version, data + 23, 4);
	is_wide = version >= 7500;
	field = is_wide ? 8 : 4;
	head = 3 * field + 1;
	while (p + head <= size) {
		uint64_t end = fbx_field(data + p, is_wide), props = fbx_field(data + p + 2 * field, is_wide);
		size_t name_len = data[p + 3 * field];

		if (end == 0 || end <= p || end > size || props > end - p - head - name_len)
			return false;
		if (name_len == 7 && memcmp(data + p + head, "Objects", 7) == 0) {
			size_t c = p + head + name_len + (size_t)props;

			while (c + head <= end) {
				uint64_t child_end = fbx_field(data + c, is_wide);
				size_t child_name = data[c + 3 * field];

				if (child_end <= c || child_end > end || c + head + child_name > end)
					return false;
				if (offset >= c && offset < child_end) {
					snprintf(type, 32, "%.*s", (int)(child_name < 31 ? child_name : 31),
						 (const char *)data + c + head);
					return true;
				}
				c = (size_t)child_end;
			}
			return false;
		}
		p = (size_t)end;
	}
	return false;
}

/* The line of an Assimp FBX message, "(TOK_KEY, line 65, col 16)" (as
 * Assimp counts lines), or 0. */
static uint32_t fbx_line_of(const char *why)
{
	const char *at = strstr(why, ", line ");
	unsigned long line;
	char *end;

	if (!at || at[7] < '1' || at[7] > '9')
		return 0;
	line = strtoul(at + 7, &end, 10);
	return line <= UINT32_MAX && strncmp(end, ", col ", 6) == 0 ? (uint32_t)line : 0;
}

/*
 * The line of the file an error Assimp logged, `text`, names, 0 for none,
 * and the text to show in `out`: without a leading line (`name`: the file
 * as Assimp opened it).  Assimp's FBX reader counts a CR LF as two lines:
 * its "line 63" of a CR LF file is line 32, said so in both places.
 */
static uint32_t error_line(const read_log *log, const char *name, const char *text, char out[ERROR_BYTES + 16])
{
	const char *rest = text, *at;
	const uint8_t *start;
	uint32_t line = line_of(text, name, &rest), real;

	snprintf(out, ERROR_BYTES + 16, "%s", rest);
	if (line)
		return line;
	line = fbx_line_of(text);
	if (!line || !log->data || !(start = fbx_assimp_line(log->data, log->size, line)))
		return line;
	real = line_at(log->data, start);
	at = strstr(text, ", line ") + 7;
	snprintf(out, ERROR_BYTES + 16, "%.*s%u%s", (int)(at - text), text, (unsigned)real,
		 at + strspn(at, "0123456789"));
	return real;
}

/*
 * Whether an error Assimp's FBX reader logged (an object it could not
 * build, FBXDocument.cpp, and left out) cost animation: the object is an
 * animation stack, layer, curve node or curve (its keys are gone), or a
 * Model (a bone, and the channels that animate it).  The object is found
 * at the place the message names, in the source's bytes; without one
 * (`did not find required element "KeyTime"`), by what it names.  A
 * geometry, material or deformer left out costs none.
 */
static bool fbx_error_costs_animation(const read_log *log, const char *text)
{
	static const char *const animated[] = { "AnimationStack", "AnimationLayer", "AnimationCurveNode",
						 "AnimationCurve", "Model" };
	const char *hex = strstr(text, ", offset 0x");
	const uint8_t *at;
	uint32_t line = fbx_line_of(text);
	char type[32];
	bool is_found = false;

	if (log->data && log->size && line && (at = fbx_assimp_line(log->data, log->size, line))) {
		while (at < log->data + log->size && *at != '\r' && *at != '\n' && *at != '\f')
			at++;   /* the object's own key may be on the line */
		is_found = fbx_ascii_object(log->data, at, type);
	} else if (log->data && hex) {
		is_found = fbx_binary_object(log->data, log->size, strtoull(hex + 11, NULL, 16), type);
	}
	if (!is_found)
		return strstr(text, "\"Key") || strstr(text, "Animation");
	for (size_t i = 0; i < sizeof animated / sizeof animated[0]; i++)
		if (strcmp(type, animated[i]) == 0)
			return true;
	return false;
}

/*
 * Whether an error Assimp logged means keys or channels may not be in the
 * scene.  Assimp's readers log many matters at error level and go on (a
 * mesh without material, a UV or normal layer too many, a vertex stream):
 * those cost no animation.  An FBX object it could not build is sorted by
 * what the object is (above).  Any other message costs keys unless it is
 * one Assimp 5.2.5 logs about a mesh, material or texture: one the list
 * does not know (a compressed array that would not inflate, say, whose
 * object then holds other numbers) fails the source rather than be written
 * with a word that it holds no animation.
 */
static bool costs_animation(const read_log *log, const char *text)
{
	static const char *const harmless[] = {
		"no material assigned to mesh",
		"ignoring material assignments",
		"material index out of bounds, setting default material",
		"Collada: Unexpected effect input mapping",
		"Collada: Unable to resolve effect texture entry",
		"Collada: texture format hint is too long",
		"Collada: Invalid texture",
		"Collada: unable to determine UV channel for texture",
		"Collada: No material specified for subgroup",
		"Collada: Unsupported MAYA texture blend mode",
		"Collada: just one vertex",
		"Collada: too many texture coordinate sets",
		"Collada: too many vertex color sets",
		"3DS: Texture coordinate index overflow",
		"3DS: Generating default material",
		"3DS: Invalid face index in face material list",
		"3DS: Failed to read ambient base color",
		"3DS: Unknown material",
		"3DS: Empty material name",
		"ASE: Skipping unknown map type",
		"ASE: Skipping invalid map entry",
		"ASE: Invalid vertex index in MESH_",
		"IRRMat: Unrecognized material type",
		"IRRmat: Skipping second texture",
		"IRR: Skipping additional materials",
		"IRR: Failed to match imported materials",
		"IRR: There should be six materials for a skybox",
		"Ogre Mesh position vertex element type",
		"Ogre Mesh normal vertex element type",
		"Ogre imported UV0 type",
		"Invalid UV index",
		"UV index mismatch",
		"Vertex color channel",
		"Unexpected EOF/EOL while parsing a triangle",
		"Unexpected EOF/EOL while parsing vertex.",
		"[SMD/VTA] Bone index overflow",
	};

	if (strncmp(text, "FBX-DOM", 7) == 0 || strncmp(text, "FBX-Parser", 10) == 0)
		return fbx_error_costs_animation(log, text);
	for (size_t i = 0; i < sizeof harmless / sizeof harmless[0]; i++)
		if (strstr(text, harmless[i]))
			return false;
	return true;
}

/*
 * Assimp's log during one import.  Its readers catch their own exceptions
 * for part of a file (an FBX curve whose key times go backwards, say), log
 * them as errors and go on without that part: a scene comes back with the
 * curve, or the whole animation, missing.  Only error-level messages are
 * kept, the first of those that cost animation and the first of the rest;
 * Assimp's warnings and information are noise to an artist.  Assimp's
 * logger is one for the process: imports run one at a time in a process
 * (each Assimp source is compiled in a worker process of its own, or alone
 * in the caller's), so the messages it sends are this import's.
 */
static void on_assimp_log(const char *message, char *user)
{
	read_log *log = (read_log *)(void *)user;
	const char *p = message;
	assimp_errors *kept;
	char text[sizeof kept->first];
	size_t n;

	/* Errors once a file Assimp asked for was not there (or not read)
	 * may be about that file: its readers log one for each name they
	 * try (an Ogre mesh's "inside.skeleton" before
	 * "inside.skeleton.xml", an .obj's material library before its
	 * fallback), and one refused is already said.  Those logged before
	 * are the source's own: an SMD's reader looks for an animation list
	 * (STEM_animation.txt) after reading the whole file, and that file
	 * is seldom there. */
	if (strncmp(p, "Error,", 6) != 0 || log->is_file_missing)
		return;
	/* "Error, T0: text\n": the thread number is Assimp's own. */
	p += 6;
	p += strspn(p, " ");
	if (*p == 'T' && p[1 + strspn(p + 1, "0123456789")] == ':')
		p += 2 + strspn(p + 1, "0123456789");
	p += strspn(p, " ");
	n = strcspn(p, "\r\n");
	snprintf(text, sizeof text, "%.*s", (int)(n < sizeof text ? n : sizeof text - 1), p);
	kept = costs_animation(log, text) ? &log->lost : &log->other;
	if (kept->count++ == 0)
		memcpy(kept->first, text, sizeof text);
}

static bool path_extension(const char *path, char ext[EXT_BYTES]);

/* The line of the text Assimp's number reader quotes in `why` ("Cannot
 * parse string \"  0.0 0.0 0.0 1.0  \" as a real number": spaces before a
 * COLLADA colour's numbers, say), found in the source's bytes: Assimp
 * names no line for it.  0 when it is not there (a text of fewer than 3
 * bytes, or one Assimp cut or made printable). */
static uint32_t quoted_number_line(const char *why, const uint8_t *data, size_t size)
{
	static const char lead[] = "Cannot parse string \"";
	const char *q = why ? strstr(why, lead) : NULL, *end;
	const uint8_t *at;

	if (!q || !data)
		return 0;
	q += sizeof lead - 1;
	end = strstr(q, "\" as a real number");
	if (!end || end - q < 3)
		return 0;
	at = memmem(data, size, q, (size_t)(end - q));
	return at ? line_at(data, at) : 0;
}

/*
 * Whether a file of `format` (its extension, or what its content says) can
 * hold node animation at all.  Static models (OBJ, PLY, STL, LightWave
 * objects, IFC, AC3D, ...) and models of vertex frames only (Quake's MD2
 * and MD3, Unreal's .3d) hold none: every part of one holds no keys, so an
 * error Assimp logs about it costs no animation, and the file is one of no
 * animation, skipped in a folder like the others.  Unknown (NULL): it may.
 */
static bool reads_animation(const char *format)
{
	static const char *const still[] = {
		"3d", "3mf", "ac", "ac3d", "acc", "amf", "dxf", "enff", "hmp", "ifc", "ifczip", "irrmesh", "lwo",
		"lxo", "md2", "md3", "md5mesh", "mdc", "ndo", "nff", "obj", "off", "pk3", "ply", "pmx", "q3o",
		"q3s", "raw", "sib", "stl", "stp", "ter", "uc", "xgl", "zgl",
	};

	for (size_t i = 0; format && i < sizeof still / sizeof still[0]; i++)
		if (strcmp(format, still[i]) == 0)
			return false;
	return true;
}

/* Assimp's reason `why` it read no scene, with the file it read beside the
 * source last, if any: the reason may be that file's.  An SMD's is its
 * list of clips (STEM_animation.txt), which Assimp reads if it is there. */
static void say_unread(const read_log *log, const char *why, uint32_t line, bool is_smd)
{
	const char *base = log->beside ? strrchr(log->beside, '/') : NULL;
	const char *list = is_smd && base && strlen(base) > 14 && strcmp(base + strlen(base) - 14, "_animation.txt") == 0 ?
				   ", Assimp's list of an SMD's clips, NAME FILE a line, each FILE an SMD beside it" : "";

	/* FBX before 2011 (6.1: the XNA samples' and exporters' of that era). */
	const char *how = why && strstr(why, "FBX-DOM unsupported, old format version") ?
				  "; save it again as FBX 2011 or later (Autodesk's FBX Converter converts an FBX 6.1 "
				  "file)" : "";

	base = base ? base + 1 : log->beside;
	animc_diag_report(log->sink, ANIMC_ERROR, line, 0, "Assimp cannot read this file: %s%s%s%s%s%s",
			  why && why[0] ? why : "(it gives no reason)", base ? " (after reading " : "",
			  base ? base : "", list, base ? ")" : "", how);
}

/* Assimp's reason `why` of a binary .X file, which names no place, with
 * the byte its tokens break off at, or else that of the AnimationKey whose
 * read fails, in `buf`, when there is one; else `why`. */
static const char *x_binary_place(const char *format, const uint8_t *data, size_t size, const char *why,
				  char *buf, size_t buf_size)
{
	char place[200];

	/* Assimp's errors of an AnimationKey (a key type, a value count, a
	 * brace after the keys): the place is the first key read so failing. */
	bool of_keys = why && (strstr(why, "key type") || strstr(why, "key in animation") ||
			       strstr(why, "Closing brace expected"));

	if (!format || strcmp(format, "x") != 0 || (!animc_xfile_binary_break(data, size, place, sizeof place) &&
						     (!of_keys || !animc_xfile_binary_bad_key(data, size, place,
											   sizeof place))))
		return why;
	snprintf(buf, buf_size, "%.*s (%s)", (int)(buf_size > 256 ? buf_size - 256 : 0),
		 why && why[0] ? why : "(it gives no reason)", place);
	return buf;
}

const struct aiScene *animc_assimp_scene_read(const char *path, const uint8_t *data, size_t size,
					      const char *format, const animc_import_options *options,
					      animc_diag_sink *sink)
{
	read_log log = { { file_open, file_close, NULL }, path, path, NULL, data, size, options, sink,
			 NULL, 0, { "", 0 }, { "", 0 }, false, NULL };
	struct aiLogStream stream = { on_assimp_log, (char *)(void *)&log };
	struct aiPropertyStore *props;
	const struct aiScene *scene = NULL;
	char memory_name[sizeof MEMORY_NAME + EXT_BYTES + 1], ext[EXT_BYTES], *sniffed_name = NULL;
	/* Assimp's last error, copied while the read holds the lock; with
	 * the place of a binary .X file's damage. */
	char why_read[4096], why_placed[4352];
	const char *why, *name;
	/* Assimp's SMD reader counts a line for each blank it skips: the
	 * line it names is not the file's (smd.c checks the lines of keys). */
	bool is_smd = format && strcmp(format, "smd") == 0;

	if (!path && size == 0) {
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "the file is empty");
		return NULL;
	}
	if (!path && size > UINT32_MAX) {
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "the file is larger than Assimp reads from memory");
		return NULL;
	}
	log.folder = path ? animc_beside_folder(path) : NULL;
	props = path && !log.folder ? NULL : aiCreatePropertyStore();
	if (!props) {
		free(log.folder);
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "out of memory");
		return NULL;
	}
	aiSetImportPropertyInteger(props, AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, 0);
	aiSetImportPropertyInteger(props, AI_CONFIG_IMPORT_MD5_NO_ANIM_AUTOLOAD, 1);
	/*
	 * No post-processing.  Steps such as OptimizeGraph or Debone may drop
	 * the nodes channels name.  Even ValidateDataStructure is left out: it
	 * refuses a scene without meshes (an .X file of animation sets only,
	 * as animators export them), and running it afterwards through
	 * aiApplyPostProcessing frees the scene twice when it fails (Assimp
	 * 5.2.5).  What animc reads of a scene it checks itself.
	 */
	/*
	 * Every file goes through animc's callbacks, the source given from
	 * memory too (under a name of its own, with `format` as the extension
	 * Assimp picks its reader by): Assimp's own file system, and the one
	 * behind aiImportFileFromMemory, open any file a source names.
	 */
	if (!path)
		snprintf(memory_name, sizeof memory_name, "%s%s%.*s", MEMORY_NAME, format ? "." : "",
			 EXT_BYTES, format ? format : "");
	/* A file whose content says its format under another extension
	 * (an ASCII FBX named .anim) is read as that format: by content,
	 * Assimp's DXF reader claims any text with "header" near its start. */
	if (path && data && size && format && (!path_extension(path, ext) || strcmp(ext, format) != 0) &&
	    (sniffed_name = malloc(strlen(path) + strlen(format) + 2)))
		sprintf(sniffed_name, "%s.%s", path, format);
	log.name = name = sniffed_name ? sniffed_name : path ? path : memory_name;
	animc_assimp_lock();
	aiAttachLogStream(&stream);
	scene = aiImportFileExWithProperties(name, 0, &log.io, props);
	aiDetachLogStream(&stream);
	why = scene ? NULL : aiGetErrorString();
	if (why)
		snprintf(why_read, sizeof why_read, "%s", why), why = why_read;
	animc_assimp_unlock();
	aiReleasePropertyStore(props);
	free(log.folder);
	for (size_t i = 0; i < log.refused_count; i++)
		free(log.refused[i]);
	free(log.refused);
	if (!scene) {
		uint32_t line;

		line = why ? line_of(why, name, &why) : 0;
		if (!line && !(format && strcmp(format, "x") == 0))
			line = quoted_number_line(why, data, size);
		else if (line && format && strcmp(format, "x") == 0)
			line = animc_xfile_line(data, size, line);
		else if (line && format && strcmp(format, "bvh") == 0 && data)
			line = animc_bvh_line(data, size, line);
		if (line || !format || strcmp(format, "x") != 0 || !animc_xfile_say_bad_key(data, size, sink))
			say_unread(&log, x_binary_place(format, data, size, why, why_placed, sizeof why_placed), line,
				   is_smd);
	} else if (log.lost.count && reads_animation(format)) {
		/* Read, but without what the error was about: the animation
		 * would be written without it (or the file taken for one of
		 * no animation), silently. */
		char text[ERROR_BYTES + 16];
		uint32_t line = error_line(&log, name, log.lost.first, text) * !is_smd;

		animc_diag_report(sink, ANIMC_ERROR, line, 0, "Assimp left part of this file out: %s%s", text,
				  log.lost.count + log.other.count > 1 ? " (and more errors)" : "");
		aiReleaseImport(scene);
		scene = NULL;
	} else if (log.lost.count || log.other.count) {
		/* A part that holds no keys (a mesh's material or layers), or
		 * any part of a static model: the animation is whole, but the
		 * artist may want to know. */
		const assimp_errors *first = log.lost.count ? &log.lost : &log.other;
		char text[ERROR_BYTES + 16];
		uint32_t line = error_line(&log, name, first->first, text) * !is_smd;

		animc_diag_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_ASSIMP_ERROR, line, 0,
				       "Assimp reported an error about a part of this file that holds no "
				       "animation: %s%s", text,
				       log.lost.count + log.other.count > 1 ? " (and more errors)" : "");
	}
	free(log.beside);
	free(sniffed_name);
	return scene;
}

/* ------------------------------------------------------------ converting */

double animc_assimp_default_rate(const char *format, const char **why)
{
	if (format && strcmp(format, "x") == 0) {
		*why = "the DirectX .X format's default";
		return 4800.0;
	}
	if (format && strcmp(format, "smd") == 0) {
		*why = "the rate Assimp's own viewer assumes, but an SMD holds none: Valve's studiomdl plays "
		       "it at the .qc's fps, 30 by default";
		return 25.0;
	}
	if (format && (strcmp(format, "md5anim") == 0 || strcmp(format, "md5camera") == 0)) {
		*why = "Assimp's MD5 reader's default (the file gives its rate in a frameRate line)";
		return 24.0;
	}
	/* The other formats define no default; Assimp's own viewer
	 * (AnimEvaluator) plays such animations at 25, so that is the speed
	 * an artist checking the file there saw. */
	*why = "the rate Assimp's own viewer assumes";
	return 25.0;
}

/*
 * Does `format` key its animations in frames, so that its tick rate is its
 * frame rate?  Assimp's FBX reader gives times in frames of the file's time
 * mode, its BVH reader in frames of the frame time, and its MD5 reader in
 * frames of the file's frameRate.  Other formats count ticks of their own
 * (4800 a second in .X, milliseconds in glTF), which are no frames.
 */
static bool ticks_are_frames(const char *format)
{
	static const char *const framed[] = { "fbx", "bvh", "md5anim", "md5camera" };

	for (size_t i = 0; format && i < sizeof framed / sizeof framed[0]; i++)
		if (strcmp(format, framed[i]) == 0)
			return true;
	return false;
}

typedef struct converter {
	const char *format;
	const animc_import_options *options;
	animc_diag_sink *sink;
	uint32_t assumed_count;   /* clips whose rate was assumed */
	char assumed_clip[2 * MAXLEN]; /* the first of them */
	double assumed_declared;  /* what that one declared */
	uint32_t mesh_only_count; /* animations without node channels, left out */
	const struct aiScene *scene;
	double frame_rate;        /* the file's own, where Assimp's ticks are not its frames; else 0 */
	uint32_t not_applied_count; /* clips --ticks-per-second was not applied to */
	const fbx_doc *fbx;       /* the FBX file's own reading, or NULL */
	const animc_xfile *xfile; /* an .X file's own reading, or NULL */
	bool is_dae;              /* COLLADA: Assimp reads every key back from a matrix */
	unsigned animation;       /* the index of the animation under way */
} converter;

/*
 * An aiString as UTF-8 in `buf`: as it is when it is UTF-8 (Assimp's
 * convention), otherwise byte by byte as Latin-1, which is what old .X
 * exporters wrote; *was_latin1 says which.  Stops at a NUL, which the
 * output format cannot hold.
 */
static size_t name_utf8(const struct aiString *s, char buf[2 * MAXLEN], bool *was_latin1)
{
	size_t len = strnlen(s->data, s->length < MAXLEN ? s->length : MAXLEN - 1), n = 0, bad;

	/* The loader's rule: what it would reject must not be written. */
	*was_latin1 = !animc_utf8_check(s->data, len, &bad);
	if (!*was_latin1) {
		memcpy(buf, s->data, len);
		buf[len] = '\0';
		return len;
	}
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s->data[i];

		if (c < 0x80) {
			buf[n++] = (char)c;
		} else {
			buf[n++] = (char)(0xC0 | c >> 6);
			buf[n++] = (char)(0x80 | (c & 0x3F));
		}
	}
	buf[n] = '\0';
	return n;
}

static void warn(converter *cv, animc_warning_kind kind, const animc_clip *clip, const animc_channel *ch,
		 const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void warn(converter *cv, animc_warning_kind kind, const animc_clip *clip, const animc_channel *ch,
		 const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	animc_clip_vreport_kind(cv->sink, ANIMC_WARNING, kind, clip, ch, fmt, ap);
	va_end(ap);
}

/* Whether the scene's node tree has a node named `name` (true too when
 * it has no tree, or one too large to search for every channel). */
static bool scene_has_node(const struct aiScene *scene, const struct aiString *name, size_t channels)
{
	const struct aiNode **stack;
	size_t count = 0, capacity = 64, visited = 0;
	bool found = false;

	if (!scene->mRootNode)
		return true;   /* no tree to look in */
	stack = malloc(capacity * sizeof *stack);
	if (!stack)
		return true;   /* no memory to look: no warning */
	stack[count++] = scene->mRootNode;
	while (count && !found) {
		const struct aiNode *n = stack[--count];

		if (++visited * channels > 10000000u) {
			found = true;   /* too large to check every channel */
			break;
		}
		found = n->mName.length == name->length && memcmp(n->mName.data, name->data, name->length) == 0;
		for (unsigned i = 0; !found && n->mChildren && i < n->mNumChildren; i++) {
			if (!n->mChildren[i])
				continue;
			if (count == capacity) {
				const struct aiNode **more = realloc(stack, 2 * capacity * sizeof *stack);

				if (!more) {
					found = true;
					break;
				}
				stack = more;
				capacity *= 2;
			}
			stack[count++] = n->mChildren[i];
		}
	}
	free(stack);
	return found;
}

/* Past this many ticks a second a declared rate is taken for none: .X
 * states its rate as a DWORD, which Assimp reads with strtoul, so -100
 * becomes 4294967196 (keys nanoseconds apart), and 99999999999 wraps. */
#define TICK_RATE_MAX 1e6

/*
 * Whether the file's key times are seconds, which Assimp turns into ticks
 * of a fixed rate of its own: COLLADA and glTF 1.0 (milliseconds, 1000),
 * Ogre meshes' skeleton animations (seconds, 1: the XML .mesh.xml, the
 * only .xml claimed, and the binary .mesh), and an FBX of a time mode
 * Assimp does not know (seconds, 1; its frame rate found apart).
 * --ticks-per-second has no meaning for them.
 */
static bool ticks_are_fixed(const converter *cv)
{
	static const char *const fixed[] = { "dae", "gltf", "glb", "xml", "mesh" };

	for (size_t i = 0; cv->format && i < sizeof fixed / sizeof fixed[0]; i++)
		if (strcmp(cv->format, fixed[i]) == 0)
			return true;
	return cv->frame_rate != 0;
}

/* The rate of one animation's ticks: --ticks-per-second, else the file's,
 * else the format's default (remembered for one warning per file). */
static double clip_rate(converter *cv, const struct aiAnimation *anim, const char *clip_name)
{
	const char *why;
	bool is_given = cv->options && isfinite(cv->options->ticks_per_second) && cv->options->ticks_per_second > 0;

	if (is_given && ticks_are_fixed(cv) && isfinite(anim->mTicksPerSecond) && anim->mTicksPerSecond > 0) {
		cv->not_applied_count++;
		return anim->mTicksPerSecond;
	}
	if (is_given)
		return cv->options->ticks_per_second;
	if (isfinite(anim->mTicksPerSecond) && anim->mTicksPerSecond > 0 && anim->mTicksPerSecond <= TICK_RATE_MAX)
		return anim->mTicksPerSecond;
	if (cv->assumed_count++ == 0) {
		snprintf(cv->assumed_clip, sizeof cv->assumed_clip, "%s", clip_name);
		cv->assumed_declared = anim->mTicksPerSecond;
	}
	return animc_assimp_default_rate(cv->format, &why);
}

/*
 * Give a track its own keys.  Assimp holds the first and the last value
 * outside the keys; the original runtime holds the last one but runs the
 * first interpolation backwards before the first key, so a track whose keys
 * start after 0 gets one more key at 0 with the first value.  A lone key
 * needs none: the merge pass makes it fixed.
 */
static float *track_alloc(animc_clip *clip, uint32_t ch, animc_track_kind kind, unsigned key_count,
			  double first_tick, bool *hold)
{
	animc_track *t = &clip->channels[ch].tracks[kind];
	size_t count;

	*hold = key_count > 1 && first_tick > 0;
	count = (size_t)key_count + *hold;
	if (count > UINT32_MAX)
		return NULL;
	t->times_s = animc_clip_alloc_floats(clip, count);
	t->values = animc_clip_alloc_values(clip, kind, count);
	if (!t->times_s || !t->values)
		return NULL;
	t->is_present = true;
	t->value_count = (uint32_t)count;
	if (*hold)
		t->times_s[0] = 0.0f;
	return t->values;
}

/* Of n keys of `stride` bytes, each starting with its double mTime (as
 * aiVectorKey and aiQuatKey do): the first of the earliest, and the
 * latest time; false when they are not in time order.  Keys listed out of
 * order (the passes sort them) hold the earliest key's value before it,
 * as Assimp does, not the first listed. */
static bool key_span(const void *keys, size_t stride, unsigned n, unsigned *first, double *last)
{
	const unsigned char *at = keys;
	double t, earliest, before;
	bool is_sorted = true;

	memcpy(&earliest, at, sizeof earliest);
	*first = 0;
	*last = before = earliest;
	for (unsigned i = 1; i < n; i++) {
		memcpy(&t, at + (size_t)i * stride, sizeof t);
		is_sorted &= t >= before;
		before = t;
		if (t < earliest)
			earliest = t, *first = i;
		if (t > *last)
			*last = t;
	}
	return is_sorted;
}

static animc_status import_vectors(animc_clip *clip, uint32_t ch, animc_track_kind kind,
				   const struct aiVectorKey *keys, unsigned n, double rate)
{
	animc_track *t = &clip->channels[ch].tracks[kind];
	unsigned first;
	double last;
	bool hold;
	float *v;

	if (n == 0 || !keys)
		return ANIMC_OK;  /* absent: samples as identity */
	key_span(keys, sizeof *keys, n, &first, &last);
	v = track_alloc(clip, ch, kind, n, keys[first].mTime, &hold);
	if (!v)
		return ANIMC_ERR_NOMEM;
	for (unsigned i = 0; i < n; i++) {
		float *out = &v[((size_t)i + hold) * 3];

		t->times_s[i + hold] = (float)(keys[i].mTime / rate);
		out[0] = keys[i].mValue.x;
		out[1] = keys[i].mValue.y;
		out[2] = keys[i].mValue.z;
	}
	if (hold)
		memcpy(v, &v[((size_t)first + 1) * 3], 3 * sizeof *v);
	return ANIMC_OK;
}

/* Whether an FBX or COLLADA scale key is 0 on an axis: Assimp read its
 * rotation back from a matrix that holds none (animc_assimp_mend_zero_scale
 * mends it). */
static bool is_zero_scale(const struct aiVectorKey *scales, unsigned scale_count, unsigned i, double time)
{
	return scales && i < scale_count && scales[i].mTime == time &&
	       (fabsf(scales[i].mValue.x) < ANIMC_FBX_ZERO_SCALE || fabsf(scales[i].mValue.y) < ANIMC_FBX_ZERO_SCALE ||
		fabsf(scales[i].mValue.z) < ANIMC_FBX_ZERO_SCALE);
}

/* `scales`: an FBX or COLLADA channel's scale keys (one a rotation key),
 * else NULL. */
static animc_status import_rotations(converter *cv, animc_clip *clip, uint32_t ch,
				     const struct aiQuatKey *keys, unsigned n, double rate,
				     const struct aiVectorKey *scales, unsigned scale_count)
{
	animc_track *t = &clip->channels[ch].tracks[ANIMC_ROTATION];
	uint32_t normalised = 0;
	unsigned first;
	double last, first_normalised = 0;
	bool hold;
	float *v;

	if (n == 0 || !keys)
		return ANIMC_OK;
	key_span(keys, sizeof *keys, n, &first, &last);
	v = track_alloc(clip, ch, ANIMC_ROTATION, n, keys[first].mTime, &hold);
	if (!v)
		return ANIMC_ERR_NOMEM;
	for (unsigned i = 0; i < n; i++) {
		const struct aiQuaternion *q = &keys[i].mValue;
		double x = q->x, y = q->y, z = q->z, w = q->w;   /* Assimp: w x y z */
		double len = sqrt(x * x + y * y + z * z + w * w);
		float *out = &v[((size_t)i + hold) * 4];

		t->times_s[i + hold] = (float)(keys[i].mTime / rate);
		/* Any non-zero quaternion stands for the rotation of its unit
		 * multiple (Assimp's interpolation normalises too).  A zero or
		 * non-finite one stands for none: kept, for validation to
		 * reject naming clip and bone. */
		if (isfinite(len) && len > 1e-6) {
			if (fabs(len - 1.0) > ANIMC_UNIT_QUAT_TOLERANCE &&
			    !is_zero_scale(scales, scale_count, i, keys[i].mTime) && normalised++ == 0)
				first_normalised = keys[i].mTime / rate;
			x /= len;
			y /= len;
			z /= len;
			w /= len;
		}
		out[0] = (float)x;
		out[1] = (float)y;
		out[2] = (float)z;
		out[3] = (float)w;
	}
	if (hold)
		memcpy(v, &v[((size_t)first + 1) * 4], 4 * sizeof *v);
	/* A COLLADA key's rotation is Assimp's split of the node's matrix,
	 * which is off unit length where the matrix shears (a <scale> of
	 * unequal axes before a <rotate>, a sheared <matrix>). */
	if (normalised && cv->is_dae)
		warn(cv, ANIMC_WARN_SHEARED_KEY, clip, &clip->channels[ch],
		     "the key at %g s%s shears (its axes are not perpendicular), and a key holds translation, "
		     "rotation and scale only; kept a rotation close to it: take the shear out of the animation "
		     "in the exporter (a <scale> of unequal axes goes after the <rotate>s)", first_normalised,
		     normalised > 1 ? " (and more)" : "");
	else if (normalised)
		warn(cv, ANIMC_WARN_NOT_UNIT_QUATERNION, clip, &clip->channels[ch],
		     "%u rotation key%s not of unit length; normalised: check the exporter's rotation output "
		     "(quaternions)",
		     normalised, normalised == 1 ? " was" : "s were");
	return ANIMC_OK;
}

/* The latest key time of a channel's tracks listed out of time order, 0
 * when none is: Assimp's duration is its last key as listed (.X, MD5),
 * and the keys past it, once sorted, would be cut off as a take's
 * post-roll. */
static double unsorted_end(const struct aiNodeAnim *na)
{
	double end = 0, last;
	unsigned first;

	if (na->mNumPositionKeys && na->mPositionKeys &&
	    !key_span(na->mPositionKeys, sizeof *na->mPositionKeys, na->mNumPositionKeys, &first, &last))
		end = fmax(end, last);
	if (na->mNumRotationKeys && na->mRotationKeys &&
	    !key_span(na->mRotationKeys, sizeof *na->mRotationKeys, na->mNumRotationKeys, &first, &last))
		end = fmax(end, last);
	if (na->mNumScalingKeys && na->mScalingKeys &&
	    !key_span(na->mScalingKeys, sizeof *na->mScalingKeys, na->mNumScalingKeys, &first, &last))
		end = fmax(end, last);
	return end;
}

/* The first key time of a channel at 2^31 ticks or past, 0 for none: .X
 * key times are DWORDs, which Assimp reads with strtoul, so a key at -15
 * (pre-roll of an exporter whose range starts before 0) is 4294967281, and
 * the clip lasted 4.5 years. */
static double wrapped_key_time(const struct aiNodeAnim *na)
{
	const double wrap = 2147483648.0;

	for (unsigned i = 0; na->mPositionKeys && i < na->mNumPositionKeys; i++)
		if (na->mPositionKeys[i].mTime >= wrap)
			return na->mPositionKeys[i].mTime;
	for (unsigned i = 0; na->mRotationKeys && i < na->mNumRotationKeys; i++)
		if (na->mRotationKeys[i].mTime >= wrap)
			return na->mRotationKeys[i].mTime;
	for (unsigned i = 0; na->mScalingKeys && i < na->mNumScalingKeys; i++)
		if (na->mScalingKeys[i].mTime >= wrap)
			return na->mScalingKeys[i].mTime;
	return 0;
}

/* Channels of one clip sorted by bone name, then by position. */
typedef struct bone_ref {
	const char *bone;
	uint32_t index;
} bone_ref;

static int compare_bone_refs(const void *pa, const void *pb)
{
	const bone_ref *a = pa, *b = pb;
	int c = strcmp(a->bone, b->bone);

	return c ? c : (a->index > b->index) - (a->index < b->index);
}

/* Two channels animating one bone: the later one wins (as in Assimp's
 * viewer, which applies channels in order), with a warning. */
static animc_status drop_duplicate_bones(converter *cv, animc_clip *clip)
{
	uint32_t n = clip->channel_count, kept = 0;
	bone_ref *refs;
	bool *dropped;

	if (n < 2)
		return ANIMC_OK;
	refs = malloc((size_t)n * sizeof *refs);
	dropped = calloc(n, sizeof *dropped);
	if (!refs || !dropped) {
		free(refs);
		free(dropped);
		return ANIMC_ERR_NOMEM;
	}
	for (uint32_t i = 0; i < n; i++)
		refs[i] = (bone_ref){ clip->channels[i].bone, i };
	qsort(refs, n, sizeof *refs, compare_bone_refs);
	for (uint32_t i = 0; i + 1 < n; i++) {
		if (strcmp(refs[i].bone, refs[i + 1].bone) == 0) {
			dropped[refs[i].index] = true;
			warn(cv, ANIMC_WARN_DUPLICATE_CHANNEL, clip, &clip->channels[refs[i + 1].index],
			     "animated by more than one channel, and the runtime finds bones by name; "
			     "kept the last one: give each animated bone its own name");
		}
	}
	for (uint32_t i = 0; i < n; i++)
		if (!dropped[i])
			clip->channels[kept++] = clip->channels[i];
	clip->channel_count = kept;
	free(refs);
	free(dropped);
	return ANIMC_OK;
}

/* The error for channel `name` of an FBX pivot helper node
 * ("Bone_$AssimpFbx$_Rotation"): the bone, its property and the fix. */
static void say_pivot_channel(converter *cv, const char *name)
{
	char bone[FBX_NAME_BYTES];
	const char *tag = strstr(name, "_$AssimpFbx$");
	const fbx_model *model;

	snprintf(bone, sizeof bone, "%.*s", (int)(tag ? tag - name : (ptrdiff_t)strlen(name)), name);
	char what[160] = "a pivot, an offset or a geometric transform (RotationPivot, RotationOffset, ScalingPivot, "
			"ScalingOffset, Geometric...)";

	model = cv->fbx ? animc_fbx_doc_model(cv->fbx, bone) : NULL;
	if (model && model->pivot[0])
		snprintf(what, sizeof what, "a %s that is not %s", model->pivot,
			 strcmp(model->pivot, "GeometricScaling") == 0 ? "1" : "0");
	animc_diag_report(cv->sink, ANIMC_ERROR, 0, 0,
			  "bone '%s' has %s: Assimp moves the animation of such a bone onto helper nodes ('%s'), "
			  "which no skeleton has; reset the bone's pivots, offsets and geometric transform in the "
			  "exporter (or bake them into its keys)",
			  bone, what, name);
}

static animc_status import_animation(converter *cv, const struct aiAnimation *anim,
				     animc_clip_set *out)
{
	char name[2 * MAXLEN];
	bool latin1;
	animc_clip *clip;
	double rate, end = 0;
	animc_status status = ANIMC_OK;

	name_utf8(&anim->mName, name, &latin1);
	clip = animc_clip_create(name);
	if (!clip)
		return ANIMC_ERR_NOMEM;
	if (latin1)
		warn(cv, ANIMC_WARN_NOT_UTF8, clip, NULL, "the clip name is not UTF-8; read it as Latin-1: save the file "
		     "with UTF-8 names if that is wrong");
	/* Assimp's BVH reader states the duration as frames - 1 in an
	 * unsigned int: a motion of no frames wraps to 2^32 - 1 (a clip of
	 * decades). */
	if (cv->format && strcmp(cv->format, "bvh") == 0 && anim->mDuration >= 4294967295.0) {
		animc_diag_report(cv->sink, ANIMC_ERROR, 0, 0, "the MOTION section has no frames (Frames: 0): "
				  "nothing to play");
		animc_clip_destroy(clip);
		return ANIMC_ERR_INVALID;
	}
	rate = clip_rate(cv, anim, name);
	clip->ticks_per_second = rate;
	clip->frame_rate = ticks_are_frames(cv->format) ? rate : 0;
	if (cv->frame_rate != 0)
		clip->frame_rate = cv->frame_rate;
	clip->duration_s = (float)(anim->mDuration / rate);
	for (unsigned c = 0; c < anim->mNumChannels && status == ANIMC_OK; c++) {
		const struct aiNodeAnim *na = animc_xfile_channel(cv->xfile, cv->animation, c, anim->mChannels[c]);
		size_t len;
		int64_t ch;

		if (!na)
			continue;
		len = name_utf8(&na->mNodeName, name, &latin1);
		/* Assimp 5.2.5 moves the animation of a bone with a pivot, an
		 * offset or a geometric transform onto helper nodes, pivots off
		 * or not: their names must not reach a game. */
		if (strstr(name, "$AssimpFbx$")) {
			say_pivot_channel(cv, name);
			status = ANIMC_ERR_UNSUPPORTED;
			break;
		}
		ch = animc_clip_add_channel(clip, name, len);
		if (ch < 0) {
			status = ANIMC_ERR_NOMEM;
			break;
		}
		clip->channels[ch].duration_s = clip->duration_s;
		if (animc_xfile_say(cv->xfile, cv->animation, c, clip, &clip->channels[ch], cv->sink)) {
			status = ANIMC_ERR_INVALID;
			break;
		}
		if (latin1)
			warn(cv, ANIMC_WARN_NOT_UTF8, clip, &clip->channels[ch], "the bone name is not UTF-8; read it as Latin-1: "
			     "save the file with UTF-8 names if that is wrong");
		double wrapped = cv->format && strcmp(cv->format, "x") == 0 ? wrapped_key_time(na) : 0;
		if (wrapped > 0 && wrapped <= 4294967295.0) {
			animc_clip_report(cv->sink, ANIMC_ERROR, clip, &clip->channels[ch],
					  "a key at tick %.0f, which is %.0f wrapped: .X key times are unsigned and "
					  "cannot be before 0; shift the animation's keys to start at 0", wrapped,
					  wrapped - 4294967296.0);
			status = ANIMC_ERR_INVALID;
			break;
		}
		if (cv->scene && !scene_has_node(cv->scene, &na->mNodeName, anim->mNumChannels))
			warn(cv, ANIMC_WARN_UNKNOWN_NODE, clip, &clip->channels[ch], "no node of the file's hierarchy has this name (a "
			     "typo?): a skeleton read from the file has no such bone");
		status = import_vectors(clip, (uint32_t)ch, ANIMC_TRANSLATION, na->mPositionKeys,
					na->mNumPositionKeys, rate);
		if (status == ANIMC_OK)
			status = import_rotations(cv, clip, (uint32_t)ch, na->mRotationKeys, na->mNumRotationKeys,
						  rate, cv->fbx || cv->is_dae ? na->mScalingKeys : NULL,
						  na->mNumScalingKeys);
		if (status == ANIMC_OK)
			status = import_vectors(clip, (uint32_t)ch, ANIMC_SCALE, na->mScalingKeys,
						na->mNumScalingKeys, rate);
		if (status == ANIMC_OK && cv->is_dae)
			animc_assimp_mend_zero_scale(clip, (uint32_t)ch, cv->sink);
		if (status == ANIMC_OK && cv->fbx)
			animc_fbx_mend_channel(cv->fbx, clip, (uint32_t)ch);
		end = fmax(end, unsorted_end(na) / rate);
	}
	/* Keys out of order that end past Assimp's duration: the clip lasts
	 * to the last of them. */
	if (end > clip->duration_s) {
		clip->duration_s = (float)end;
		for (uint32_t c = 0; c < clip->channel_count; c++)
			clip->channels[c].duration_s = clip->duration_s;
	}
	if (status == ANIMC_OK)
		status = drop_duplicate_bones(cv, clip);
	if (status == ANIMC_OK && cv->fbx && animc_fbx_say_bad_keys(cv->fbx, clip, cv->sink)) {
		animc_clip_destroy(clip);   /* failed, naming its key: the file's other clips are written */
		return ANIMC_OK;
	}
	/* Assimp's ticks are KTime / 46186158000 * mTicksPerSecond. */
	if (status == ANIMC_OK && cv->fbx)
		animc_fbx_check_clip(cv->fbx, clip, isfinite(anim->mTicksPerSecond) && anim->mTicksPerSecond > 0 ?
				     anim->mTicksPerSecond / rate / FBX_KTIME_PER_SECOND : 0, cv->sink);
	if (status != ANIMC_OK) {
		animc_clip_destroy(clip);
		return status;
	}
	return animc_clip_set_add(out, clip);
}

/* The frame rate an FBX of TimeMode 14 (custom) declares, its
 * CustomFrameRate in the scene's metadata; 1 for any other mode (or a
 * scene that says none). */
static double fbx_custom_rate(const struct aiScene *scene)
{
	const struct aiMetadata *md = scene->mMetaData;
	bool is_custom = false;
	double rate = 1;

	for (unsigned i = 0; md && md->mKeys && md->mValues && i < md->mNumProperties; i++) {
		const struct aiMetadataEntry *v = &md->mValues[i];

		if (!v->mData)
			continue;
		if (strcmp(md->mKeys[i].data, "FrameRate") == 0 && v->mType == AI_INT32) {
			int32_t mode;

			memcpy(&mode, v->mData, sizeof mode);
			is_custom = mode == 14;
		} else if (strcmp(md->mKeys[i].data, "CustomFrameRate") == 0 && v->mType == AI_FLOAT) {
			float custom;

			memcpy(&custom, v->mData, sizeof custom);
			rate = custom;
		}
	}
	return is_custom ? rate : 1;
}

static animc_status scene_import(const struct aiScene *scene, const char *format, double frame_rate,
				 const fbx_doc *fbx, const animc_xfile *xfile, const animc_import_options *options,
				 animc_clip_set *out, animc_diag_sink *sink)
{
	converter cv = { .format = format, .options = options, .sink = sink, .scene = scene,
			 .frame_rate = frame_rate, .fbx = fbx, .xfile = xfile,
			 .is_dae = format && strcmp(format, "dae") == 0 };
	uint32_t first = out->count;
	animc_status status = ANIMC_OK;
	const char *why;
	double rate = format && strcmp(format, "fbx") == 0 ? fbx_custom_rate(scene) : 1;

	/* Assimp turns FBX KTimes into frames at this rate, with no check:
	 * NaN gave NaN key times, 0 or less every key at 0 or before it. */
	/* -1 is what Assimp reads for a CustomFrameRate the file does not
	 * hold, or holds as another type than "double" (an "int" 25): a
	 * number the user would look for in the file in vain. */
	if (scene->mNumAnimations && rate == -1) {
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "the file's TimeMode is 14 (custom) and it gives no "
				  "CustomFrameRate Assimp reads (a \"double\" property holding a positive number): "
				  "its key times cannot be read; set the frame rate in the exporter");
		return ANIMC_ERR_INVALID;
	}
	if (scene->mNumAnimations && !(isfinite(rate) && rate > 0)) {
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "the file's TimeMode is 14 (custom) and its "
				  "CustomFrameRate, %g, is not a frame rate (a positive number): its key times "
				  "cannot be read; set the frame rate in the exporter", rate);
		return ANIMC_ERR_INVALID;
	}
	for (unsigned a = 0; scene->mAnimations && a < scene->mNumAnimations && status == ANIMC_OK; a++) {
		const struct aiAnimation *anim = scene->mAnimations[a];

		if (!anim)
			continue;
		if (anim->mNumChannels == 0 || !anim->mChannels) {
			/* Morph-target and vertex animation move meshes, not bones. */
			cv.mesh_only_count++;
			continue;
		}
		cv.animation = a;
		status = import_animation(&cv, anim, out);
	}
	/* Only beside a take that is there: a model of no animation (Maya
	 * writes an empty "Take 001") holds none, which is said apart. */
	if (status == ANIMC_OK && fbx && out->count > first)
		animc_fbx_check_takes(fbx, out, first, sink);
	/* Half-Life MDL files, for one, repeat sequence names: each clip is
	 * written, under a name of its own. */
	if (status == ANIMC_OK)
		status = animc_clip_set_name_unique(out, sink);
	if (status != ANIMC_OK)
		return status;
	out->is_single_asset = false;
	if (cv.mesh_only_count)
		animc_diag_report(sink, ANIMC_NOTE, 0, 0,
				  "%u animation%s move%s meshes only (morph targets or vertices), which the "
				  "format cannot hold; left out",
				  cv.mesh_only_count, cv.mesh_only_count == 1 ? "" : "s",
				  cv.mesh_only_count == 1 ? "s" : "");
	if (cv.not_applied_count)
		animc_diag_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_TICK_RATE_NOT_APPLIED, 0, 0,
				       "--ticks-per-second %g not applied: this file's key times are seconds, "
				       "which Assimp gives in ticks of a fixed rate of its own; read as seconds",
				       options->ticks_per_second);
	if (cv.assumed_count) {
		char declared[64] = "no", clip[2 * MAXLEN + 16] = "its unnamed clip";

		if (cv.assumed_declared != 0)
			snprintf(declared, sizeof declared, "%g (not a rate)", cv.assumed_declared);
		/* An SMD's or .md5anim's one clip has no name (its output is
		 * clip0.xnb): not "clip ''". */
		if (cv.assumed_clip[0])
			snprintf(clip, sizeof clip, "clip '%s'", cv.assumed_clip);
		rate = animc_assimp_default_rate(format, &why);
		animc_diag_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_ASSUMED_TICK_RATE, 0, 0,
				  "%s%s: the file declares %s ticks per second; assumed %g, %s "
				  "(--ticks-per-second sets the rate)",
				  clip, cv.assumed_count > 1 ? " and others" : "", declared, rate, why);
	}
	return out->count ? ANIMC_OK : ANIMC_ERR_NOT_FOUND;
}

animc_status animc_assimp_scene_import(const struct aiScene *scene, const char *format,
				       const animc_import_options *options, animc_clip_set *out,
				       animc_diag_sink *sink)
{
	return scene_import(scene, format, 0, NULL, NULL, options, out, sink);
}

/* ---------------------------------------------------------- recognising */

static bool has_prefix(const uint8_t *head, size_t size, const char *magic)
{
	size_t n = strlen(magic);

	return size >= n && memcmp(head, magic, n) == 0;
}

static bool contains(const uint8_t *head, size_t size, const char *needle)
{
	size_t n = strlen(needle);

	for (size_t i = 0; n <= size && i <= size - n; i++)
		if (head[i] == (uint8_t)needle[0] && memcmp(head + i, needle, n) == 0)
			return true;
	return false;
}

/* Whether ASCII FBX's first block, FBXHeaderExtension:, opens the text
 * after its `;` comment lines: a script or note that only mentions the
 * name is not FBX. */
static bool fbx_header_first(const uint8_t *head, size_t size)
{
	size_t i = 0;

	for (;;) {
		while (i < size && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n'))
			i++;
		if (i == size || head[i] != ';')
			break;
		while (i < size && head[i] != '\n' && head[i] != '\r')
			i++;
	}
	return has_prefix(head + i, size - i, "FBXHeaderExtension:");
}

/*
 * The format the first bytes show, as a lowercase extension, or NULL.
 * *is_certain is false for a weak sign (JSON that may be glTF): good
 * enough as Assimp's hint, not to claim a file.
 */
static const char *sniff(const uint8_t *head, size_t size, bool *is_certain)
{
	static const struct {
		const char *magic, *format;
	} magics[] = {
		{ "xof ", "x" },                   /* DirectX .X: text, binary, compressed */
		{ "Kaydara FBX Binary", "fbx" },
		{ "glTF", "glb" },
		{ "MS3D000000", "ms3d" },
		{ "BB3D", "b3d" },
		{ "IDST", "mdl" },                 /* Half-Life 1 model */
		{ "LWSC", "lws" },                 /* LightWave scene */
		{ "ASSIMP.binary-dump.", "assbin" },
	};
	char root[64];
	size_t skip = 0;

	*is_certain = true;
	for (size_t i = 0; i < sizeof magics / sizeof magics[0]; i++)
		if (has_prefix(head, size, magics[i].magic))
			return magics[i].format;
	if (has_prefix(head, size, "\xEF\xBB\xBF"))
		skip = 3;
	while (skip < size && (head[skip] == ' ' || head[skip] == '\t' || head[skip] == '\r' ||
			       head[skip] == '\n'))
		skip++;
	head += skip;
	size -= skip;
	if (has_prefix(head, size, "HIERARCHY"))
		return "bvh";
	if (has_prefix(head, size, "MD5Version"))
		return contains(head, size, "numMeshes") ? "md5mesh" :
		       contains(head, size, "numCuts") ? "md5camera" : "md5anim";
	if (has_prefix(head, size, "; FBX") || fbx_header_first(head, size))
		return "fbx";
	if (has_prefix(head, size, "version 1") && contains(head, size, "\nnodes"))
		return "smd";
	if (animc_xml_root_name(head, size, root, sizeof root) && strcmp(root, "COLLADA") == 0)
		return "dae";
	*is_certain = false;
	if (has_prefix(head, size, "{") && contains(head, size, "\"asset\""))
		return "gltf";
	return NULL;
}

/* The lowercase extension of a path's last component into `ext`; false
 * when it has none (or one longer than EXT_BYTES - 1). */
static bool path_extension(const char *path, char ext[EXT_BYTES])
{
	const char *base, *dot;
	size_t n;

	if (!path)
		return false;
	base = strrchr(path, '/');
	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	if (!dot || dot == base)
		return false;
	n = strlen(dot + 1);
	if (n == 0 || n >= EXT_BYTES)
		return false;
	for (size_t i = 0; i <= n; i++) {
		char c = dot[1 + i];

		ext[i] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
	}
	return true;
}

static bool is_animc_xml(const uint8_t *head, size_t size)
{
	char root[64];

	/* The XML importers' roots: theirs even when named like a model. */
	return animc_xml_root_name(head, size, root, sizeof root) &&
	       (strcmp(root, "AnimationSequence") == 0 || strcmp(root, "XnaContent") == 0);
}

static animc_probe probe_assimp(const char *path, const uint8_t *head, size_t size)
{
	char ext[EXT_BYTES + 1];
	bool is_certain;
	size_t n;

	if (is_animc_xml(head, size))
		return ANIMC_PROBE_NO;
	if (sniff(head, size, &is_certain) && is_certain)
		return ANIMC_PROBE_CONTENT;
	if (!path_extension(path, ext + 1))
		return ANIMC_PROBE_NO;
	/* Assimp lists .xml for its Irrlicht and Ogre importers, but most
	 * .xml files are neither: only Ogre's .mesh.xml is claimed by name. */
	if (strcmp(ext + 1, "xml") == 0) {
		n = strlen(path);
		return n > 9 && strcasecmp(path + n - 9, ".mesh.xml") == 0 ? ANIMC_PROBE_EXTENSION :
									       ANIMC_PROBE_NO;
	}
	ext[0] = '.';
	return aiIsExtensionSupported(ext) ? ANIMC_PROBE_EXTENSION : ANIMC_PROBE_NO;
}

/* The next whitespace-separated token from *p (BVH's own tokens), its line in *line.
 * A line ends at LF, CR LF or a lone CR (classic Mac tools, old Poser
 * exports), as Assimp's readers take them. */
static bool bvh_token(const uint8_t **p, const uint8_t *end, uint32_t *line, const char **token, size_t *len)
{
	const uint8_t *q = *p;

	for (; q < end && (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\n'); q++)
		if (*q == '\n' || (*q == '\r' && (q + 1 == end || q[1] != '\n')))
			(*line)++;
	if (q == end)
		return false;
	*token = (const char *)q;
	while (q < end && *q != ' ' && *q != '\t' && *q != '\r' && *q != '\n')
		q++;
	*len = (size_t)(q - (const uint8_t *)*token);
	*p = q;
	return true;
}

static bool bvh_is(const char *token, size_t len, const char *word)
{
	return len == strlen(word) && memcmp(token, word, len) == 0;
}

/*
 * A BVH's "Frames:" against the values that follow "Frame Time:", before
 * Assimp reads them: Assimp makes room for frames x channels values first,
 * so a count of -1 (read as 2^32 - 1) or far past the file's frames ran out
 * of memory, a message that sent the user to --memory-limit.  A file this
 * cannot follow is left to Assimp.
 */
static bool bvh_frames_are_there(const uint8_t *data, size_t size, animc_diag_sink *sink)
{
	const uint8_t *p = data, *end = data + size;
	const char *t, *frames = NULL;
	size_t len, frames_len = 0;
	uint32_t line = 1, frames_line = 0;
	uint64_t channels = 0, declared = 0, values = 0;

	while (bvh_token(&p, end, &line, &t, &len) && !bvh_is(t, len, "MOTION")) {
		uint64_t n = 0;

		if (!bvh_is(t, len, "CHANNELS") || !bvh_token(&p, end, &line, &t, &len))
			continue;
		for (size_t i = 0; i < len && t[i] >= '0' && t[i] <= '9' && n < UINT32_MAX; i++)
			n = n * 10 + (uint64_t)(t[i] - '0');
		channels += n;
	}
	if (!bvh_token(&p, end, &line, &t, &len) || !bvh_is(t, len, "Frames:") ||
	    !bvh_token(&p, end, &line, &frames, &frames_len))
		return true;
	frames_line = line;
	for (size_t i = 0; i < frames_len; i++) {
		if (frames[i] < '0' || frames[i] > '9' || declared > UINT32_MAX) {
			animc_diag_report(sink, ANIMC_ERROR, frames_line, 0, "Frames: %.*s is not a frame count",
					  (int)(frames_len > 40 ? 40 : frames_len), frames);
			return false;
		}
		declared = declared * 10 + (uint64_t)(frames[i] - '0');
	}
	if (!bvh_token(&p, end, &line, &t, &len) || !bvh_is(t, len, "Frame") ||
	    !bvh_token(&p, end, &line, &t, &len) || !bvh_is(t, len, "Time:") ||
	    !bvh_token(&p, end, &line, &t, &len))
		return true;
	/* A frame is a line of as many values as the CHANNELS say: Assimp
	 * reads them as one stream, so a line with one value too many or too
	 * few shifted every frame after it into other channels. */
	for (uint32_t at = 0, on_line = 0;; on_line++, values++) {
		bool more = bvh_token(&p, end, &line, &t, &len);

		if (!more || line != at) {
			if (at && channels && on_line != channels) {
				animc_diag_report(sink, ANIMC_ERROR, at, 0, "this frame holds %u values, but the "
						  "hierarchy's CHANNELS add up to %llu: each frame is one line of "
						  "them", on_line, (unsigned long long)channels);
				return false;
			}
			at = line;
			on_line = 0;
		}
		if (!more)
			break;
	}
	/* No frames said: Assimp's motion of none (a clip of decades). */
	if (declared == 0 && channels > 0 && values >= channels) {
		animc_diag_report(sink, ANIMC_ERROR, frames_line, 0, "Frames: 0, but the MOTION section holds %llu "
				  "frames of %llu channels: give their count", (unsigned long long)(values / channels),
				  (unsigned long long)channels);
		return false;
	}
	if (declared == 0) {
		animc_diag_report(sink, ANIMC_ERROR, frames_line, 0, "the MOTION section has no frames (Frames: 0): "
				  "nothing to play");
		return false;
	}
	if (channels > 0 && declared > values / channels) {
		animc_diag_report(sink, ANIMC_ERROR, frames_line, 0, "Frames: %llu, but the MOTION section "
				  "holds %llu values, %llu frames of %llu channels", (unsigned long long)declared,
				  (unsigned long long)values, (unsigned long long)(values / channels),
				  (unsigned long long)channels);
		return false;
	}
	/* More frames than it says: Assimp reads the count, and the motion
	 * stops short of the file's. */
	if (channels > 0 && values / channels > declared) {
		unsigned long long more = (unsigned long long)(values / channels - declared);
		char last[48] = "frame is";

		if (more > 1)
			snprintf(last, sizeof last, "%llu frames are", more);
		animc_diag_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_WRONG_FRAME_COUNT, frames_line, 0,
				       "Frames: %llu, but the MOTION section holds %llu frames of %llu channels: the "
				       "last %s not read", (unsigned long long)declared,
				       (unsigned long long)(values / channels), (unsigned long long)channels, last);
	}
	return true;
}

/*
 * A BVH's "Frame Time:" that is no length of a frame (0 or below, or a
 * rate past TICK_RATE_MAX frames a second), said at its line in seconds
 * and frames, as the file gives it: Assimp's rate is 1 / Frame Time, which
 * the generic warning gave as "declares inf (not a rate) ticks per second".
 * Each clip's rate is then the default, so that no other warning follows;
 * --ticks-per-second, when given, sets it and nothing is said.
 */
static void bvh_say_frame_time(const animc_import_request *req, const struct aiScene *scene, animc_diag_sink *sink)
{
	const uint8_t *p = req->data, *end = req->data + req->size;
	const char *t = NULL, *why;
	uint32_t line = 1;
	size_t len = 0;
	char text[48], shorter[80] = ",";
	double seconds, rate = animc_assimp_default_rate("bvh", &why);

	if (!req->data || (req->options && isfinite(req->options->ticks_per_second) &&
			   req->options->ticks_per_second > 0))
		return;
	while (bvh_token(&p, end, &line, &t, &len) && !bvh_is(t, len, "Frame"))
		;
	if (!bvh_token(&p, end, &line, &t, &len) || !bvh_is(t, len, "Time:") || !bvh_token(&p, end, &line, &t, &len))
		return;
	snprintf(text, sizeof text, "%.*s", (int)(len < 40 ? len : 40), t);
	seconds = strtod(text, NULL);
	if (seconds > 0 && 1 / seconds <= TICK_RATE_MAX)
		return;
	if (seconds > 0)
		snprintf(shorter, sizeof shorter, " (%g frames a second), shorter than a microsecond,", 1 / seconds);
	for (unsigned a = 0; scene->mAnimations && a < scene->mNumAnimations; a++)
		if (scene->mAnimations[a])
			scene->mAnimations[a]->mTicksPerSecond = rate;
	animc_diag_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_ASSUMED_TICK_RATE, line, 0,
			       "clip '%s': its Frame Time, %s s%s is no length of a frame; assumed %g frames a "
			       "second (a Frame Time of %g s), %s (--ticks-per-second sets the frames a second)",
			       scene->mNumAnimations && scene->mAnimations[0] ? scene->mAnimations[0]->mName.data : "",
			       text, shorter, rate, 1 / rate, why);
}

/* An .md5anim's or .md5camera's "frameRate N" line, or 0 when it gives
 * none (or none above 0).  Assimp 5.2.5 reads the file's frames at 24 a
 * second whatever it says. */
static double md5_frame_rate(const uint8_t *data, size_t size)
{
	const uint8_t *end = data + size, *p = data;
	uint32_t line = 1, last = 0;
	const char *t;
	size_t len;

	while (bvh_token(&p, end, &line, &t, &len)) {
		char number[64], *stop;
		double rate;
		bool starts_line = line != last;

		last = line;
		if (!starts_line || !bvh_is(t, len, "frameRate"))
			continue;
		if (!bvh_token(&p, end, &line, &t, &len) || len >= sizeof number)
			return 0;
		memcpy(number, t, len);
		number[len] = '\0';
		rate = strtod(number, &stop);
		return *stop == '\0' && isfinite(rate) && rate > 0 ? rate : 0;
	}
	return 0;
}

/* The next token of an .md5anim: a quoted string (quotes included), one of
 * ( ) { }, or a run of other characters; // comments are skipped. */
static bool md5_token(const uint8_t **p, const uint8_t *end, const char **token, size_t *len)
{
	const uint8_t *q = *p;

	for (;;) {
		while (q < end && (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\n'))
			q++;
		if (end - q < 2 || q[0] != '/' || q[1] != '/')
			break;
		while (q < end && *q != '\n' && *q != '\r')
			q++;
	}
	if (q == end)
		return false;
	*token = (const char *)q;
	if (*q == '"') {
		for (q++; q < end && *q != '"' && *q != '\n'; q++)
			;
		q += q < end && *q == '"';
	} else if (strchr("(){}", *q)) {
		q++;
	} else {
		while (q < end && !strchr(" \t\r\n(){}\"", *q))
			q++;
	}
	*len = (size_t)(q - (const uint8_t *)*token);
	*p = q;
	return true;
}

static bool md5_number(const uint8_t **p, const uint8_t *end, double *out)
{
	const char *t;
	size_t len;
	char number[64], *stop;

	if (!md5_token(p, end, &t, &len) || len >= sizeof number)
		return false;
	memcpy(number, t, len);
	number[len] = '\0';
	*out = strtod(number, &stop);
	return *stop == '\0' && isfinite(*out);
}

/* Past the "{" after `word`, the start of a section; false when none. */
static bool md5_section(const uint8_t **p, const uint8_t *end, const char *word)
{
	const char *t;
	size_t len;

	while (md5_token(p, end, &t, &len))
		if (bvh_is(t, len, word))
			return md5_token(p, end, &t, &len) && bvh_is(t, len, "{");
	return false;
}

/*
 * Assimp 5.2.5's MD5 reader gives a joint it does not animate (flags 0) no
 * keys when its startIndex is past the frame's values, which is where
 * exporters point such a joint after the last animated one; its scene
 * preprocessing then gives the channel one key of the joint's node, which
 * it built from that empty channel: the origin, no turn.  Such a joint
 * holds its base frame at every time: that is put in its one key, the
 * rotation rebuilt as Assimp rebuilds the others (w = -sqrt(1 - x² - y² -
 * z²)).  A file this cannot follow, or whose joints are not the channels
 * in order, is left as Assimp read it.
 */
static void md5_hold_base_frames(const uint8_t *data, size_t size, const struct aiScene *scene)
{
	const uint8_t *p = data, *end = data + size;
	const struct aiAnimation *anim = scene->mNumAnimations && scene->mAnimations ? scene->mAnimations[0] : NULL;
	unsigned n = anim && anim->mChannels ? anim->mNumChannels : 0, count = 0;
	uint8_t *still = n ? calloc(n, 1) : NULL;
	const char *t;
	size_t len;

	if (!still || !md5_section(&p, end, "hierarchy")) {
		free(still);
		return;
	}
	while (md5_token(&p, end, &t, &len) && !bvh_is(t, len, "}")) {
		const struct aiNodeAnim *na = count < n ? anim->mChannels[count] : NULL;
		double parent, flags, start;

		if (!na || len < 2 || t[0] != '"' || na->mNodeName.length != len - 2 ||
		    memcmp(na->mNodeName.data, t + 1, len - 2) != 0 || !md5_number(&p, end, &parent) ||
		    !md5_number(&p, end, &flags) || !md5_number(&p, end, &start)) {
			free(still);
			return;
		}
		still[count++] = flags == 0 && na->mNumPositionKeys == 1 && na->mNumRotationKeys == 1 &&
				 na->mPositionKeys && na->mRotationKeys;
	}
	if (count != n || !md5_section(&p, end, "baseframe")) {
		free(still);
		return;
	}
	for (unsigned i = 0; i < n; i++) {
		double v[6];
		bool ok = true;

		for (int k = 0; k < 6 && ok; k++) {
			if (k == 0 || k == 3)
				ok = md5_token(&p, end, &t, &len) && bvh_is(t, len, "(");
			ok = ok && md5_number(&p, end, &v[k]);
			if (ok && (k == 2 || k == 5))
				ok = md5_token(&p, end, &t, &len) && bvh_is(t, len, ")");
		}
		if (!ok)
			break;
		if (!still[i])
			continue;
		struct aiNodeAnim *na = anim->mChannels[i];
		float x = (float)v[3], y = (float)v[4], z = (float)v[5], w = 1.0f - x * x - y * y - z * z;

		na->mPositionKeys[0].mValue.x = (float)v[0];
		na->mPositionKeys[0].mValue.y = (float)v[1];
		na->mPositionKeys[0].mValue.z = (float)v[2];
		na->mRotationKeys[0].mValue.x = x;
		na->mRotationKeys[0].mValue.y = y;
		na->mRotationKeys[0].mValue.z = z;
		na->mRotationKeys[0].mValue.w = w < 0 ? 0 : -sqrtf(w);
	}
	free(still);
}

/* The TimeMode of an FBX file's GlobalSettings, ASCII (`P: "TimeMode",
 * "enum", "", "",17`) or binary (the same property record), or -1. */
static int fbx_time_mode(const uint8_t *data, size_t size)
{
	static const char binary_tail[] = "S\4\0\0\0enumS\0\0\0\0S\0\0\0\0I";
	const size_t tail = sizeof binary_tail - 1;
	const uint8_t *p = data, *end = data + size, *at;
	int32_t mode;

	while ((at = memmem(p, (size_t)(end - p), "TimeMode", 8))) {
		const uint8_t *q = at + 8, *eol, *comma = NULL;

		p = at + 1;
		if (at > data && at[-1] == '"' && q < end && *q == '"') {
			/* A line ends at LF, CR LF or a lone CR, as Assimp reads it. */
			for (eol = q; eol < end && *eol != '\n' && *eol != '\r'; eol++)
				;
			for (const uint8_t *c = q; c < eol; c++)
				if (*c == ',')
					comma = c;
			if (!comma)
				continue;
			for (q = comma + 1; q < end && (*q == ' ' || *q == '\t'); q++)
				;
			for (mode = 0; q < end && *q >= '0' && *q <= '9' && mode < 1000; q++)
				mode = mode * 10 + (*q - '0');
			return mode;
		}
		if ((size_t)(end - q) >= tail + 4 && memcmp(q, binary_tail, tail) == 0) {
			q += tail;
			mode = (int32_t)((uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 |
					 (uint32_t)q[3] << 24);
			return mode;
		}
	}
	return -1;
}

/* The last 32-bit integer the scene's metadata holds under `key`. */
static bool scene_int(const struct aiScene *scene, const char *key, int32_t *value)
{
	const struct aiMetadata *md = scene->mMetaData;
	bool found = false;

	for (unsigned i = 0; md && md->mKeys && md->mValues && i < md->mNumProperties; i++)
		if (strcmp(md->mKeys[i].data, key) == 0 && md->mValues[i].mType == AI_INT32 && md->mValues[i].mData) {
			memcpy(value, md->mValues[i].mData, sizeof *value);
			found = true;
		}
	return found;
}

/*
 * The frame rate of an FBX file whose time mode Assimp 5.2 does not know,
 * 0 for one it knows.  Its reader takes 96, 72, 59.94 and 119.88 fps (FBX
 * time modes 15 to 18) for the default mode (0) and gives those files a
 * rate of 1, keys in seconds: frames were taken at 1 fps.  The default
 * mode says no rate: -1, so that a --split in frames is refused.
 */
static double fbx_frame_rate(const struct aiScene *scene, const uint8_t *data, size_t size)
{
	static const double rates[] = { 96, 72, 60000.0 / 1001, 120000.0 / 1001 };
	int32_t mode;

	/* Assimp's "FrameRate" is the mode it used: 0 for all of them. */
	if (!scene_int(scene, "FrameRate", &mode) || mode != 0)
		return 0;
	mode = fbx_time_mode(data, size);
	return mode >= 15 && mode <= 18 ? rates[mode - 15] : -1;
}

/*
 * The up axis of the scene's world frame where Assimp leaves a file's own
 * (FBX: GlobalSettings UpAxis 0, 1, 2; a Valve SMD: Z), ANIMC_UP_DEFAULT
 * elsewhere: Assimp turns a COLLADA or MD5 scene's root node to Y up
 * instead, which the root motion reads through the node tree.
 */
static animc_up_axis declared_up(const char *format, const struct aiScene *scene)
{
	int32_t axis;

	if (strcmp(format, "smd") == 0)
		return ANIMC_SMD_UP;
	if (strcmp(format, "fbx") != 0 || !scene_int(scene, "UpAxis", &axis) || axis < 0 || axis > 2)
		return ANIMC_UP_DEFAULT;
	return (animc_up_axis)(ANIMC_UP_X + axis);
}

static bool is_dae_space(uint8_t c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Whether the COLLADA tag at `tag` (its '<') is named `name`. */
static bool dae_tag_is(const uint8_t *tag, const uint8_t *end, const char *name)
{
	size_t n = strlen(name);

	return (size_t)(end - tag) > n + 1 && memcmp(tag + 1, name, n) == 0 &&
	       (is_dae_space(tag[n + 1]) || tag[n + 1] == '/' || tag[n + 1] == '>');
}

/* The value of attribute `name` of the tag from `tag` to its '>' at
 * `close` (its first byte, and its length in *len), or NULL. */
static const uint8_t *dae_attribute(const uint8_t *tag, const uint8_t *close, const char *name, size_t *len)
{
	size_t n = strlen(name);

	for (const uint8_t *p = tag; (size_t)(close - p) > n + 2; p++) {
		const uint8_t *value = p + n + 3, *stop;

		if (!is_dae_space(*p) || memcmp(p + 1, name, n) != 0 || p[n + 1] != '=' ||
		    (p[n + 2] != '"' && p[n + 2] != '\''))
			continue;
		if (!(stop = memchr(value, p[n + 2], (size_t)(close - value))))
			return NULL;
		*len = (size_t)(stop - value);
		return value;
	}
	return NULL;
}

/* At `p` (a '<'), a comment, a CDATA section or a processing instruction:
 * the byte past its end (`end` when it is not closed: the rest is its
 * text); NULL at any other '<'. */
static const uint8_t *dae_past_text(const uint8_t *p, const uint8_t *end)
{
	static const struct {
		const char *open, *close;
	} text[] = { { "<!--", "-->" }, { "<![CDATA[", "]]>" }, { "<?", "?>" } };

	for (size_t i = 0; i < sizeof text / sizeof *text; i++) {
		if (!has_prefix(p, (size_t)(end - p), text[i].open))
			continue;
		p += strlen(text[i].open);
		p = memmem(p, (size_t)(end - p), text[i].close, strlen(text[i].close));
		return p ? p + strlen(text[i].close) : end;
	}
	return NULL;
}

/*
 * The next COLLADA tag named `name` ("channel", "/library_nodes"; NULL:
 * any) at or after `p` (its '<'), or NULL.  A comment, a CDATA section or
 * a processing instruction holds no tags: an element commented out there
 * (a take kept for reference) is none, and Assimp's reader skips it.
 * Every scan of a COLLADA file's markup goes through this.
 */
static const uint8_t *dae_next_tag(const uint8_t *p, const uint8_t *end, const char *name)
{
	while ((p = memchr(p, '<', (size_t)(end - p)))) {
		const uint8_t *past = dae_past_text(p, end);

		if (past) {
			p = past;
			continue;
		}
		if (!name || dae_tag_is(p, end, name))
			return p;
		p++;
	}
	return NULL;
}

/* A COLLADA file's <library_animation_clips>: Assimp 5.2.5 reads none of
 * its clips, and merges the file's animations into one take, so the clips
 * the file names are not there; said, at its line, unless the caller cuts
 * the take (options->is_cut), as the warning advises. */
static void say_collada_clips(const uint8_t *data, size_t size, animc_diag_sink *sink)
{
	const uint8_t *at = dae_next_tag(data, data + size, "library_animation_clips");

	if (!at)
		return;
	animc_diag_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_UNKNOWN_ELEMENT, line_at(data, at), 0,
			       "<library_animation_clips> is not read: Assimp takes the file's animations as one "
			       "take, not as the clips it names; cut them out of it with --split or a STEM_Anims.xml "
			       "sidecar, at their <animation_clip> start and end");
}

/* The word STEP in the text from `q` to `close` (a <Name_array>'s), or
 * NULL.  A comment or a processing instruction there is no text, and
 * ends a word. */
static const uint8_t *dae_step_word(const uint8_t *q, const uint8_t *close)
{
	bool is_word_start = true;

	while (q < close) {
		const uint8_t *past = *q == '<' && !has_prefix(q, (size_t)(close - q), "<![CDATA[") ?
					      dae_past_text(q, close) : NULL;

		if (past) {
			q = past;
			is_word_start = true;
			continue;
		}
		if (is_word_start && (size_t)(close - q) >= 4 && memcmp(q, "STEP", 4) == 0 &&
		    (q + 4 == close || q[4] == '<' || is_dae_space(q[4])))
			return q;
		is_word_start = is_dae_space(*q);
		q++;
	}
	return NULL;
}

/* The first COLLADA <Name_array> holding the word STEP (a sampler's
 * INTERPOLATION), or NULL; one commented out is none. */
static const uint8_t *collada_step(const uint8_t *data, size_t size)
{
	const uint8_t *p = data, *end = data + size, *at, *close, *open, *step;

	while ((at = dae_next_tag(p, end, "Name_array"))) {
		p = at + 11;
		close = dae_next_tag(p, end, "/Name_array");
		if (!close)
			return NULL;
		open = memchr(p, '>', (size_t)(close - p));
		if (open && (step = dae_step_word(open + 1, close)))
			return step;
		p = close;
	}
	return NULL;
}

/* Whether FBX key attribute flags say constant (stepped) interpolation:
 * eInterpolationConstant (0x2) of the interpolation bits (0xE). */
static bool fbx_is_constant(uint32_t flags)
{
	return (flags & 0xE) == 0x2;
}

/*
 * The first FBX KeyAttrFlags array with a constant key, or NULL: ASCII
 * (`KeyAttrFlags: *N { a: 2,... }`) or binary, an uncompressed int32 array
 * (a binary array compressed with zlib is not looked into).
 */
static const uint8_t *fbx_constant_key(const uint8_t *data, size_t size)
{
	const uint8_t *p = data, *end = data + size, *at;

	while ((at = memmem(p, (size_t)(end - p), "KeyAttrFlags", 12))) {
		const uint8_t *q = at + 12;

		p = q;
		if (q < end && *q == ':') {
			const uint8_t *a = memmem(q, (size_t)(end - q), "a:", 2), *close;

			close = a ? memchr(a, '}', (size_t)(end - a)) : NULL;
			for (q = a ? a + 2 : end; close && q < close;) {
				uint32_t flags = 0;

				while (q < close && (*q < '0' || *q > '9'))
					q++;
				if (q == close)
					break;
				for (; q < close && *q >= '0' && *q <= '9'; q++)
					flags = flags * 10 + (uint32_t)(*q - '0');
				if (fbx_is_constant(flags))
					return at;
			}
		} else if ((size_t)(end - q) >= 13 && *q == 'i') {
			uint32_t count, encoding, flags;

			memcpy(&count, q + 1, 4);
			memcpy(&encoding, q + 5, 4);
			q += 13;
			if (encoding != 0 || count > (size_t)(end - q) / 4)
				continue;
			for (uint32_t i = 0; i < count; i++) {
				memcpy(&flags, q + 4 * (size_t)i, 4);
				if (fbx_is_constant(flags))
					return at;
			}
		}
	}
	return NULL;
}

/* A COLLADA element id (the value of an id="...", not a sid="..."), where
 * it stands, and whether its <float_array> was checked already. */
typedef struct collada_id {
	const uint8_t *at;   /* its first byte, in the file */
	size_t len;
	bool is_checked;
} collada_id;

static int compare_collada_ids(const void *pa, const void *pb)
{
	const collada_id *a = pa, *b = pb;
	int c = memcmp(a->at, b->at, a->len < b->len ? a->len : b->len);

	if (c)
		return c;
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	return a->at < b->at ? -1 : a->at > b->at;
}

/* Every id of the file, by value and then place, in *ids (a new array);
 * its count, or SIZE_MAX when out of memory. */
static size_t collada_ids(const uint8_t *data, size_t size, collada_id **ids)
{
	const uint8_t *p = data, *end = data + size, *at, *close;
	size_t count = 0, capacity = 0;

	*ids = NULL;
	/* Those of tags: not in comments, CDATA or processing instructions. */
	for (; (at = dae_next_tag(p, end, NULL)) && (close = memchr(at, '>', (size_t)(end - at))); p = close) {
		size_t len;
		const uint8_t *id = dae_attribute(at, close, "id", &len);

		if (!id)
			continue;
		if (count == capacity) {
			collada_id *more = realloc(*ids, (capacity = capacity ? 2 * capacity : 256) * sizeof *more);

			if (!more) {
				free(*ids);
				*ids = NULL;
				return SIZE_MAX;
			}
			*ids = more;
		}
		(*ids)[count++] = (collada_id){ id, len, false };
	}
	if (count)
		qsort(*ids, count, sizeof **ids, compare_collada_ids);
	return count;
}

/* The id `len` bytes at `id` names: the first at or after `from` (in the
 * sampler's own <animation>, where its sources usually are), else the
 * first in the file; NULL for none.  Two binary searches of `ids`. */
static collada_id *collada_id_find(collada_id *ids, size_t count, const uint8_t *id, size_t len,
				   const uint8_t *from)
{
	for (int pass = 0; pass < 2; pass++) {
		size_t lo = 0, hi = count;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			int c = memcmp(ids[mid].at, id, ids[mid].len < len ? ids[mid].len : len);

			if (c == 0 && ids[mid].len != len)
				c = ids[mid].len < len ? -1 : 1;
			if (c < 0 || (c == 0 && pass == 0 && ids[mid].at < from))
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < count && ids[lo].len == len && memcmp(ids[lo].at, id, len) == 0)
			return &ids[lo];
	}
	return NULL;
}

/* Whether the numbers of a <float_array> (at its start tag) hold one time
 * twice in a row. */
static bool collada_times_jump(const uint8_t *arr, const uint8_t *end)
{
	const uint8_t *stop;
	double before = NAN;

	arr = arr ? memchr(arr, '>', (size_t)(end - arr)) : NULL;
	stop = arr ? dae_next_tag(arr, end, "/float_array") : NULL;
	for (const uint8_t *q = arr ? arr + 1 : NULL; stop && q < stop;) {
		char number[64];
		size_t n = 0;
		double t;

		while (q < stop && is_dae_space(*q))
			q++;
		while (q < stop && !is_dae_space(*q) && n < sizeof number - 1)
			number[n++] = (char)*q++;
		if (!n)
			break;
		number[n] = '\0';
		t = strtod(number, NULL);
		if (t == before)
			return true;
		before = t;
	}
	return false;
}

/*
 * The first COLLADA sampler INPUT (key times) holding one time twice in a
 * row, a jump, or NULL.  Assimp's reader evaluates the channel at each of
 * its times and takes the first of the two values: the jump's later value,
 * which the other formats keep, is lost.  The file's ids are indexed once,
 * and each source checked once, however many samplers share it: a file of
 * thousands of samplers of one time source is read in one pass.
 */
static const uint8_t *collada_jump(const uint8_t *data, size_t size)
{
	const uint8_t *p = data, *end = data + size, *at, *animation = data, *next_animation;
	collada_id *ids;
	size_t count = collada_ids(data, size, &ids);

	if (count == SIZE_MAX)
		return NULL;   /* no memory to look: no warning */
	next_animation = dae_next_tag(data, end, "animation");
	while ((at = dae_next_tag(p, end, "input"))) {
		const uint8_t *close = memchr(at, '>', (size_t)(end - at)), *semantic, *src, *arr;
		size_t len, src_len;
		collada_id *id;

		p = at + 6;
		semantic = close ? dae_attribute(at, close, "semantic", &len) : NULL;
		if (!semantic || len != 5 || memcmp(semantic, "INPUT", 5) != 0)
			continue;
		/* The last <animation before the sampler's INPUT. */
		while (next_animation && next_animation < at) {
			animation = next_animation;
			next_animation = dae_next_tag(next_animation + 10, end, "animation");
		}
		src = dae_attribute(at, close, "source", &src_len);
		if (!src || src_len < 2 || *src != '#')
			continue;
		id = collada_id_find(ids, count, src + 1, src_len - 1, animation);
		if (!id || id->is_checked)
			continue;
		id->is_checked = true;
		arr = dae_next_tag(id->at, end, "float_array");
		if (collada_times_jump(arr, end)) {
			free(ids);
			return memchr(arr, '>', (size_t)(end - arr));
		}
	}
	free(ids);
	return NULL;
}

/* The start tag of the <node> of id `id` (`len` bytes), or NULL. */
static const uint8_t *dae_node(collada_id *ids, size_t count, const uint8_t *data, const uint8_t *end,
			       const uint8_t *id, size_t len)
{
	for (collada_id *at = collada_id_find(ids, count, id, len, data);
	     at && at < ids + count && at->len == len && memcmp(at->at, id, len) == 0; at++) {
		const uint8_t *tag = at->at;

		while (tag > data && *tag != '<' && *tag != '>')
			tag--;
		if (*tag == '<' && dae_tag_is(tag, end, "node"))
			return tag;
	}
	return NULL;
}

/* Whether a transform of the <node> at `node` has the sid `sid` (`len`
 * bytes): its own transforms come before its child nodes, instances and
 * extras, where Assimp's reader looks for them. */
static bool dae_node_has_sid(const uint8_t *node, const uint8_t *end, const uint8_t *sid, size_t len)
{
	static const char *const transforms[] = { "translate", "rotate", "scale", "matrix", "lookat", "skew" };
	const uint8_t *p = memchr(node, '>', (size_t)(end - node)), *close;

	if (!p || p[-1] == '/')
		return false;   /* <node .../>: none */
	for (; (p = dae_next_tag(p, end, NULL)) && (close = memchr(p, '>', (size_t)(end - p))); p = close) {
		if (dae_tag_is(p, end, "node") || dae_tag_is(p, end, "/node") || dae_tag_is(p, end, "extra") ||
		    ((size_t)(end - p) > 10 && memcmp(p + 1, "instance_", 9) == 0))
			return false;
		for (size_t t = 0; t < sizeof transforms / sizeof *transforms; t++) {
			size_t n;
			const uint8_t *value = dae_tag_is(p, end, transforms[t]) ? dae_attribute(p, close, "sid", &n) : NULL;

			if (value && n == len && memcmp(value, sid, len) == 0)
				return true;
		}
	}
	return false;
}

/* Whether byte `at` lies in a <library_nodes> element: nodes that only an
 * <instance_node> places in the scene. */
static bool dae_in_library_nodes(const uint8_t *data, const uint8_t *at)
{
	const uint8_t *p = data, *open, *close;

	while ((open = dae_next_tag(p, at, "library_nodes"))) {
		close = dae_next_tag(open, at, "/library_nodes");
		if (!close)
			return true;
		p = close;
	}
	return false;
}

/* Whether an animation of the scene animates the node `name`. */
static bool scene_animates(const struct aiScene *scene, const struct aiString *name)
{
	for (unsigned a = 0; scene->mAnimations && a < scene->mNumAnimations; a++) {
		const struct aiAnimation *anim = scene->mAnimations[a];

		for (unsigned c = 0; anim && anim->mChannels && c < anim->mNumChannels; c++) {
			const struct aiNodeAnim *na = anim->mChannels[c];

			if (na && na->mNodeName.length == name->length &&
			    memcmp(na->mNodeName.data, name->data, name->length) == 0)
				return true;
		}
	}
	return false;
}

/* Whether a target's member selection (from `at` to `end`) is one index,
 * "(N)": COLLADA's for a vector's member, which Assimp's reader takes for
 * member 0 whatever N (it reads "(I)(J)", a matrix's, and names: ".Y",
 * ".ANGLE"). */
static bool is_one_index(const uint8_t *at, const uint8_t *end)
{
	const uint8_t *p = at + 1;

	if (at >= end || *at != '(')
		return false;
	while (p < end && *p >= '0' && *p <= '9')
		p++;
	return p > at + 1 && p + 1 == end && *p == ')';
}

/*
 * One COLLADA <channel> (its tag at `channel`) of target `target` (`len`
 * bytes, holding a '/' at `slash`), as Assimp's reader resolves it: a
 * target "NODE/SID" (or "NODE/SID.X", "NODE/SID(0)(1)") of a node of the
 * scene and a transform sid of that node, or the channel is left out
 * without a word.  A target that names nothing of the scene is a
 * warning (the file is wrong; glTF's unknown paths are left out alike);
 * a node that an <instance_node> places, which Assimp does not animate,
 * is an error: the keys animate a bone the clip would hold still.
 */
static animc_status check_dae_channel(const struct aiScene *scene, collada_id *ids, size_t count,
				      const uint8_t *data, const uint8_t *end, const uint8_t *channel,
				      const uint8_t *target, size_t len, const uint8_t *slash, size_t channels,
				      animc_diag_sink *sink)
{
	const uint8_t *sid = slash + 1, *sid_end = sid, *node;
	struct aiString name = { 0 };
	uint32_t line = line_at(data, channel);
	/* What the messages quote of the target and its node id. */
	int n = len > 256 ? 256 : (int)len, id = slash - target > 256 ? 256 : (int)(slash - target);

	while (sid_end < target + len && *sid_end != '.' && *sid_end != '(' && *sid_end != '/')
		sid_end++;
	if (memchr(sid, '/', (size_t)(target + len - sid))) {
		animc_diag_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_UNKNOWN_TARGET_PATH, line, 0,
				       "channel target '%.*s': Assimp reads a target of one node id and one transform "
				       "sid (NODE/SID) only; left out, and the clip has none of its keys: target it as "
				       "NODE/SID, by its node's id and the transform's sid", n, target);
		return ANIMC_OK;
	}
	if (memmem(sid, (size_t)(sid_end - sid), "morph-weights", 13) || (size_t)(slash - target) >= sizeof name.data)
		return ANIMC_OK;   /* a mesh's morph weights, said with the clip's channels */
	name.length = (uint32_t)(slash - target);
	memcpy(name.data, target, name.length);
	node = dae_node(ids, count, data, end, target, name.length);
	if (!node || !scene_has_node(scene, &name, channels)) {
		animc_diag_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_UNKNOWN_NODE, line, 0,
				       "channel target '%.*s': no node of the scene has the id '%.*s' (a typo?); left "
				       "out, and the clip has none of its keys: target the id of the node it animates",
				       n, target, id, target);
		return ANIMC_OK;
	}
	if (!dae_node_has_sid(node, end, sid, (size_t)(sid_end - sid))) {
		animc_diag_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_UNKNOWN_TARGET_PATH, line, 0,
				       "channel target '%.*s': node '%.*s' has no transform of sid '%.*s' (a typo?); "
				       "left out, and the clip has none of its keys: target the sid of the <translate>, "
				       "<rotate>, <scale> or <matrix> it animates", n, target, id, target,
				       (int)(sid_end - sid), sid);
		return ANIMC_OK;
	}
	unsigned long member = is_one_index(sid_end, target + len) ? strtoul((const char *)sid_end + 1, NULL, 10) : 0;
	if (member) {
		static const char *const names[] = { "", ".Y", ".Z", ".ANGLE" };
		int head = (int)(sid_end - target) > 256 ? 256 : (int)(sid_end - target);

		animc_diag_report(sink, ANIMC_ERROR, line, 0, "channel target '%.*s': Assimp reads a member chosen by "
				  "one index as member 0, so its keys would key the first component (X, or a "
				  "rotation's axis) in place of member %lu; target it %s%.*s%s%s", n, target, member,
				  member < 4 ? "as '" : "by name", member < 4 ? head : 0, target,
				  member < 4 ? names[member] : "", member < 4 ? "'" : "");
		return ANIMC_ERR_INVALID;
	}
	if (scene_animates(scene, &name) || !dae_in_library_nodes(data, node))
		return ANIMC_OK;
	animc_diag_report(sink, ANIMC_ERROR, line, 0,
			  "channel target '%.*s': node '%.*s' is placed by an <instance_node>, whose nodes Assimp "
			  "does not animate: the clip would hold the bone still; put the node itself in the "
			  "visual scene, in place of its <instance_node>", n, target, id, target);
	return ANIMC_ERR_UNSUPPORTED;
}

/*
 * The <channel>s of a COLLADA file's <library_animations> that Assimp
 * leaves out without a word, each said at its line (check_dae_channel);
 * ANIMC_ERR_UNSUPPORTED when one loses the keys of a node of the scene.
 */
static animc_status check_dae_channels(const struct aiScene *scene, const uint8_t *data, size_t size,
				       animc_diag_sink *sink)
{
	const uint8_t *end = data + size, *p = data, *at;
	animc_status status = ANIMC_OK;
	collada_id *ids;
	size_t count, channels = 0;

	for (at = data; (at = dae_next_tag(at, end, "channel")); at += 8)
		channels++;
	if (!channels || (count = collada_ids(data, size, &ids)) == SIZE_MAX)
		return ANIMC_OK;   /* nothing to check, or no memory to look: no warning */
	while ((at = dae_next_tag(p, end, "channel"))) {
		const uint8_t *close = memchr(at, '>', (size_t)(end - at)), *target, *slash;
		size_t len;

		if (!close)
			break;
		p = close;
		if (!(target = dae_attribute(at, close, "target", &len)))
			continue;
		/* A target of no node (a mesh's morph weights) is not a bone's. */
		if ((slash = memchr(target, '/', len)) &&
		    check_dae_channel(scene, ids, count, data, end, at, target, len, slash, channels, sink) != ANIMC_OK)
			status = ANIMC_ERR_UNSUPPORTED;
	}
	free(ids);
	return status;
}

/* Stepped keys (COLLADA STEP, FBX constant interpolation, in a file the
 * readers cannot read): Assimp 5.2 keeps only key times and values, so
 * they play as linear; said once per file, at the first of them (its line
 * in a text file). */
static void say_stepped_keys(const char *format, const uint8_t *data, size_t size, animc_diag_sink *sink)
{
	bool is_dae = strcmp(format, "dae") == 0, is_text = is_dae || !has_prefix(data, size, "Kaydara");
	const uint8_t *at = is_dae ? collada_step(data, size) : fbx_constant_key(data, size);

	if (!at)
		return;
	animc_diag_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_STEPPED_KEYS, is_text ? line_at(data, at) : 0, 0,
			       "%s keys are read as linear: Assimp keeps no interpolation, so the output moves "
			       "between keys where the source holds each one; bake the animation (a key every "
			       "frame) when exporting", is_dae ? "STEP" : "constant (stepped)");
}

static bool is_format(const char *format, const char *name)
{
	return format && strcmp(format, name) == 0;
}

/* What the importer reads of a file itself, beside Assimp's scene, for
 * what Assimp reads wrongly or says too little of. */
typedef struct own_read {
	fbx_doc fbx;
	bool is_fbx;            /* fbx holds the file (FBX, readable) */
	animc_collada *dae;
	animc_xfile *xf;
	animc_bvh *bvh;
	double frame_rate;      /* FBX: the take's frame rate, 0 for none */
} own_read;

static void own_release(own_read *own)
{
	animc_bvh_close(own->bvh);
	animc_collada_close(own->dae);
	animc_fbx_doc_release(&own->fbx);
	animc_xfile_close(own->xf);
}

/* Checks of the bytes before Assimp reads them: a file Assimp would read
 * wrongly without a word, or say too little of, or not survive, fails
 * here, naming the place. */
static animc_status check_bytes(const char *format, const animc_import_request *req, own_read *own,
				animc_diag_sink *sink)
{
	if (is_format(format, "bvh") &&
	    (!bvh_frames_are_there(req->data, req->size, sink) || !animc_bvh_check(req->data, req->size, sink)))
		return ANIMC_ERR_INVALID;
	if (is_format(format, "smd") && !animc_smd_check(req->data, req->size, sink))
		return ANIMC_ERR_INVALID;
	if (is_format(format, "md5anim") && !animc_md5anim_check(req->data, req->size, sink))
		return ANIMC_ERR_INVALID;
	if (is_format(format, "md5camera") && !animc_md5camera_check(req->data, req->size, sink))
		return ANIMC_ERR_INVALID;
	if (is_format(format, "csm") && !animc_csm_check(req->data, req->size, sink))
		return ANIMC_ERR_INVALID;
	if (is_format(format, "b3d") && !animc_b3d_check(req->data, req->size, sink))
		return ANIMC_ERR_UNSUPPORTED;
	/* A damaged FBX key array is said at its curve, where Assimp reads
	 * zeros for it, or fails naming no curve. */
	own->is_fbx = is_format(format, "fbx") && animc_fbx_doc_read(req->data, req->size, &own->fbx);
	if (own->is_fbx && animc_fbx_say_damage(&own->fbx, sink))
		return ANIMC_ERR_PARSE;
	if (own->is_fbx && animc_fbx_say_endless_turns(&own->fbx, sink))
		return ANIMC_ERR_INVALID;
	/* COLLADA keys Assimp loses, spreads, or runs out of memory on (an
	 * angle keyed to 1e30 degrees) are said at their line before it reads
	 * the file. */
	if (is_format(format, "dae") && (own->dae = animc_collada_open(req->data, req->size)) &&
	    animc_collada_say_bad_keys(own->dae, sink))
		return ANIMC_ERR_INVALID;
	return ANIMC_OK;
}

/* The latest time of `n` keys of `stride` bytes, each starting with its
 * double mTime (as aiVectorKey and aiQuatKey do); `last` if later. */
static double latest_key(const void *keys, size_t stride, unsigned n, double last)
{
	const unsigned char *at = keys;
	double t;

	for (unsigned i = 0; at && i < n; i++) {
		memcpy(&t, at + (size_t)i * stride, sizeof t);
		if (t > last)
			last = t;
	}
	return last;
}

/* Assimp's Half-Life MDL reader states a sequence's duration as its fps
 * times its frames, in ticks of 1/fps s: a clip of as many seconds as the
 * sequence has frames (a walk of 26 frames at 30 fps lasted 26 s, the
 * pose held after 0.83 s).  Its keys, one a frame from tick 0, end at the
 * last frame, where Half-Life's sequence ends (and a loop starts again):
 * that is its duration. */
static void mdl_end_at_last_frame(const struct aiScene *scene)
{
	for (unsigned a = 0; scene->mAnimations && a < scene->mNumAnimations; a++) {
		struct aiAnimation *anim = scene->mAnimations[a];
		double last = 0;

		for (unsigned c = 0; anim && anim->mChannels && c < anim->mNumChannels; c++) {
			const struct aiNodeAnim *na = anim->mChannels[c];

			if (!na)
				continue;
			last = latest_key(na->mPositionKeys, sizeof *na->mPositionKeys, na->mNumPositionKeys, last);
			last = latest_key(na->mRotationKeys, sizeof *na->mRotationKeys, na->mNumRotationKeys, last);
			last = latest_key(na->mScalingKeys, sizeof *na->mScalingKeys, na->mNumScalingKeys, last);
		}
		if (anim)
			anim->mDuration = last;
	}
}

/* The whole number after the first `*NAME` of an ASE file's bytes (a word
 * of its own, as `*SCENE_LASTFRAME 300`), `fallback` when there is none. */
static long ase_scene_number(const uint8_t *data, size_t size, const char *name, long fallback)
{
	size_t n = strlen(name);

	for (size_t i = 0; data && n + 1 < size && i < size - n - 1; i++) {
		char number[32], *stop;
		size_t len = 0;

		if (data[i] != '*' || memcmp(data + i + 1, name, n) != 0 || (data[i + n + 1] != ' ' &&
									data[i + n + 1] != '\t'))
			continue;
		for (i += n + 1; i < size && (data[i] == ' ' || data[i] == '\t'); i++)
			;
		while (i + len < size && len + 1 < sizeof number && data[i + len] > ' ')
			number[len] = (char)data[i + len], len++;
		number[len] = '\0';
		long value = strtol(number, &stop, 10);

		return len && *stop == '\0' ? value : fallback;
	}
	return fallback;
}

/* Assimp's ASE reader gives its animation no duration (animc's clip then
 * ended at its last key: a camera keyed for 4 s of a 10 s scene lasted
 * 4 s).  The scene's range is the take's, as 3ds Max exports it: it ends at
 * *SCENE_LASTFRAME, in ticks of *SCENE_TICKSPERFRAME a frame (Assimp's
 * ticks, 1 a frame when the file gives none).  Keys past it keep theirs. */
static void ase_end_at_scene_end(const uint8_t *data, size_t size, const struct aiScene *scene)
{
	long last = ase_scene_number(data, size, "SCENE_LASTFRAME", 0);
	long ticks = ase_scene_number(data, size, "SCENE_TICKSPERFRAME", 1);

	if (last <= 0 || ticks <= 0)
		return;
	for (unsigned a = 0; scene->mAnimations && a < scene->mNumAnimations; a++)
		if (scene->mAnimations[a])
			scene->mAnimations[a]->mDuration = fmax(scene->mAnimations[a]->mDuration,
								(double)last * (double)ticks);
}

/* Assimp's scene mended from the file's own bytes, before its clips are
 * made: what each format's reader gets wrong. */
static animc_status mend_scene(const char *format, const animc_import_request *req, const struct aiScene *scene,
			       own_read *own, animc_diag_sink *sink)
{
	if (is_format(format, "ms3d")) {
		if (!animc_ms3d_check_fps(scene, sink))
			return ANIMC_ERR_INVALID;
		animc_ms3d_turn_position_keys(req->data, req->size, scene);
		animc_ms3d_unname_clip(scene);
	}
	if (is_format(format, "md5anim") || is_format(format, "md5camera")) {
		/* Its frames at the rate the file says (Assimp's reader gives 24
		 * whatever it says); when it says none above 0, a rate assumed,
		 * with a warning. */
		double rate = md5_frame_rate(req->data, req->size);

		for (unsigned a = 0; scene->mAnimations && a < scene->mNumAnimations; a++)
			if (scene->mAnimations[a])
				scene->mAnimations[a]->mTicksPerSecond = rate;
	}
	if (is_format(format, "md5anim"))
		md5_hold_base_frames(req->data, req->size, scene);
	if (is_format(format, "md5camera"))
		animc_md5camera_start_shots_at_zero(scene);
	if (is_format(format, "csm")) {
		animc_csm_start_at_first_frame(scene, req->data, req->size);
		animc_csm_unname_clip(scene);
	}
	if (is_format(format, "mdl") && req->data && has_prefix(req->data, req->size, "IDST"))
		mdl_end_at_last_frame(scene);
	if (is_format(format, "ase") || is_format(format, "ask"))
		ase_end_at_scene_end(req->data, req->size, scene);
	if (is_format(format, "dae") && own->dae)
		animc_collada_name_clips(own->dae, scene);
	if (is_format(format, "lws")) {
		animc_lws_say_stepped(req->data, req->size, sink);
		if (!animc_lws_check_envelopes(req->data, req->size, sink))
			return ANIMC_ERR_UNSUPPORTED;
	}
	if (is_format(format, "xml") || is_format(format, "mesh"))
		animc_ogre_unturn_position_keys(scene);
	if (is_format(format, "xml"))
		animc_ogre_mend_turns(req->path, req->data, req->size, scene);
	if (is_format(format, "smd"))
		animc_smd_forget_rates(scene);
	if (is_format(format, "fbx"))
		own->frame_rate = fbx_frame_rate(scene, req->data, req->size);
	if (is_format(format, "x"))
		own->xf = animc_xfile_open(req->data, req->size, scene, sink);
	if (is_format(format, "bvh"))
		bvh_say_frame_time(req, scene, sink);
	return is_format(format, "bvh") ? animc_bvh_open(req->data, req->size, scene, &own->bvh) : ANIMC_OK;
}

/* What a COLLADA file's bytes say that Assimp's scene does not, once its
 * clips are made (or failed: a take whose channels were all left out
 * holds no animation, and this says why). */
static animc_status say_collada(const animc_import_request *req, const struct aiScene *scene, const own_read *own,
				animc_status status, animc_diag_sink *sink)
{
	const uint8_t *jump;

	if (req->data && check_dae_channels(scene, req->data, req->size, sink) != ANIMC_OK && status == ANIMC_OK)
		status = ANIMC_ERR_UNSUPPORTED;
	if (status != ANIMC_OK)
		return status;
	if (!(req->options && req->options->is_cut))
		say_collada_clips(req->data, req->size, sink);
	/* A file the reader reads has its stepped keys checked per clip
	 * (animc_collada_check_clips). */
	if (!own->dae)
		say_stepped_keys("dae", req->data, req->size, sink);
	if ((jump = collada_jump(req->data, req->size)))
		animc_diag_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_SHARED_KEY_TIME, line_at(req->data, jump), 0,
				       "these key times hold one time twice (a jump): Assimp keeps the first of the "
				       "two values, and the output moves from it, not from the later one; key the "
				       "jump a frame apart");
	return status;
}

static animc_status import_assimp(const animc_import_request *req, animc_clip_set *out,
				  animc_diag_sink *sink)
{
	char ext[EXT_BYTES];
	const char *format;
	const struct aiScene *scene;
	own_read own = { 0 };
	uint32_t first = out->count;
	animc_status status;
	bool is_certain;

	format = sniff(req->data, req->size < ANIMC_PROBE_HEAD_BYTES ? req->size : ANIMC_PROBE_HEAD_BYTES,
		       &is_certain);
	if (!format && path_extension(req->path, ext))
		format = ext;
	/* Assimp's BVH reader takes a UTF-8 byte order mark for part of its
	 * first word ("Expected header string \"HIERARCHY\""): it reads the
	 * bytes after it, from memory (a BVH names no other file). */
	animc_import_request after_mark;
	if (is_format(format, "bvh") && req->data && has_prefix(req->data, req->size, "\xEF\xBB\xBF")) {
		after_mark = (animc_import_request){ NULL, req->data + 3, req->size - 3, req->options };
		req = &after_mark;
	}
	status = check_bytes(format, req, &own, sink);
	scene = status != ANIMC_OK ? NULL :
		animc_assimp_scene_read(req->path, req->data, req->size, format, req->options, sink);
	if (!scene) {
		own_release(&own);
		return status != ANIMC_OK ? status : ANIMC_ERR_PARSE;
	}
	status = mend_scene(format, req, scene, &own, sink);
	if (status != ANIMC_OK) {
		own_release(&own);
		aiReleaseImport(scene);
		return status;
	}
	status = scene_import(scene, format, own.frame_rate, own.is_fbx ? &own.fbx : NULL, own.xf, req->options, out,
			      sink);
	if (status == ANIMC_OK)
		animc_collada_check_clips(own.dae, out, first, sink);
	if (status == ANIMC_OK && is_format(format, "md5camera"))
		animc_md5camera_end_at_last_frame(req->data, req->size, out, first);
	if (is_format(format, "dae"))
		status = say_collada(req, scene, &own, status, sink);
	animc_up_axis up = declared_up(format ? format : "", scene);
	for (uint32_t i = first; status == ANIMC_OK && i < out->count; i++)
		out->clips[i]->declared_up = up;
	/* An FBX file the reader reads has its stepped keys checked per clip
	 * (animc_fbx_check_clip). */
	if (status == ANIMC_OK && is_format(format, "fbx") && !own.is_fbx)
		say_stepped_keys(format, req->data, req->size, sink);
	own_release(&own);
	aiReleaseImport(scene);
	return status;
}

const animc_importer animc_importer_assimp = {
	.name = "assimp",
	.description = "animations Assimp reads: .x .fbx .dae .bvh .md5anim ...",
	.probe = probe_assimp,
	.import = import_assimp,
	.needs_isolation = true,
	.load_skeleton = animc_assimp_skeleton_load,
	.reader_version = animc_assimp_loaded_version,
};
