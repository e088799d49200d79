/*
 * ms3d.c - a MilkShape 3D file's joints read from its own bytes (the
 * layout Assimp 5.2's MS3DImporter reads), for the position keys that
 * reader does not turn by the joint's rest rotation; and its animation
 * fps, by which Assimp multiplies its key times (seconds in the file).
 */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "ms3d.h"

/* The file's bytes, read little-endian, each read bounds-checked. */
typedef struct ms3d_reader {
	const uint8_t *p, *end;
} ms3d_reader;

static bool skip(ms3d_reader *r, size_t n)
{
	if (n > (size_t)(r->end - r->p))
		return false;
	r->p += n;
	return true;
}

static bool read_u16(ms3d_reader *r, uint16_t *out)
{
	if (2 > r->end - r->p)
		return false;
	*out = (uint16_t)(r->p[0] | r->p[1] << 8);
	r->p += 2;
	return true;
}

static bool read_floats(ms3d_reader *r, float *out, int n)
{
	for (int i = 0; i < n; i++) {
		uint32_t bits;

		if (4 > r->end - r->p)
			return false;
		bits = (uint32_t)r->p[0] | (uint32_t)r->p[1] << 8 | (uint32_t)r->p[2] << 16 | (uint32_t)r->p[3] << 24;
		memcpy(&out[i], &bits, sizeof bits);
		r->p += 4;
	}
	return true;
}

/* Past the header, vertices, triangles, groups, materials and the
 * animation's fps, current time and frame count: at the joint count. */
static bool skip_to_joints(ms3d_reader *r)
{
	uint16_t n;

	if (!skip(r, 10 + 4) || !read_u16(r, &n) || !skip(r, (size_t)n * 15) || !read_u16(r, &n) ||
	    !skip(r, (size_t)n * 70) || !read_u16(r, &n))
		return false;
	for (uint16_t g = 0; g < n; g++) {
		uint16_t triangles;

		if (!skip(r, 1 + 32) || !read_u16(r, &triangles) || !skip(r, (size_t)triangles * 2 + 1))
			return false;
	}
	return read_u16(r, &n) && skip(r, (size_t)n * 361 + 12);
}

/* Assimp's FromEulerAnglesXYZ: Rz * Ry * Rx, row-major. */
static void euler_xyz(const float a[3], double m[9])
{
	double cx = cos(a[0]), sx = sin(a[0]), cy = cos(a[1]), sy = sin(a[1]), cz = cos(a[2]), sz = sin(a[2]);

	m[0] = cz * cy;
	m[1] = cz * sy * sx - sz * cx;
	m[2] = sz * sx + cz * sy * cx;
	m[3] = sz * cy;
	m[4] = cz * cx + sz * sy * sx;
	m[5] = sz * sy * cx - cz * sx;
	m[6] = -sy;
	m[7] = cy * sx;
	m[8] = cy * cx;
}

/* The channel Assimp made of a joint named `name` with `count` position
 * keys: the next one in order, or NULL when it is not that joint's. */
static struct aiNodeAnim *joint_channel(const struct aiAnimation *anim, unsigned *next, const char name[32],
					uint16_t count)
{
	struct aiNodeAnim *na = *next < anim->mNumChannels ? anim->mChannels[(*next)++] : NULL;
	size_t len = strnlen(name, 32);

	if (!na || na->mNodeName.length != len || memcmp(na->mNodeName.data, name, len) != 0 ||
	    na->mNumPositionKeys != count || (count && !na->mPositionKeys))
		return NULL;
	return na;
}

/* One joint's position keys as rest + R_rest * key, from the file, when
 * `is_applied`; otherwise only whether its channel is Assimp's. */
static bool turn_joint(ms3d_reader *r, const struct aiAnimation *anim, unsigned *next, bool is_applied)
{
	char name[32];
	float rotation[3], position[3], key[4];
	uint16_t rot_count, pos_count;
	struct aiNodeAnim *na = NULL;
	double m[9];

	if (!skip(r, 1) || 32 > r->end - r->p)
		return false;
	memcpy(name, r->p, 32);
	if (!skip(r, 64) || !read_floats(r, rotation, 3) || !read_floats(r, position, 3) ||
	    !read_u16(r, &rot_count) || !read_u16(r, &pos_count) || rot_count >= 0x8000 || pos_count >= 0x8000 ||
	    !skip(r, (size_t)rot_count * 16))
		return false;
	if (rot_count + pos_count && !(na = joint_channel(anim, next, name, pos_count)))
		return false;
	euler_xyz(rotation, m);
	for (uint16_t k = 0; k < pos_count; k++) {
		if (!read_floats(r, key, 4))
			return false;
		if (!is_applied || (rotation[0] == 0 && rotation[1] == 0 && rotation[2] == 0))
			continue;   /* Assimp's rest + key is right */
		na->mPositionKeys[k].mValue.x = (float)(position[0] + m[0] * key[1] + m[1] * key[2] + m[2] * key[3]);
		na->mPositionKeys[k].mValue.y = (float)(position[1] + m[3] * key[1] + m[4] * key[2] + m[5] * key[3]);
		na->mPositionKeys[k].mValue.z = (float)(position[2] + m[6] * key[1] + m[7] * key[2] + m[8] * key[3]);
	}
	return true;
}

void animc_ms3d_turn_position_keys(const uint8_t *data, size_t size, const struct aiScene *scene)
{
	const struct aiAnimation *anim = scene->mNumAnimations && scene->mAnimations ? scene->mAnimations[0] : NULL;
	ms3d_reader start = { data, data + size }, r;
	uint16_t joints;
	unsigned next = 0;

	if (!data || !anim || !anim->mChannels || !skip_to_joints(&start) || !read_u16(&start, &joints))
		return;
	/* Every joint's channel checked before any key changes. */
	r = start;
	for (uint16_t j = 0; j < joints; j++)
		if (!turn_joint(&r, anim, &next, false))
			return;
	if (next != anim->mNumChannels)
		return;
	r = start;
	next = 0;
	for (uint16_t j = 0; j < joints; j++)
		turn_joint(&r, anim, &next, true);
}

/* Whether a channel holds keys at more than one time in the file. */
static bool moves(const struct aiNodeAnim *na)
{
	return na && ((na->mPositionKeys && na->mNumPositionKeys > 1) ||
		      (na->mRotationKeys && na->mNumRotationKeys > 1));
}

bool animc_ms3d_check_fps(const struct aiScene *scene, animc_diag_sink *sink)
{
	for (unsigned a = 0; scene->mAnimations && a < scene->mNumAnimations; a++) {
		const struct aiAnimation *anim = scene->mAnimations[a];
		double fps = anim ? anim->mTicksPerSecond : 1;
		bool is_moving = false;

		if (isfinite(fps) && fps > 0)
			continue;
		for (unsigned c = 0; anim->mChannels && c < anim->mNumChannels && !is_moving; c++)
			is_moving = moves(anim->mChannels[c]);
		if (!is_moving)
			continue;
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "the file's animation fps is %g: MilkShape 3D keys "
				  "are in seconds, which Assimp multiplies by the fps, so every key lands at %s and "
				  "no --ticks-per-second brings the motion back; set the fps in MilkShape 3D (the "
				  "animation's fps box) and save the file again", fps,
				  fps == 0 ? "0" : isnan(fps) ? "NaN" : "a time before 0");
		return false;
	}
	return true;
}

void animc_ms3d_unname_clip(const struct aiScene *scene)
{
	static const char placeholder[] = "<MS3DMasterAnim>";
	struct aiAnimation *anim = scene->mNumAnimations && scene->mAnimations ? scene->mAnimations[0] : NULL;

	if (anim && anim->mName.length == sizeof placeholder - 1 && strcmp(anim->mName.data, placeholder) == 0) {
		anim->mName.length = 0;
		anim->mName.data[0] = '\0';
	}
}
