/*
 * ogre.c - an Ogre skeleton's keys put back where Ogre plays them: its
 * position keys from Assimp's scene, its rotation and scale keys from the
 * XML skeleton itself (see ogre.h).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "beside.h"
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

/* ----------------------------------------------- rotation and scale keys */

/* A skeleton file larger than this is not read (Ogre's are far smaller). */
#define OGRE_SKELETON_BYTES ((size_t)256 << 20)

/* A bone's or keyframe's turn (x y z w) and scale, as the skeleton gives
 * them. */
typedef struct ogre_turn {
	double q[4];
	double scale[3];
} ogre_turn;

static bool is_element(const xmlNode *n, const char *name)
{
	return n && n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

/* The value of attribute `name` of `n`, or NULL. */
static const char *attribute(const xmlNode *n, const char *name)
{
	for (const xmlAttr *a = n ? n->properties : NULL; a; a = a->next)
		if (strcmp((const char *)a->name, name) == 0)
			return a->children && a->children->content ? (const char *)a->children->content : "";
	return NULL;
}

/* The first child element of `n` named `name`, or NULL. */
static const xmlNode *child(const xmlNode *n, const char *name)
{
	for (const xmlNode *c = n ? n->children : NULL; c; c = c->next)
		if (is_element(c, name))
			return c;
	return NULL;
}

/* Attribute `name` of `n` as a number; `fallback` when it is none. */
static double number(const xmlNode *n, const char *name, double fallback)
{
	const char *text = attribute(n, name);
	char *end;
	double v;

	if (!text)
		return fallback;
	v = strtod(text, &end);
	return end != text && isfinite(v) ? v : fallback;
}

/* A <rotation> or <rotate> of an angle about an <axis> (made unit
 * length, X for none, as Assimp reads it); the identity without one. */
static void read_turn(const xmlNode *n, double q[4])
{
	const xmlNode *axis = child(n, "axis");
	double v[3] = { number(axis, "x", 0), number(axis, "y", 0), number(axis, "z", 0) };
	double angle = number(n, "angle", 0), len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]), s;

	if (!n)
		angle = 0;
	if (!(len > 0))
		v[0] = 1, v[1] = v[2] = 0, len = 1;
	s = sin(angle / 2) / len;
	q[0] = v[0] * s, q[1] = v[1] * s, q[2] = v[2] * s, q[3] = cos(angle / 2);
}

/* `n`'s <rotation> or <rotate> (`turn`) and <scale> (x y z, or one
 * factor; 1 for none). */
static void read_pose(const xmlNode *n, const char *turn, ogre_turn *out)
{
	const xmlNode *scale = child(n, "scale");
	double factor = number(scale, "factor", 1);

	read_turn(child(n, turn), out->q);
	out->scale[0] = number(scale, "x", factor);
	out->scale[1] = number(scale, "y", factor);
	out->scale[2] = number(scale, "z", factor);
}

/* The Ogre pose of a keyframe on its bone: bind x rotate, bind scale x
 * scale. */
static void compose(const ogre_turn *bind, const ogre_turn *key, ogre_turn *out)
{
	const double *a = bind->q, *b = key->q;
	double len;

	out->q[0] = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
	out->q[1] = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
	out->q[2] = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
	out->q[3] = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
	len = sqrt(out->q[0] * out->q[0] + out->q[1] * out->q[1] + out->q[2] * out->q[2] + out->q[3] * out->q[3]);
	for (int i = 0; i < 4 && len > 0; i++)
		out->q[i] /= len;
	for (int i = 0; i < 3; i++)
		out->scale[i] = bind->scale[i] * key->scale[i];
}

/* Whether Assimp's key k of `na` is other than `pose` by more than its
 * floats' rounding. */
static bool key_differs(const struct aiNodeAnim *na, unsigned k, const ogre_turn *pose)
{
	const struct aiQuaternion *r = &na->mRotationKeys[k].mValue;
	const struct aiVector3D *s = &na->mScalingKeys[k].mValue;
	double len = sqrt((double)r->x * r->x + (double)r->y * r->y + (double)r->z * r->z + (double)r->w * r->w);
	double dot = len > 0 ? (r->x * pose->q[0] + r->y * pose->q[1] + r->z * pose->q[2] + r->w * pose->q[3]) / len : 0;
	const double got[3] = { s->x, s->y, s->z };

	if (1 - fabs(dot) > 1e-9)
		return true;
	for (int i = 0; i < 3; i++)
		if (fabs(got[i] - pose->scale[i]) > 1e-5 * fmax(1, fabs(pose->scale[i])))
			return true;
	return false;
}

/* Whether the <keyframe>s of `keyframes` are the channel's rotation and
 * scale keys one for one: as many, each at its key's time. */
static bool keyframes_match(const xmlNode *keyframes, const struct aiNodeAnim *na)
{
	unsigned k = 0;

	if (!na->mRotationKeys || !na->mScalingKeys || na->mNumRotationKeys != na->mNumScalingKeys)
		return false;
	for (const xmlNode *kf = keyframes ? keyframes->children : NULL; kf; kf = kf->next) {
		if (!is_element(kf, "keyframe"))
			continue;
		double t = number(kf, "time", NAN);

		if (k >= na->mNumRotationKeys)
			return false;
		if (!(fabs(t - na->mRotationKeys[k].mTime) <= 1e-5 * fmax(1, fabs(t))) ||
		    !(fabs(t - na->mScalingKeys[k].mTime) <= 1e-5 * fmax(1, fabs(t))))
			return false;
		k++;
	}
	return k == na->mNumRotationKeys;
}

/* The keyframes of one <track> onto its channel `na`, the bone bound at
 * `bind`: every rotation and scale key Ogre's pose, when one of Assimp's
 * is not. */
static void mend_track(const xmlNode *keyframes, const ogre_turn *bind, struct aiNodeAnim *na)
{
	ogre_turn key, pose;
	bool differs = false;
	unsigned k = 0;

	if (!keyframes_match(keyframes, na))
		return;
	for (const xmlNode *kf = keyframes->children; kf && !differs; kf = kf->next)
		if (is_element(kf, "keyframe")) {
			read_pose(kf, "rotate", &key);
			compose(bind, &key, &pose);
			differs = key_differs(na, k++, &pose);
		}
	k = 0;
	for (const xmlNode *kf = keyframes->children; kf && differs; kf = kf->next)
		if (is_element(kf, "keyframe")) {
			read_pose(kf, "rotate", &key);
			compose(bind, &key, &pose);
			na->mRotationKeys[k].mValue = (struct aiQuaternion){ (float)pose.q[3], (float)pose.q[0],
									  (float)pose.q[1], (float)pose.q[2] };
			na->mScalingKeys[k++].mValue = (struct aiVector3D){ (float)pose.scale[0], (float)pose.scale[1],
									 (float)pose.scale[2] };
		}
}

/* The channel of `anim` named `bone`, or NULL. */
static struct aiNodeAnim *find_channel(const struct aiAnimation *anim, const char *bone)
{
	for (unsigned c = 0; anim->mChannels && c < anim->mNumChannels; c++) {
		struct aiNodeAnim *na = anim->mChannels[c];

		if (na && strlen(bone) == na->mNodeName.length && memcmp(na->mNodeName.data, bone, na->mNodeName.length) == 0)
			return na;
	}
	return NULL;
}

/* The <bone> of `bones` named `name`, or NULL. */
static const xmlNode *find_bone(const xmlNode *bones, const char *name)
{
	for (const xmlNode *b = bones ? bones->children : NULL; b; b = b->next)
		if (is_element(b, "bone") && attribute(b, "name") && strcmp(attribute(b, "name"), name) == 0)
			return b;
	return NULL;
}

/* One <animation>'s tracks onto Assimp's animation `anim`. */
static void mend_animation(const xmlNode *animation, const xmlNode *bones, const struct aiAnimation *anim)
{
	for (const xmlNode *t = child(child(animation, "tracks"), "track"); t; t = t->next) {
		const char *name = is_element(t, "track") ? attribute(t, "bone") : NULL;
		const xmlNode *bone = name ? find_bone(bones, name) : NULL;
		struct aiNodeAnim *na = bone ? find_channel(anim, name) : NULL;
		ogre_turn bind;

		if (!na)
			continue;
		read_pose(bone, "rotation", &bind);
		mend_track(child(t, "keyframes"), &bind, na);
	}
}

/* Assimp's animation named `name`, or NULL. */
static const struct aiAnimation *find_animation(const struct aiScene *scene, const char *name)
{
	for (unsigned a = 0; scene->mAnimations && a < scene->mNumAnimations; a++) {
		const struct aiAnimation *anim = scene->mAnimations[a];

		if (anim && strlen(name) == anim->mName.length && memcmp(anim->mName.data, name, anim->mName.length) == 0)
			return anim;
	}
	return NULL;
}

/* The name a mesh's <skeletonlink> gives (a new string), or NULL. */
static char *skeleton_link(const uint8_t *data, size_t size)
{
	static const char tag[] = "<skeletonlink";
	const char *p = memmem(data, size, tag, sizeof tag - 1), *end = (const char *)data + size, *close, *name;

	if (!p || !(close = memchr(p, '>', (size_t)(end - p))))
		return NULL;
	for (name = p; (name = memmem(name, (size_t)(close - name), "name", 4)); name += 4) {
		const char *q = name + 4;

		while (q < close && (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r'))
			q++;
		if (q >= close || *q != '=' || (name > p && name[-1] != ' ' && name[-1] != '\t' && name[-1] != '\n'))
			continue;
		for (q++; q < close && (*q == ' ' || *q == '\t'); q++)
			;
		if (q >= close || (*q != '"' && *q != '\''))
			return NULL;
		const char *stop = memchr(q + 1, *q, (size_t)(close - q - 1));

		return stop ? strndup(q + 1, (size_t)(stop - q - 1)) : NULL;
	}
	return NULL;
}

/* `name` in the mesh's folder (a new string). */
static char *in_folder(const char *folder, const char *name)
{
	char *path = malloc(strlen(folder) + strlen(name) + 2);

	if (path)
		sprintf(path, "%s/%s", folder, name);
	return path;
}

/* The file `name` of `folder`, when it lies there or below (beside.h);
 * NULL for none.  *size its bytes. */
static uint8_t *read_beside(const char *folder, const char *name, size_t *size)
{
	char *path = name[0] == '/' ? strdup(name) : in_folder(folder, name), *real = NULL;
	int fd = -1;
	struct stat st;
	uint8_t *bytes = NULL;

	if (path && animc_beside_open(folder, path, 0, &real, &fd) == ANIMC_BESIDE_INSIDE && fd >= 0 &&
	    fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size <= OGRE_SKELETON_BYTES &&
	    (bytes = malloc((size_t)st.st_size + 1))) {
		ssize_t n = read(fd, bytes, (size_t)st.st_size);

		*size = n > 0 ? (size_t)n : 0;
	}
	if (fd >= 0)
		close(fd);
	free(real), free(path);
	return bytes;
}

/* Whether `name` ends with `suffix`, in any case. */
static bool ends_with(const char *name, const char *suffix)
{
	size_t n = strlen(name), m = strlen(suffix);

	return n >= m && strcasecmp(name + n - m, suffix) == 0;
}

/* The XML skeleton Assimp read for the mesh in `folder` linking `name`:
 * a `.skeleton` name is its binary file when that is there to read (then
 * NULL), else that name with `.xml` added. */
static uint8_t *read_skeleton(const char *folder, const char *name, size_t *size)
{
	char *xml_name, *real = NULL, *path;
	uint8_t *bytes = NULL;

	if (ends_with(name, ".skeleton")) {
		path = name[0] == '/' ? strdup(name) : in_folder(folder, name);
		animc_beside where = path ? animc_beside_check(folder, path, &real) : ANIMC_BESIDE_MISSING;

		free(real), free(path);
		if (where == ANIMC_BESIDE_INSIDE)
			return NULL;
		if ((xml_name = malloc(strlen(name) + 5)))
			sprintf(xml_name, "%s.xml", name);
		bytes = xml_name ? read_beside(folder, xml_name, size) : NULL;
		free(xml_name);
		return bytes;
	}
	return ends_with(name, ".skeleton.xml") ? read_beside(folder, name, size) : NULL;
}

/* The skeleton document's <animation>s onto Assimp's animations. */
static void mend_document(const xmlDoc *doc, const struct aiScene *scene)
{
	const xmlNode *root = xmlDocGetRootElement(doc), *bones = child(root, "bones");

	if (!is_element(root, "skeleton"))
		return;
	for (const xmlNode *a = child(child(root, "animations"), "animation"); a; a = a->next) {
		const char *name = is_element(a, "animation") ? attribute(a, "name") : NULL;
		const struct aiAnimation *anim = name ? find_animation(scene, name) : NULL;

		if (anim)
			mend_animation(a, bones, anim);
	}
}

void animc_ogre_mend_turns(const char *path, const uint8_t *data, size_t size, const struct aiScene *scene)
{
	char *name = path && data && scene && scene->mNumAnimations ? skeleton_link(data, size) : NULL;
	char *folder = name ? animc_beside_folder(path) : NULL;
	size_t bytes_size = 0;
	uint8_t *bytes = folder ? read_skeleton(folder, name, &bytes_size) : NULL;
	xmlDoc *doc = bytes && bytes_size <= INT32_MAX ?
		xmlReadMemory((const char *)bytes, (int)bytes_size, NULL, NULL,
			      XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING) : NULL;

	if (doc)
		mend_document(doc, scene);
	xmlFreeDoc(doc);
	free(bytes), free(folder), free(name);
}
