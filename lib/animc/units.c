/*
 * units.c - units and axes (animc build --scale, --rotate; a MonoGame
 * project's Scale and RotationX/Y/Z): what MonoGame's ModelProcessor does to
 * a model, done to its clips and to a --skeleton model.  The rotation turns
 * about Z, then X, then Y (row vectors: Rz * Rx * Ry), then the scale; the
 * scale multiplies every translation, and the rotation follows each root
 * bone's transform (M' = M * R).
 */
#include <math.h>
#include <string.h>

#include <animc/animc.h>
#include <animc/animc_xform.h>

static double units_scale(const animc_units *u)
{
	return u->scale == 0 ? 1 : u->scale;
}

bool animc_units_is_identity(const animc_units *units)
{
	return !units || (units_scale(units) == 1 && units->rotation_deg[0] == 0 &&
			  units->rotation_deg[1] == 0 && units->rotation_deg[2] == 0);
}

bool animc_units_has_rotation(const animc_units *units)
{
	return units && (fmod(units->rotation_deg[0], 360) != 0 || fmod(units->rotation_deg[1], 360) != 0 ||
			 fmod(units->rotation_deg[2], 360) != 0);
}

/* Hamilton product a * b: the rotation b, then a (column-vector order). */
static void quat_mul(const double a[4], const double b[4], double out[4])
{
	double x = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
	double y = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
	double z = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
	double w = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];

	out[0] = x, out[1] = y, out[2] = z, out[3] = w;
}

void animc_units_rotation(const animc_units *units, double out[4])
{
	static const double deg = 3.14159265358979323846 / 180;
	double hx = units->rotation_deg[0] * deg / 2, hy = units->rotation_deg[1] * deg / 2;
	double hz = units->rotation_deg[2] * deg / 2;
	double qx[4] = { sin(hx), 0, 0, cos(hx) }, qy[4] = { 0, sin(hy), 0, cos(hy) };
	double qz[4] = { 0, 0, sin(hz), cos(hz) }, xz[4];

	quat_mul(qx, qz, xz);
	quat_mul(qy, xz, out);
}

/* v rotated by the unit quaternion q (v * R in XNA's row-vector terms). */
static void quat_rotate(const double q[4], const double v[3], double out[3])
{
	double p[4] = { v[0], v[1], v[2], 0 }, c[4] = { -q[0], -q[1], -q[2], q[3] }, t[4], r[4];

	quat_mul(q, p, t);
	quat_mul(t, c, r);
	out[0] = r[0], out[1] = r[1], out[2] = r[2];
}

/* One translation (t * s) * R, or t * s when not a root. */
static void move_translation(float *t, double scale, const double *rotation)
{
	double v[3] = { t[0] * scale, t[1] * scale, t[2] * scale }, r[3];

	if (rotation) {
		quat_rotate(rotation, v, r);
		memcpy(v, r, sizeof v);
	}
	for (int i = 0; i < 3; i++)
		t[i] = (float)v[i];
}

/* One rotation key q followed by R: R * q (Hamilton), which keeps the
 * hemisphere of neighbouring keys, so interpolation takes the same path. */
static void turn_rotation(float *q, const double *rotation)
{
	double a[4] = { q[0], q[1], q[2], q[3] }, r[4], n;

	quat_mul(rotation, a, r);
	n = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]);
	for (int i = 0; i < 4; i++)
		q[i] = (float)(r[i] / n);
}

animc_status animc_clip_apply_units(animc_clip *clip, const animc_units *units,
				    const animc_skeleton *hierarchy)
{
	double scale, rotation[4];
	bool has_rotation;

	if (animc_units_is_identity(units))
		return ANIMC_OK;
	scale = units_scale(units);
	if (!(scale > 0) || !isfinite(scale))
		return ANIMC_ERR_ARGUMENT;
	has_rotation = animc_units_has_rotation(units);
	animc_units_rotation(units, rotation);
	for (uint32_t c = 0; c < clip->channel_count; c++) {
		animc_channel *ch = &clip->channels[c];
		animc_track *t = &ch->tracks[ANIMC_TRANSLATION], *r = &ch->tracks[ANIMC_ROTATION];
		int64_t bone = hierarchy ? animc_skeleton_find(hierarchy, ch->bone) : -1;
		bool is_root = has_rotation && (bone < 0 || hierarchy->bones[bone].parent < 0);

		if (t->is_present)
			for (uint32_t k = 0; k < t->value_count; k++)
				move_translation(t->values + 3 * (size_t)k, scale, is_root ? rotation : NULL);
		if (!is_root)
			continue;
		if (!r->is_present) {
			/* Absent means identity: the root now holds R itself. */
			r->values = animc_clip_alloc_values(clip, ANIMC_ROTATION, 1);
			if (!r->values)
				return ANIMC_ERR_NOMEM;
			r->values[0] = r->values[1] = r->values[2] = 0;
			r->values[3] = 1;
			r->is_present = true;
			r->is_fixed = true;
			r->value_count = 1;
			r->times_s = NULL;
		}
		for (uint32_t k = 0; k < r->value_count; k++)
			turn_rotation(r->values + 4 * (size_t)k, rotation);
	}
	return ANIMC_OK;
}

animc_status animc_skeleton_apply_units(animc_skeleton *skeleton, const animc_units *units)
{
	double scale, rotation[4], r[16];
	bool has_rotation;

	if (animc_units_is_identity(units))
		return ANIMC_OK;
	scale = units_scale(units);
	if (!(scale > 0) || !isfinite(scale))
		return ANIMC_ERR_ARGUMENT;
	has_rotation = animc_units_has_rotation(units);
	animc_units_rotation(units, rotation);
	animc_mat4_from_quat(rotation, r);
	for (uint32_t i = 0; i < skeleton->bone_count; i++) {
		animc_bone *b = &skeleton->bones[i];
		bool is_root = has_rotation && b->parent < 0;
		double m[16];

		move_translation(b->translation, scale, is_root ? rotation : NULL);
		for (int k = 0; k < 16; k++)
			m[k] = b->local[k];
		m[12] *= scale, m[13] *= scale, m[14] *= scale;
		if (is_root) {
			turn_rotation(b->rotation, rotation);
			animc_mat4_multiply(m, r, m);
		}
		for (int k = 0; k < 16; k++)
			b->local[k] = (float)m[k];
	}
	return ANIMC_OK;
}
