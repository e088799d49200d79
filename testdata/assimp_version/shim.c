/*
 * A stand-in libassimp.so.5 for the tests: it forwards every call animc
 * makes to the Assimp at REAL and says it is Assimp 5.4.3, as another
 * Assimp under the same soname would (an OS upgrade).
 */
#include <dlfcn.h>
#include <assimp/cimport.h>
#include <assimp/scene.h>

static void *real(const char *name)
{
	static void *h;

	if (!h)
		h = dlopen(REAL, RTLD_NOW | RTLD_LOCAL);
	return h ? dlsym(h, name) : 0;
}

#define F(ret, name, params, args) \
	ret name params { return ((ret(*)params)real(#name)) args; }

F(const struct aiScene *, aiImportFileExWithProperties,
  (const char *f, unsigned fl, struct aiFileIO *io, const struct aiPropertyStore *p), (f, fl, io, p))
F(const struct aiScene *, aiImportFileFromMemoryWithProperties,
  (const char *b, unsigned n, unsigned fl, const char *h, const struct aiPropertyStore *p), (b, n, fl, h, p))
F(void, aiReleaseImport, (const struct aiScene *s), (s))
F(const char *, aiGetErrorString, (void), ())
F(aiBool, aiIsExtensionSupported, (const char *e), (e))
F(struct aiPropertyStore *, aiCreatePropertyStore, (void), ())
F(void, aiReleasePropertyStore, (struct aiPropertyStore *p), (p))
F(void, aiSetImportPropertyInteger, (struct aiPropertyStore *p, const char *n, int v), (p, n, v))
F(void, aiDecomposeMatrix,
  (const struct aiMatrix4x4 *m, struct aiVector3D *s, struct aiQuaternion *r, struct aiVector3D *t), (m, s, r, t))
F(void, aiAttachLogStream, (const struct aiLogStream *l), (l))
F(aiReturn, aiDetachLogStream, (const struct aiLogStream *l), (l))

unsigned int aiGetVersionMajor(void) { return 5; }
unsigned int aiGetVersionMinor(void) { return 4; }
unsigned int aiGetVersionPatch(void) { return 3; }
unsigned int aiGetVersionRevision(void) { return 0; }
