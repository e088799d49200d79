/*
 * units.c - units and axes (animc build --scale, --rotate; a MonoGame
 * project's Scale and RotationX/Y/Z): what MonoGame's ModelProcessor does to
 * a model (MeshHelper.TransformScene), done to its clips and to a --skeleton
 * model.  T = Rz * Rx * Ry * scale (row vectors), and every bone's
 * transform and every key K becomes inverse(T) * K * T: the bone's parent
 * frame and its own turn with the model, so that a clip fits a model
 * processed with the same parameters.
 */
#include <math.h>
#include <string.h>

#include <animc/animc.h>
#include <animc/animc_xform.h>

static double units_scale(const animc_units *u)
{
	return u->scale == 0 ? 1 : u->scale;
}

/* A scale finite and positive, angles finite: a NaN angle turned every
 * key NaN, with ANIMC_OK. */
static bool units_are_numbers(const animc_units *u)
{
	double scale = units_scale(u);

	return scale > 0 && isfinite(scale) && isfinite(u->rotation_deg[0]) && isfinite(u->rotation_deg[1]) &&
	       isfinite(u->rotation_deg[2]);
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

/* The sine and cosine of an angle in degrees, exact at quarter turns (sin
 * of pi is not 0 in floating point), so that a quarter turn permutes the
 * components of every vector it turns, as the same source turned by hand. */
static void sin_cos_deg(double deg, double *s, double *c)
{
	static const double rad = 3.14159265358979323846 / 180;
	static const double quarter[4][2] = { { 0, 1 }, { 1, 0 }, { 0, -1 }, { -1, 0 } };
	double turn = fmod(deg, 360);

	if (turn < 0)
		turn += 360;
	if (fmod(turn, 90) == 0) {
		*s = quarter[(int)(turn / 90) % 4][0];
		*c = quarter[(int)(turn / 90) % 4][1];
		return;
	}
	*s = sin(turn * rad);
	*c = cos(turn * rad);
}

/* The rotation's row-vector matrix (XNA's terms): Rz * Rx * Ry, upper 3x3
 * of `out` (4x4, the rest identity). */
static void units_matrix(const animc_units *units, double out[16])
{
	double sx, cx, sy, cy, sz, cz;
	double rz[16] = { 0 }, rx[16] = { 0 }, ry[16] = { 0 };

	sin_cos_deg(units->rotation_deg[0], &sx, &cx);
	sin_cos_deg(units->rotation_deg[1], &sy, &cy);
	sin_cos_deg(units->rotation_deg[2], &sz, &cz);
	rz[0] = cz, rz[1] = sz, rz[4] = -sz, rz[5] = cz, rz[10] = rz[15] = 1;
	rx[5] = cx, rx[6] = sx, rx[9] = -sx, rx[10] = cx, rx[0] = rx[15] = 1;
	ry[0] = cy, ry[2] = -sy, ry[8] = sy, ry[10] = cy, ry[5] = ry[15] = 1;
	animc_mat4_multiply(rz, rx, out);
	animc_mat4_multiply(out, ry, out);
}

/* v turned by the rotation: v * R (row vectors), R from units_matrix. */
static void turn_vector(const double m[16], const double v[3], double out[3])
{
	for (int k = 0; k < 3; k++)
		out[k] = v[0] * m[k] + v[1] * m[4 + k] + v[2] * m[8 + k];
}

/* One translation under inverse(T) * K * T: (t * R) * s. */
static void move_translation(float *t, double scale, const double m[16])
{
	double v[3] = { t[0], t[1], t[2] }, r[3];

	turn_vector(m, v, r);
	for (int i = 0; i < 3; i++)
		t[i] = (float)(r[i] * scale);
}

/* One rotation key q under inverse(R) * Q * R (row vectors): R * q *
 * conjugate(R) (Hamilton), which is q with its axis turned (x, y, z by the
 * matrix m, w kept), times f (a mirror's turn, else identity).  A
 * conjugation keeps the angle between any two keys, so neighbouring keys
 * keep their hemisphere and interpolation its path. */
static void turn_rotation(float *q, const double m[16], const double f[4])
{
	double v[3] = { q[0], q[1], q[2] }, a[4], t[4], n;

	turn_vector(m, v, a);
	a[3] = q[3];
	quat_mul(a, f, t);
	n = sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2] + t[3] * t[3]);
	for (int i = 0; i < 4; i++)
		q[i] = (float)(t[i] / n);
}

/* How far off its diagonal inverse(R) * S * R may be, against the largest
 * scale, and still count as a scale (rounding of the rotation's sines); and
 * how far apart the sizes of a mirror's scale may be. */
#define UNITS_SHEAR_TOLERANCE 1e-6

/* One scale key S under inverse(R) * S * R, with R the rotation's row-vector
 * matrix `m`, into `out` (not `s`): its diagonal, which is all of it when S is
 * uniform or R maps each axis onto an axis (the components permuted).  The
 * largest part off the diagonal, against the largest scale, is returned. */
static double turned_scale(const float *s, const double m[16], float out[3])
{
	double big = fmax(fabs(s[0]), fmax(fabs(s[1]), fabs(s[2]))), off = 0;

	for (int i = 0; i < 3; i++)
		for (int k = 0; k < 3; k++) {
			double v = 0;

			for (int j = 0; j < 3; j++)
				v += m[j * 4 + i] * s[j] * m[j * 4 + k];
			if (i == k)
				out[i] = (float)v;
			else
				off = fmax(off, fabs(v));
		}
	return big > 0 ? off / big : 0;
}

/*
 * The turn a mirror takes when the rotation is no quarter turn: a scale of
 * one size with signs D (one or two axes negative) is that size times D,
 * and inverse(R) * D * Q * R = D * (E * inverse(R) * E * R) * inverse(R) *
 * Q * R with E = +-D the rotation among them (a half turn about the axis
 * whose sign differs).  So the scale keeps its signs and each rotation key
 * becomes R * q * conjugate(R) * f, f = R * e * conjugate(R) * e
 * (Hamilton).  False when the keys are not of one size and one sign
 * pattern each (a non-uniform scale, which no turn of keys can hold).
 */
static bool mirror_turn(const animc_track *sc, const double *rotation, double f[4])
{
	const float *first = sc->values;
	double e[4] = { 0 }, c[4] = { -rotation[0], -rotation[1], -rotation[2], rotation[3] }, t[4], u[4];
	int negative = 0, axis = 0;

	for (uint32_t k = 0; k < sc->value_count; k++) {
		const float *v = sc->values + 3 * (size_t)k;
		double size = fabs(v[0]);

		for (int i = 0; i < 3; i++)
			if ((v[i] < 0) != (first[i] < 0) || fabs(fabs(v[i]) - size) > UNITS_SHEAR_TOLERANCE * size)
				return false;
	}
	for (int i = 0; i < 3; i++)
		negative += first[i] < 0;
	/* The axis whose sign is alone: the positive one of two negatives,
	 * the negative one of a single mirror. */
	for (int i = 0; i < 3; i++)
		if ((first[i] < 0) == (negative == 1))
			axis = i;
	e[axis] = 1;
	quat_mul(rotation, e, t);
	quat_mul(t, c, u);
	quat_mul(u, e, f);
	return true;
}

/* One channel's rotation and scale tracks under the rotation: a scale
 * turned onto the axes, a mirror kept with its turn moved into the
 * rotation, else the scale along the axes kept and said (sheared-scale). */
static animc_status turn_channel(animc_clip *clip, animc_channel *ch, const double *rotation,
				 const double m[16], animc_diag_sink *sink)
{
	animc_track *r = &ch->tracks[ANIMC_ROTATION], *sc = &ch->tracks[ANIMC_SCALE];
	double sheared = 0, f[4] = { 0, 0, 0, 1 };
	bool is_mirror = false;

	for (uint32_t k = 0; sc->is_present && k < sc->value_count; k++) {
		float out[3];

		sheared = fmax(sheared, turned_scale(sc->values + 3 * (size_t)k, m, out));
	}
	if (sheared > UNITS_SHEAR_TOLERANCE)
		is_mirror = mirror_turn(sc, rotation, f);
	if (is_mirror && !r->is_present) {
		/* Absent means identity, which now takes the mirror's turn. */
		r->values = animc_clip_alloc_values(clip, ANIMC_ROTATION, 1);
		if (!r->values)
			return ANIMC_ERR_NOMEM;
		memcpy(r->values, (const float[]){ 0, 0, 0, 1 }, 4 * sizeof(float));
		r->is_present = r->is_fixed = true;
		r->value_count = 1;
		r->times_s = NULL;
	}
	for (uint32_t k = 0; r->is_present && k < r->value_count; k++)
		turn_rotation(r->values + 4 * (size_t)k, m, f);
	if (is_mirror)
		return ANIMC_OK;
	for (uint32_t k = 0; sc->is_present && k < sc->value_count; k++) {
		float out[3];

		turned_scale(sc->values + 3 * (size_t)k, m, out);
		memcpy(sc->values + 3 * (size_t)k, out, sizeof out);
	}
	if (sheared > UNITS_SHEAR_TOLERANCE)
		animc_clip_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_SHEARED_SCALE, clip, ch,
				       "the rotation turns this bone's non-uniform scale off its axes: no scale "
				       "key holds it (its part across the axes reaches %.3g of its largest "
				       "scale); kept the scale along the axes: turn by quarter turns, or scale "
				       "the bone evenly", sheared);
	return ANIMC_OK;
}

animc_status animc_clip_apply_units(animc_clip *clip, const animc_units *units, animc_diag_sink *sink)
{
	double scale, rotation[4], m[16];

	if (animc_units_is_identity(units))
		return ANIMC_OK;
	if (!units_are_numbers(units))
		return ANIMC_ERR_ARGUMENT;
	scale = units_scale(units);
	animc_units_rotation(units, rotation);
	units_matrix(units, m);
	for (uint32_t c = 0; c < clip->channel_count; c++) {
		animc_channel *ch = &clip->channels[c];
		animc_track *t = &ch->tracks[ANIMC_TRANSLATION];

		/* Absent tracks (identity, unit scale) stay so. */
		if (t->is_present)
			for (uint32_t k = 0; k < t->value_count; k++)
				move_translation(t->values + 3 * (size_t)k, scale, m);
		if (animc_units_has_rotation(units) && turn_channel(clip, ch, rotation, m, sink) != ANIMC_OK)
			return ANIMC_ERR_NOMEM;
	}
	return ANIMC_OK;
}

/* A bone's rest rotation and scale as turn_channel turns a channel's keys
 * (the scale along the axes kept when it cannot be held; the bone's local
 * matrix is exact). */
/* The bone's rest decomposition turned as one key of a channel: how far its
 * scale was sheared off the axes (0 when exact). */
static double turn_bone(animc_bone *b, const double *rotation, const double m[16])
{
	animc_track sc = { .is_present = true, .is_fixed = true, .value_count = 1, .values = b->scale };
	double f[4] = { 0, 0, 0, 1 };
	float out[3];
	double sheared = turned_scale(b->scale, m, out);
	bool is_mirror = sheared > UNITS_SHEAR_TOLERANCE && mirror_turn(&sc, rotation, f);

	turn_rotation(b->rotation, m, f);
	if (!is_mirror)
		memcpy(b->scale, out, sizeof out);
	return is_mirror || sheared <= UNITS_SHEAR_TOLERANCE ? 0 : sheared;
}

animc_status animc_skeleton_apply_units(animc_skeleton *skeleton, const animc_units *units, animc_diag_sink *sink)
{
	double scale, rotation[4], r[16], inv[16];

	if (animc_units_is_identity(units))
		return ANIMC_OK;
	if (!units_are_numbers(units))
		return ANIMC_ERR_ARGUMENT;
	scale = units_scale(units);
	animc_units_rotation(units, rotation);
	units_matrix(units, r);
	for (int i = 0; i < 4; i++)
		for (int k = 0; k < 4; k++)
			inv[i * 4 + k] = r[k * 4 + i];
	for (uint32_t i = 0; i < skeleton->bone_count; i++) {
		animc_bone *b = &skeleton->bones[i];
		double m[16];

		move_translation(b->translation, scale, r);
		/* The bone's rest as one key of a channel. */
		double sheared = turn_bone(b, rotation, r);

		if (sheared > 0 && sink)
			animc_diag_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_SHEARED_SCALE, 0, 0,
					       "the model's bone '%s': the rotation turns its non-uniform rest scale off its axes "
					       "(its part across the axes reaches %.3g of its largest scale); its rest "
					       "pose keeps the scale along the axes: turn by quarter turns, or scale "
					       "the bone evenly", b->name, sheared);
		/* inverse(T) * local * T: exact, a shear and all. */
		for (int k = 0; k < 16; k++)
			m[k] = b->local[k];
		animc_mat4_multiply(inv, m, m);
		animc_mat4_multiply(m, r, m);
		m[12] *= scale, m[13] *= scale, m[14] *= scale;
		for (int k = 0; k < 16; k++)
			b->local[k] = (float)m[k];
	}
	return ANIMC_OK;
}
