/*
 * assimp_api.h - Assimp's C API as animc reaches it: through a table of
 * functions filled by dlopen() on first use, so that a program linking
 * libanimc loads Assimp (and libstdc++ and its own dependencies) only when
 * it reads a file through Assimp.  Included by assimp_internal.h after
 * Assimp's headers: the macros below turn each call of an Assimp function
 * in formats/assimp/ into a call through the table.
 */
#ifndef ANIMC_FORMATS_ASSIMP_API_H
#define ANIMC_FORMATS_ASSIMP_API_H

#include <assimp/cfileio.h>
#include <assimp/cimport.h>
#include <assimp/scene.h>

typedef struct animc_assimp_api {
	const struct aiScene *(*ImportFileExWithProperties)(const char *file, unsigned flags,
							     struct aiFileIO *fs,
							     const struct aiPropertyStore *props);
	const struct aiScene *(*ImportFileFromMemoryWithProperties)(const char *buffer, unsigned length,
								     unsigned flags, const char *hint,
								     const struct aiPropertyStore *props);
	void (*ReleaseImport)(const struct aiScene *scene);
	const char *(*GetErrorString)(void);
	aiBool (*IsExtensionSupported)(const char *extension);
	struct aiPropertyStore *(*CreatePropertyStore)(void);
	void (*ReleasePropertyStore)(struct aiPropertyStore *store);
	void (*SetImportPropertyInteger)(struct aiPropertyStore *store, const char *name, int value);
	void (*DecomposeMatrix)(const struct aiMatrix4x4 *m, struct aiVector3D *scaling,
				struct aiQuaternion *rotation, struct aiVector3D *position);
	void (*AttachLogStream)(const struct aiLogStream *stream);
	enum aiReturn (*DetachLogStream)(const struct aiLogStream *stream);
} animc_assimp_api;

/*
 * The table, loaded on the first call (thread-safe).  When Assimp cannot be
 * loaded, every entry is a stand-in that fails: imports return NULL and
 * aiGetErrorString() says why ("libassimp.so.5: cannot open shared object
 * file ..."), aiIsExtensionSupported() says no.  Never NULL.
 */
const animc_assimp_api *animc_assimp(void);

#define aiImportFileExWithProperties (animc_assimp()->ImportFileExWithProperties)
#define aiImportFileFromMemoryWithProperties (animc_assimp()->ImportFileFromMemoryWithProperties)
/*
 * Assimp's logger (aiAttachLogStream) and its last error (aiGetErrorString)
 * are one for the whole process: two reads at once on two threads got each
 * other's messages, and one freed the logger while the other wrote to it.
 * A read holds this lock from attaching its log stream until it has its
 * error; releasing a scene and asking for an extension (each a temporary
 * importer of Assimp's) take it too.
 */
void animc_assimp_lock(void);
void animc_assimp_unlock(void);
void animc_assimp_release_import(const struct aiScene *scene);
aiBool animc_assimp_is_extension_supported(const char *extension);

#define aiReleaseImport animc_assimp_release_import
#define aiGetErrorString (animc_assimp()->GetErrorString)
#define aiIsExtensionSupported animc_assimp_is_extension_supported
#define aiCreatePropertyStore (animc_assimp()->CreatePropertyStore)
#define aiReleasePropertyStore (animc_assimp()->ReleasePropertyStore)
#define aiSetImportPropertyInteger (animc_assimp()->SetImportPropertyInteger)
#define aiDecomposeMatrix (animc_assimp()->DecomposeMatrix)
#define aiAttachLogStream (animc_assimp()->AttachLogStream)
#define aiDetachLogStream (animc_assimp()->DetachLogStream)

#endif
