/*
 * animc_formats.h - the formats side of the pipeline: the importer table
 * (each importer turns one source file into clips of the model in animc.h)
 * and the XNB writer (a clip into the bytes of formats/xnb/FORMAT.md).
 *
 * Usage:
 *
 *     const animc_importer *imp = animc_importer_find(path, bytes, size);
 *     animc_import_request req = { .path = path, .data = bytes, .size = size };
 *     animc_clip_set set = {0};
 *     if (imp && imp->import(&req, &set, &sink) == ANIMC_OK) {
 *         uint8_t *xnb; size_t xnb_size;
 *         animc_xnb_options o = {0};                     // platform 'w', original reader
 *         animc_clip_process(set.clips[0], NULL, &sink, NULL);
 *         if (animc_xnb_write(set.clips[0], &o, &xnb, &xnb_size, &sink) == ANIMC_OK)
 *             ...; free(xnb);
 *     }
 *     animc_clip_set_release(&set);
 *
 * Ownership: imported clips belong to the set; the written buffer is the
 * caller's to free().  Nothing here prints; diagnostics go to the sink.
 */
#ifndef ANIMC_FORMATS_H
#define ANIMC_FORMATS_H

#include <animc/animc.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ importers */

/*
 * Options of an import; zeroed = defaults.  An importer ignores what does
 * not apply to its format.
 */
typedef struct animc_import_options {
	/* > 0: key times in ticks are converted with this rate instead of the
	 * source's own (formats with tick-based time). */
	double ticks_per_second;
	/* The model the clips animate (animc build --skeleton), or NULL.
	 * Importers whose bones are indices name them from it. */
	const animc_skeleton *skeleton;
	/* Compose each key with its bone's rest transform from `skeleton`
	 * (sources whose keys are relative to the bind pose). */
	bool relative_to_bind;
	/* Told the path of every file besides the request's own that the
	 * import reads (a sibling an Assimp reader opens, a glTF buffer), so
	 * that a build can tell when its outputs are out of date.  May be
	 * NULL. */
	void (*on_file_read)(void *user, const char *path);
	void *on_file_read_user;
	/* Told the path of every file the import looked for beside the
	 * source, in its folder or below it, and did not find (an SMD's
	 * STEM_animation.txt, an Ogre mesh's binary skeleton before its XML
	 * one): one made there later changes what the import gives.  Given
	 * on_file_read_user.  May be NULL. */
	void (*on_file_missing)(void *user, const char *path);
	/* The error the build allows (--tolerance; --layout compact implies
	 * the defaults), or NULL.  Importers that bake curves into keys (glTF
	 * CUBICSPLINE) bake within 1e-4 whatever it is, as a lossless build
	 * does: the reduction measures each lossy output against the keys the
	 * lossless file holds. */
	const animc_tolerance *tolerance;
	/* What the build multiplies translations by after the import
	 * (--scale; 0: 1).  Bounds on translations are in the output's units:
	 * an importer that bakes curves bakes translations within the bound
	 * divided by it. */
	double length_scale;
	/* The caller cuts the imported takes into parts afterwards (animc
	 * build --split, --clips, a STEM_Anims.xml sidecar): the warning that
	 * advises cutting a take whose clips the import cannot give (a COLLADA
	 * <library_animation_clips>) is not given, its advice taken. */
	bool is_cut;
} animc_import_options;

typedef struct animc_import_request {
	const char *path;        /* the source file: named in diagnostics, read by
				    importers of multi-file formats; may be NULL */
	const uint8_t *data;     /* the whole file */
	size_t size;
	const animc_import_options *options;  /* may be NULL */
} animc_import_request;

/* How sure a probe is that an input is its format. */
typedef enum animc_probe {
	ANIMC_PROBE_NO = 0,
	ANIMC_PROBE_EXTENSION = 1,  /* the file name suggests it */
	ANIMC_PROBE_CONTENT = 2     /* the bytes say so (root element, magic) */
} animc_probe;

/*
 * The first bytes of a file given to probes, its probe head: the first
 * ANIMC_PROBE_HEAD_BYTES (the whole file when shorter), or more for an XML
 * document whose root element starts further in (after a long licence
 * comment), as far as it does, up to ANIMC_PROBE_HEAD_MAX_BYTES.  A file
 * that is no XML costs a probe no more than ANIMC_PROBE_HEAD_BYTES.
 */
#define ANIMC_PROBE_HEAD_BYTES 4096
#define ANIMC_PROBE_HEAD_MAX_BYTES ((size_t)1 << 20)

/*
 * How many first bytes of a file its probe head needs, given the first
 * `size`: ANIMC_PROBE_HEAD_BYTES, or more (twice `size`, at most
 * ANIMC_PROBE_HEAD_MAX_BYTES) while they are XML whose root element has not
 * started; `size` when they are enough.  A caller reads
 * ANIMC_PROBE_HEAD_BYTES, then as many as this asks while the file has them
 * (animc_probe_head_read does so).
 */
size_t animc_probe_head_wanted(const uint8_t *head, size_t size);

/*
 * Read a file's probe head from `fd` (from its current offset, the file's
 * start) into *head (malloc()ed, the caller frees it), *size bytes of it.
 * False with errno set when a read fails or memory runs out (*head NULL).
 */
bool animc_probe_head_read(int fd, uint8_t **head, size_t *size);

typedef struct animc_importer {
	const char *name;         /* "robotgame" */
	const char *description;  /* one line for --help */
	/* Look at a path and the file's probe head (see
	 * ANIMC_PROBE_HEAD_BYTES). */
	animc_probe (*probe)(const char *path, const uint8_t *head, size_t head_size);
	/*
	 * Import every clip of the source into `out` (empty on entry).  Errors
	 * are reported to `sink` with line and column where the source has
	 * them.  ANIMC_ERR_NOT_FOUND means the source is of this format but
	 * holds no animation (a static model, an XnaContent font): no error is
	 * reported, and out->holds may say what it holds instead.  The clips
	 * of a set have distinct names (animc_clip_set_name_unique).
	 */
	animc_status (*import)(const animc_import_request *request, animc_clip_set *out,
			       animc_diag_sink *sink);
	/* The import runs a third-party reader that can crash on damaged
	 * input (Assimp 5.2 does, see formats/assimp/NOTES.md): a caller that
	 * must outlive a bad file runs it in a child process. */
	bool needs_isolation;
	/* Given request->path, the import reads the file itself and looks at
	 * no more of request->data than its probe head: a caller may pass
	 * just that rather than read the whole file twice.
	 * No importer of animc's does: each reads the source from the bytes
	 * given, the bytes a build keys its outputs by (a file read again by
	 * its path may have been replaced since). */
	bool reads_path;
	/* Load the node tree of a model of this format as a skeleton (see
	 * animc_skeleton_load), reading `path`; NULL when the format holds
	 * no model. */
	animc_status (*load_skeleton)(const char *path, animc_skeleton *out, animc_diag_sink *sink);
	/* The version of the library that reads this format as loaded at run
	 * time ("5.2.4" for Assimp, which one soname carries across versions
	 * that read files differently), loading it; NULL for a format animc
	 * reads itself.  A build keys the outputs of its sources on it. */
	const char *(*reader_version)(void);
	/* load_skeleton of the model's bytes, `data` (`size` of them, what
	 * the caller read of `path`; files the model names are read beside
	 * `path`); NULL: load_skeleton reads the file again. */
	animc_status (*load_skeleton_bytes)(const char *path, const uint8_t *data, size_t size, animc_skeleton *out,
					    animc_diag_sink *sink);
} animc_importer;

/* The table, NULL-terminated, in the order probes are tried. */
extern const animc_importer *const animc_importers[];

/* The importer for a file, given its probe head or more of it (the whole
 * file): a content match beats an extension match; the table order breaks
 * ties.  NULL when none recognises it. */
const animc_importer *animc_importer_find(const char *path, const uint8_t *head, size_t head_size);
const animc_importer *animc_importer_by_name(const char *name);

/* The versions of the libraries that shape what the importers and the
 * writer produce, as one line: "libxml2 20914, assimp 5.2.4, jansson 2.14,
 * zstd 1.5.4".
 * A build keys its outputs on it. */
const char *animc_formats_versions(void);

/* The importers, one per format. */
extern const animc_importer animc_importer_robotgame;
extern const animc_importer animc_importer_xna;
/* glTF 2.0, .gltf and .glb, read natively (formats/gltf/NOTES.md): one
 * clip per animation, STEP and CUBICSPLINE keys turned into keys the
 * original runtime plays exactly (STEP) or within 1e-4 (CUBICSPLINE).
 * Reads files the document names beside request->path. */
extern const animc_importer animc_importer_gltf;
/* Every file Assimp reads that holds node animation (.x, .fbx, .dae, .bvh,
 * .md5anim, .smd, .ms3d, .b3d, glTF 1.0, ...): one clip per animation,
 * times from ticks to seconds (formats/assimp/NOTES.md).  Reads
 * request->path when given (formats that span files), else the bytes.
 * Threads may import at once, each into its own set; Assimp's own reads
 * (here and for animc_skeleton_load) take turns, its logger and last
 * error being one for the whole process. */
extern const animc_importer animc_importer_assimp;

/*
 * Load the node tree of a model as a skeleton: every node, depth-first
 * pre-order, root first, with its local rest transform.  The importer that
 * recognises the file reads it (glTF natively); any other model goes to
 * Assimp (FBX, .X, COLLADA, ...).  `path` is read (models may span several
 * files).  Release with animc_skeleton_release.
 */
animc_status animc_skeleton_load(const char *path, animc_skeleton *out, animc_diag_sink *sink);
/* The same, telling `hooks`' on_file_read and on_file_missing (`hooks` may
 * be NULL) the files a model Assimp reads pulled in beside it (an Ogre
 * mesh's .skeleton.xml, which holds its bones) and those looked for there
 * and not found: what the skeleton depends on besides `path`. */
animc_status animc_skeleton_load_reading(const char *path, const animc_import_options *hooks, animc_skeleton *out,
					 animc_diag_sink *sink);
/* animc_skeleton_load_reading of the model's bytes, `data` (`size` of
 * them), which the caller read of `path`: the model is not read again (a
 * build keys its outputs by the bytes it read, and reads them once); the
 * files it names beside it are read as before. */
animc_status animc_skeleton_load_bytes(const char *path, const uint8_t *data, size_t size,
				       const animc_import_options *hooks, animc_skeleton *out, animc_diag_sink *sink);

/* ------------------------------------------------------- clip splitting */

/* A clip-split document read into an animc_split.  `arena` owns the names
 * and path; `parts` is one allocation.  Zero-initialised = empty. */
typedef struct animc_split_doc {
	animc_split split;
	animc_split_part *parts;
	animc_arena arena;
	uint32_t *name_lines;   /* each part's <ClipName> line, parallel to parts */
} animc_split_doc;

/*
 * Read an XnaContent AnimationDefinition (the XNA skinned-model samples'
 * STEM_Anims.xml; the Asset type's namespace may be anything): the take
 * (originalClipName), its frame count, and each ClipParts/Item as a part
 * from StartFrame to EndFrame inclusive.  `path` (may be NULL) is kept as
 * the split's path for messages.  A malformed document is reported at its
 * line (ANIMC_ERR_PARSE, ANIMC_ERR_INVALID); `out` is then empty.
 */
animc_status animc_split_doc_parse(const char *path, const uint8_t *data, size_t size,
				   animc_split_doc *out, animc_diag_sink *sink);
void animc_split_doc_release(animc_split_doc *doc);

/* True when the first `size` bytes of a file (a build gives a STEM_Anims.xml
 * sidecar's first 1 MiB, ANIMC_PROBE_HEAD_MAX_BYTES) are an XnaContent
 * document (UTF-8 or UTF-16) whose Asset type is an AnimationDefinition. */
bool animc_split_doc_probe(const uint8_t *head, size_t size);

/* --------------------------------------------------------------- writer */

typedef enum animc_compression {
	ANIMC_COMPRESSION_NONE = 0,
	ANIMC_COMPRESSION_ZSTD       /* one zstd frame around the whole .xnb */
} animc_compression;

typedef struct animc_xnb_options {
	char platform;                 /* 0 = 'w'; one of animc_xnb_platforms() */
	const char *reader_name;       /* NULL = the original AnimationReader */
	animc_compression compression;
	int zstd_level;                /* 0 = 19 */
} animc_xnb_options;

/* The letters --platform accepts. */
const char *animc_xnb_platforms(void);
/* The reader a NULL reader_name writes: the original AnimationReader. */
const char *animc_xnb_reader_name_default(void);

/*
 * Serialise a clip that passed validation for writing.  The output depends
 * on the clip and options alone.  *out is malloc()ed; on failure it is NULL.
 * ANIMC_ERR_ARGUMENT, reported, for a platform not of animc_xnb_platforms(),
 * a compression none of animc_compression's, a zstd level past 1..22, or a
 * reader name empty or not UTF-8, and for a NULL clip, out or out_size.
 */
animc_status animc_xnb_write(const animc_clip *clip, const animc_xnb_options *options,
			     uint8_t **out, size_t *out_size, animc_diag_sink *sink);

#ifdef __cplusplus
}
#endif

#endif /* ANIMC_FORMATS_H */
