/*
 * assimp_api.c - loads Assimp with dlopen() the first time an Assimp
 * function is called (see assimp_api.h), by the soname the build found
 * (ANIMC_ASSIMP_SONAME).  A program that never reads a file through
 * Assimp, nor asks which Assimp it would read with, never maps it:
 * compiling XML sources costs what libxml2 costs.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "assimp_internal.h"

/* The build gives both as bare tokens (libassimp.so.5, 5.2.4). */
#define ANIMC_STRING_(x) #x
#define ANIMC_STRING(x) ANIMC_STRING_(x)
#ifdef ANIMC_ASSIMP_VERSION
#define ASSIMP_VERSION_TEXT ANIMC_STRING(ANIMC_ASSIMP_VERSION)
#else
#define ASSIMP_VERSION_TEXT "unknown"
#endif
#ifdef ANIMC_ASSIMP_SONAME
#define ASSIMP_SONAME_TEXT ANIMC_STRING(ANIMC_ASSIMP_SONAME)
#else
#define ASSIMP_SONAME_TEXT "libassimp.so.5"
#endif

static animc_assimp_api api;
static char load_error[512];
/* The version of the Assimp loaded ("5.2.4"; with its revision when it
 * gives one), or why none is. */
static char loaded_version[64];
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* Stand-ins when Assimp cannot be loaded: each fails, none crashes. */
static const struct aiScene *no_import_file(const char *file, unsigned flags, struct aiFileIO *fs,
					    const struct aiPropertyStore *props)
{
	(void)file, (void)flags, (void)fs, (void)props;
	return NULL;
}

static const struct aiScene *no_import_memory(const char *buffer, unsigned length, unsigned flags,
					      const char *hint, const struct aiPropertyStore *props)
{
	(void)buffer, (void)length, (void)flags, (void)hint, (void)props;
	return NULL;
}

static void no_release_import(const struct aiScene *scene)
{
	(void)scene;
}

static const char *no_error_string(void)
{
	return load_error;
}

static aiBool no_extension(const char *extension)
{
	(void)extension;
	return AI_FALSE;
}

/* A property store the stand-ins accept and ignore. */
static struct aiPropertyStore *no_create_store(void)
{
	static struct aiPropertyStore store;

	return &store;
}

static void no_release_store(struct aiPropertyStore *store)
{
	(void)store;
}

static void no_set_integer(struct aiPropertyStore *store, const char *name, int value)
{
	(void)store, (void)name, (void)value;
}

static void no_decompose(const struct aiMatrix4x4 *m, struct aiVector3D *scaling,
			 struct aiQuaternion *rotation, struct aiVector3D *position)
{
	(void)m;
	memset(scaling, 0, sizeof *scaling);
	memset(rotation, 0, sizeof *rotation);
	memset(position, 0, sizeof *position);
}

static void no_attach_log(const struct aiLogStream *stream)
{
	(void)stream;
}

static enum aiReturn no_detach_log(const struct aiLogStream *stream)
{
	(void)stream;
	return aiReturn_SUCCESS;
}

static void use_stand_ins(void)
{
	api.ImportFileExWithProperties = no_import_file;
	api.ImportFileFromMemoryWithProperties = no_import_memory;
	api.ReleaseImport = no_release_import;
	api.GetErrorString = no_error_string;
	api.IsExtensionSupported = no_extension;
	api.CreatePropertyStore = no_create_store;
	api.ReleasePropertyStore = no_release_store;
	api.SetImportPropertyInteger = no_set_integer;
	api.DecomposeMatrix = no_decompose;
	api.AttachLogStream = no_attach_log;
	api.DetachLogStream = no_detach_log;
}

/* The version the library says it is: one soname (libassimp.so.5) is
 * carried by Assimp 5.2, 5.3 and 5.4, which read files differently, so
 * the one animc was built against does not name it.  aiGetVersionPatch
 * is no older Assimp's. */
static void read_version(void *lib)
{
	unsigned (*major)(void), (*minor)(void), (*patch)(void), (*revision)(void);
	void *fn[4] = { dlsym(lib, "aiGetVersionMajor"), dlsym(lib, "aiGetVersionMinor"),
			dlsym(lib, "aiGetVersionPatch"), dlsym(lib, "aiGetVersionRevision") };
	char rest[32] = "";

	memcpy(&major, &fn[0], sizeof fn[0]);
	memcpy(&minor, &fn[1], sizeof fn[1]);
	memcpy(&patch, &fn[2], sizeof fn[2]);
	memcpy(&revision, &fn[3], sizeof fn[3]);
	if (!major || !minor) {
		snprintf(loaded_version, sizeof loaded_version, "unknown (built against " ASSIMP_VERSION_TEXT ")");
		return;
	}
	if (patch)
		snprintf(rest, sizeof rest, ".%u", patch());
	if (revision && revision())
		snprintf(rest + strlen(rest), sizeof rest - strlen(rest), " revision %x", revision());
	snprintf(loaded_version, sizeof loaded_version, "%u.%u%s", major(), minor(), rest);
}

static void load(void)
{
	void *lib = dlopen(ASSIMP_SONAME_TEXT, RTLD_NOW | RTLD_LOCAL);
	const char *missing = NULL;

	if (!lib) {
		const char *why = dlerror();

		snprintf(load_error, sizeof load_error, "Assimp could not be loaded (%s)",
			 why ? why : ASSIMP_SONAME_TEXT);
		snprintf(loaded_version, sizeof loaded_version, "none (built against " ASSIMP_VERSION_TEXT ")");
		use_stand_ins();
		return;
	}
	read_version(lib);
	/* Through a void * with memcpy: ISO C has no cast from an object
	 * pointer to a function pointer. */
#define LOOKUP(field, symbol)                                 \
	do {                                                  \
		void *fn = dlsym(lib, symbol);                \
		if (!fn && !missing)                          \
			missing = symbol;                     \
		memcpy(&api.field, &fn, sizeof fn);           \
	} while (0)
	LOOKUP(ImportFileExWithProperties, "aiImportFileExWithProperties");
	LOOKUP(ImportFileFromMemoryWithProperties, "aiImportFileFromMemoryWithProperties");
	LOOKUP(ReleaseImport, "aiReleaseImport");
	LOOKUP(GetErrorString, "aiGetErrorString");
	LOOKUP(IsExtensionSupported, "aiIsExtensionSupported");
	LOOKUP(CreatePropertyStore, "aiCreatePropertyStore");
	LOOKUP(ReleasePropertyStore, "aiReleasePropertyStore");
	LOOKUP(SetImportPropertyInteger, "aiSetImportPropertyInteger");
	LOOKUP(DecomposeMatrix, "aiDecomposeMatrix");
	LOOKUP(AttachLogStream, "aiAttachLogStream");
	LOOKUP(DetachLogStream, "aiDetachLogStream");
#undef LOOKUP
	if (missing) {
		snprintf(load_error, sizeof load_error, "Assimp could not be loaded (%s has no %s)",
			 ASSIMP_SONAME_TEXT, missing);
		use_stand_ins();
		dlclose(lib);
	}
}

const animc_assimp_api *animc_assimp(void)
{
	pthread_once(&once, load);
	return &api;
}

static pthread_mutex_t reading = PTHREAD_MUTEX_INITIALIZER;

void animc_assimp_lock(void)
{
	pthread_mutex_lock(&reading);
}

void animc_assimp_unlock(void)
{
	pthread_mutex_unlock(&reading);
}

void animc_assimp_release_import(const struct aiScene *scene)
{
	const animc_assimp_api *a = animc_assimp();

	pthread_mutex_lock(&reading);
	a->ReleaseImport(scene);
	pthread_mutex_unlock(&reading);
}

aiBool animc_assimp_is_extension_supported(const char *extension)
{
	const animc_assimp_api *a = animc_assimp();

	pthread_mutex_lock(&reading);
	aiBool is_supported = a->IsExtensionSupported(extension);
	pthread_mutex_unlock(&reading);
	return is_supported;
}

const char *animc_assimp_version(void)
{
	return ASSIMP_VERSION_TEXT;
}

const char *animc_assimp_loaded_version(void)
{
	pthread_once(&once, load);
	return loaded_version;
}
