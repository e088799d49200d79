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

/* Nodes still to visit, each with the index of its parent's bone: the
 * tree is walked with this stack, not by recursion, since a chain of nodes
 * may be deeper than the C stack allows. */
typedef struct node_stack {
	struct node_at {
		const struct aiNode *node;
		int32_t parent;
	} *at;
	size_t count, capacity;
} node_stack;

static bool stack_push(node_stack *s, const struct aiNode *node, int32_t parent)
{
	if (s->count == s->capacity) {
		size_t capacity = s->capacity ? s->capacity * 2 : 64;
		struct node_at *grown = realloc(s->at, capacity * sizeof *grown);

		if (!grown)
			return false;
		s->at = grown;
		s->capacity = capacity;
	}
	s->at[s->count++] = (struct node_at){ node, parent };
	return true;
}

/* The children of `node` pushed last first, so that they come off the
 * stack in their order: the walk is depth-first pre-order. */
static bool push_children(node_stack *s, const struct aiNode *node, int32_t self)
{
	for (unsigned i = node->mChildren ? node->mNumChildren : 0; i-- > 0;)
		if (node->mChildren[i] && !stack_push(s, node->mChildren[i], self))
			return false;
	return true;
}

/* The number of nodes under `root`, it included; UINT32_MAX past
 * INT32_MAX, 0 when out of memory. */
static uint32_t count_nodes(const struct aiNode *root)
{
	node_stack s = { 0 };
	uint32_t n = 0;

	if (!stack_push(&s, root, -1))
		return 0;
	while (s.count) {
		const struct aiNode *node = s.at[--s.count].node;

		if (++n > INT32_MAX) {
			n = UINT32_MAX;
			break;
		}
		if (!push_children(&s, node, 0)) {
			n = 0;
			break;
		}
	}
	free(s.at);
	return n;
}

static bool add_node(animc_skeleton *skel, const struct aiNode *node, int32_t parent)
{
	animc_bone *bone = &skel->bones[skel->bone_count];
	skel->bone_count++;
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
	return true;
}

/* Every node under `root` a bone, depth-first pre-order. */
static bool add_nodes(animc_skeleton *skel, const struct aiNode *root)
{
	node_stack s = { 0 };
	bool ok = stack_push(&s, root, -1);

	while (ok && s.count) {
		struct node_at at = s.at[--s.count];
		int32_t self = (int32_t)skel->bone_count;

		ok = add_node(skel, at.node, at.parent) && push_children(&s, at.node, self);
	}
	free(s.at);
	return ok;
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
static const struct aiScene *open_model(const char *path, const uint8_t *data, size_t size,
					const animc_import_options *hooks, animc_diag_sink *sink)
{
	const struct aiScene *scene;
	size_t skip;
	const bool is_smd = animc_smd_is_named(path), is_read = data != NULL;
	uint8_t *own = !data && (is_named(path, ".bvh") || is_named(path, ".fbx") || is_smd) ? read_whole(path, &size)
											       : NULL;

	data = data ? data : own;
	if (data && is_named(path, ".bvh")) {
		skip = size >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
		scene = animc_bvh_check(data + skip, size - skip, sink) ?
				animc_assimp_scene_open(NULL, data + skip, size - skip, "bvh", sink) : NULL;
		free(own);
		return scene;
	}
	if (is_smd && data && !animc_smd_check(data, size, sink)) {
		free(own);
		return NULL;
	}
	/* Bytes the caller read are the model, not the file read again. */
	scene = animc_assimp_scene_read(path, is_read ? data : NULL, is_read ? size : 0, NULL, hooks, sink);
	fbx_doc fbx;
	if (scene && data && is_named(path, ".fbx") && animc_fbx_doc_read(data, size, &fbx)) {
		animc_fbx_mend_rest(&fbx, scene);
		animc_fbx_doc_release(&fbx);
	}
	free(own);
	return scene;
}

animc_status animc_assimp_skeleton_load(const char *path, animc_skeleton *out, animc_diag_sink *sink)
{
	return animc_assimp_skeleton_read(path, NULL, out, sink);
}

animc_status animc_assimp_skeleton_read(const char *path, const animc_import_options *hooks, animc_skeleton *out,
					animc_diag_sink *sink)
{
	return animc_assimp_skeleton_read_bytes(path, NULL, 0, hooks, out, sink);
}

animc_status animc_assimp_skeleton_read_bytes(const char *path, const uint8_t *data, size_t size,
					      const animc_import_options *hooks, animc_skeleton *out,
					      animc_diag_sink *sink)
{
	const struct aiScene *scene;
	uint32_t count;

	memset(out, 0, sizeof *out);
	scene = open_model(path, data, size, hooks, sink);
	if (!scene)
		return ANIMC_ERR_PARSE;
	if (!scene->mRootNode) {
		aiReleaseImport(scene);
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "the model has no node tree");
		return ANIMC_ERR_INVALID;
	}
	count = count_nodes(scene->mRootNode);
	if (count == 0 || count == UINT32_MAX) {
		aiReleaseImport(scene);
		if (!count)
			return ANIMC_ERR_NOMEM;
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "the model's node tree has more than %d nodes, "
				  "animc's limit for a skeleton", INT32_MAX);
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
	if (!out->bones || !add_nodes(out, scene->mRootNode)) {
		aiReleaseImport(scene);
		animc_skeleton_release(out);
		return ANIMC_ERR_NOMEM;
	}
	aiReleaseImport(scene);
	return ANIMC_OK;
}
