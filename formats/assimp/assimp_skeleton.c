/*
 * assimp_skeleton.c - loads a model's node tree into an animc_skeleton
 * (animc build --skeleton): every node, in depth-first pre-order, root
 * first, with its local rest transform.  Together with the Assimp importer,
 * the only code that includes Assimp.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <assimp/cimport.h>
#include <assimp/scene.h>

#include "assimp_internal.h"
#include "assimp_fbx.h"
#include "bvh.h"
#include "smd.h"

static uint32_t count_nodes(const struct aiNode *node, unsigned depth)
{
	uint32_t n = 1;

	if (depth > 4096)
		return UINT32_MAX;
	for (unsigned i = 0; node->mChildren && i < node->mNumChildren; i++) {
		uint32_t sub;

		if (!node->mChildren[i])
			continue;
		sub = count_nodes(node->mChildren[i], depth + 1);

		if (sub == UINT32_MAX || n > UINT32_MAX - 1 - sub)
			return UINT32_MAX;
		n += sub;
	}
	return n;
}

static bool add_nodes(animc_skeleton *skel, const struct aiNode *node, int32_t parent)
{
	animc_bone *bone = &skel->bones[skel->bone_count];
	int32_t self = (int32_t)skel->bone_count++;
	const struct aiMatrix4x4 *m = &node->mTransformation;
	const float rows[4][4] = {
		{ m->a1, m->a2, m->a3, m->a4 },
		{ m->b1, m->b2, m->b3, m->b4 },
		{ m->c1, m->c2, m->c3, m->c4 },
		{ m->d1, m->d2, m->d3, m->d4 },
	};
	struct aiVector3D scaling, position;
	struct aiQuaternion rotation;

	/* Unvalidated scene: the length is not trusted past the buffer. */
	bone->name = animc_arena_strndup(&skel->arena, node->mName.data,
					 strnlen(node->mName.data, node->mName.length < MAXLEN ?
								   node->mName.length : MAXLEN - 1));
	if (!bone->name)
		return false;
	bone->parent = parent;
	/* Assimp: column vectors, translation in a4 b4 c4.  XNA: row vectors,
	 * translation in M41 M42 M43.  One is the transpose of the other. */
	for (int r = 0; r < 4; r++)
		for (int c = 0; c < 4; c++)
			bone->local[r * 4 + c] = rows[c][r];
	aiDecomposeMatrix(m, &scaling, &rotation, &position);
	bone->translation[0] = position.x;
	bone->translation[1] = position.y;
	bone->translation[2] = position.z;
	bone->rotation[0] = rotation.x;
	bone->rotation[1] = rotation.y;
	bone->rotation[2] = rotation.z;
	bone->rotation[3] = rotation.w;
	bone->scale[0] = scaling.x;
	bone->scale[1] = scaling.y;
	bone->scale[2] = scaling.z;
	for (unsigned i = 0; node->mChildren && i < node->mNumChildren; i++)
		if (node->mChildren[i] && !add_nodes(skel, node->mChildren[i], self))
			return false;
	return true;
}

static bool is_named(const char *path, const char *ext)
{
	const char *dot = strrchr(path, '.');

	return dot && strcasecmp(dot, ext) == 0;
}

/* The bytes of the file at `path` (NULL when they cannot be read). */
static uint8_t *read_whole(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (data = malloc((size_t)n)) && fread(data, 1, (size_t)n, f) != (size_t)n) {
		free(data);
		data = NULL;
	}
	fclose(f);
	*size = data ? (size_t)n : 0;
	return data;
}

/*
 * The model's scene, read with the importer's settings (pivots off among
 * them), so the bones have the names the imported channels have.  A BVH
 * is read as the importer reads one: checked before Assimp reads it (its
 * reader writes through a stale reference on some files), and past a
 * UTF-8 byte order mark, which Assimp takes for part of its first word;
 * an SMD's node lines are checked as the importer checks them (Assimp
 * leaves a bone whose parents lead to no root out of the tree).  An FBX
 * model's rest pose is mended as its keys are.
 */
static const struct aiScene *open_model(const char *path, animc_diag_sink *sink)
{
	const struct aiScene *scene;
	size_t size = 0, skip;
	const bool is_smd = animc_smd_is_named(path);
	uint8_t *data = is_named(path, ".bvh") || is_named(path, ".fbx") || is_smd ? read_whole(path, &size) : NULL;

	if (data && is_named(path, ".bvh")) {
		skip = size >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
		scene = animc_bvh_check(data + skip, size - skip, sink) ?
				animc_assimp_scene_open(NULL, data + skip, size - skip, "bvh", sink) : NULL;
		free(data);
		return scene;
	}
	if (is_smd && data && !animc_smd_check(data, size, sink)) {
		free(data);
		return NULL;
	}
	scene = animc_assimp_scene_open(path, NULL, 0, NULL, sink);
	fbx_doc fbx;
	if (scene && data && animc_fbx_doc_read(data, size, &fbx)) {
		animc_fbx_mend_rest(&fbx, scene);
		animc_fbx_doc_release(&fbx);
	}
	free(data);
	return scene;
}

animc_status animc_assimp_skeleton_load(const char *path, animc_skeleton *out, animc_diag_sink *sink)
{
	const struct aiScene *scene;
	uint32_t count;

	memset(out, 0, sizeof *out);
	scene = open_model(path, sink);
	if (!scene)
		return ANIMC_ERR_PARSE;
	if (!scene->mRootNode) {
		aiReleaseImport(scene);
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "the model has no node tree");
		return ANIMC_ERR_INVALID;
	}
	count = count_nodes(scene->mRootNode, 0);
	if (count == UINT32_MAX || count > INT32_MAX) {
		aiReleaseImport(scene);
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "the model's node tree is too deep or too large");
		return ANIMC_ERR_LIMIT;
	}
	/* FBX's UpAxis, its world's (Assimp keeps an FBX scene as it is,
	 * and has no UpAxis for the formats whose root node it turns). */
	const struct aiMetadata *md = scene->mMetaData;
	for (unsigned i = 0; md && md->mKeys && md->mValues && i < md->mNumProperties; i++) {
		int32_t axis;

		if (strcmp(md->mKeys[i].data, "UpAxis") != 0 || md->mValues[i].mType != AI_INT32 || !md->mValues[i].mData)
			continue;
		memcpy(&axis, md->mValues[i].mData, sizeof axis);
		if (axis >= 0 && axis <= 2)
			out->declared_up = (animc_up_axis)(ANIMC_UP_X + axis);
	}
	if (animc_smd_is_named(path))
		out->declared_up = ANIMC_SMD_UP;
	out->bones = calloc(count, sizeof *out->bones);
	if (!out->bones || !add_nodes(out, scene->mRootNode, -1)) {
		aiReleaseImport(scene);
		animc_skeleton_release(out);
		return ANIMC_ERR_NOMEM;
	}
	aiReleaseImport(scene);
	return ANIMC_OK;
}
