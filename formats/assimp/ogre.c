/*
 * ogre.c - an Ogre skeleton's position keys put back where Ogre plays
 * them (see ogre.h).
 */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "ogre.h"

/* Nodes deeper than this are not looked at (a skeleton is far shallower). */
#define OGRE_NODE_DEPTH 1024

/* The first node named `name` at or below `node`, depth first; NULL for none. */
static const struct aiNode *find_node(const struct aiNode *node, const struct aiString *name, unsigned depth)
{
	if (!node || depth > OGRE_NODE_DEPTH)
		return NULL;
	if (node->mName.length == name->length && memcmp(node->mName.data, name->data, name->length) == 0)
		return node;
	for (unsigned i = 0; node->mChildren && i < node->mNumChildren; i++) {
		const struct aiNode *found = find_node(node->mChildren[i], name, depth + 1);

		if (found)
			return found;
	}
	return NULL;
}

/* The inverse of the binding pose's 3x3 part (rotation times scale); false
 * when it has none. */
static bool invert_turn(const struct aiMatrix4x4 *m, double inv[3][3])
{
	const double a[3][3] = { { m->a1, m->a2, m->a3 }, { m->b1, m->b2, m->b3 }, { m->c1, m->c2, m->c3 } };
	double det = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
		     a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
		     a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);

	if (!isfinite(det) || fabs(det) < 1e-12)
		return false;
	for (int r = 0; r < 3; r++)
		for (int c = 0; c < 3; c++) {
			/* The cofactor of a[c][r], over the determinant. */
			int r0 = (c + 1) % 3, r1 = (c + 2) % 3, c0 = (r + 1) % 3, c1 = (r + 2) % 3;

			inv[r][c] = (a[r0][c0] * a[r1][c1] - a[r0][c1] * a[r1][c0]) / det;
		}
	return true;
}

/* One channel's position keys, bind + R S key, made bind + key. */
static void unturn_channel(const struct aiScene *scene, struct aiNodeAnim *na)
{
	const struct aiNode *node = find_node(scene->mRootNode, &na->mNodeName, 0);
	double inv[3][3], bind[3];

	if (!node || !na->mPositionKeys || !invert_turn(&node->mTransformation, inv))
		return;
	bind[0] = node->mTransformation.a4, bind[1] = node->mTransformation.b4, bind[2] = node->mTransformation.c4;
	for (unsigned k = 0; k < na->mNumPositionKeys; k++) {
		struct aiVector3D *v = &na->mPositionKeys[k].mValue;
		double d[3] = { v->x - bind[0], v->y - bind[1], v->z - bind[2] };

		v->x = (float)(bind[0] + inv[0][0] * d[0] + inv[0][1] * d[1] + inv[0][2] * d[2]);
		v->y = (float)(bind[1] + inv[1][0] * d[0] + inv[1][1] * d[1] + inv[1][2] * d[2]);
		v->z = (float)(bind[2] + inv[2][0] * d[0] + inv[2][1] * d[1] + inv[2][2] * d[2]);
	}
}

void animc_ogre_unturn_position_keys(const struct aiScene *scene)
{
	for (unsigned a = 0; scene && scene->mAnimations && a < scene->mNumAnimations; a++) {
		const struct aiAnimation *anim = scene->mAnimations[a];

		for (unsigned c = 0; anim && anim->mChannels && c < anim->mNumChannels; c++)
			if (anim->mChannels[c])
				unturn_channel(scene, anim->mChannels[c]);
	}
}
