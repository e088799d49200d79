/*
 * xform.c - quaternions from Euler angles and from rotation matrices, 4x4
 * products and the split of an affine matrix into translation, rotation and
 * scale (see xform.h for the conventions, which are XNA's).
 */
#include <math.h>
#include <string.h>

#include <animc/animc_xform.h>

void animc_quat_from_yaw_pitch_roll(float yaw, float pitch, float roll, float out[4])
{
	/* XNA took sin and cos of each half angle in double, rounded them to
	 * float and combined them in float, in this order. */
	float half_roll = roll * 0.5f, half_pitch = pitch * 0.5f, half_yaw = yaw * 0.5f;
	float sr = (float)sin((double)half_roll), cr = (float)cos((double)half_roll);
	float sp = (float)sin((double)half_pitch), cp = (float)cos((double)half_pitch);
	float sy = (float)sin((double)half_yaw), cy = (float)cos((double)half_yaw);

	out[0] = cy * sp * cr + sy * cp * sr;
	out[1] = sy * cp * cr - cy * sp * sr;
	out[2] = cy * cp * sr - sy * sp * cr;
	out[3] = cy * cp * cr + sy * sp * sr;
}

void animc_mat4_from_quat(const double q[4], double out[16])
{
	double x = q[0], y = q[1], z = q[2], w = q[3];

	out[0] = 1 - 2 * (y * y + z * z);
	out[1] = 2 * (x * y + z * w);
	out[2] = 2 * (x * z - y * w);
	out[3] = 0;
	out[4] = 2 * (x * y - z * w);
	out[5] = 1 - 2 * (z * z + x * x);
	out[6] = 2 * (y * z + x * w);
	out[7] = 0;
	out[8] = 2 * (z * x + y * w);
	out[9] = 2 * (y * z - x * w);
	out[10] = 1 - 2 * (y * y + x * x);
	out[11] = 0;
	out[12] = out[13] = out[14] = 0;
	out[15] = 1;
}

void animc_mat4_compose(const double translation[3], const double rotation[4],
			const double scale[3], double out[16])
{
	animc_mat4_from_quat(rotation, out);
	/* S * R scales the rows of R; T then sets the last row. */
	for (int r = 0; r < 3; r++)
		for (int c = 0; c < 3; c++)
			out[r * 4 + c] *= scale[r];
	out[12] = translation[0];
	out[13] = translation[1];
	out[14] = translation[2];
}

void animc_mat4_multiply(const double a[16], const double b[16], double out[16])
{
	double m[16];

	for (int r = 0; r < 4; r++)
		for (int c = 0; c < 4; c++)
			m[r * 4 + c] = a[r * 4 + 0] * b[0 * 4 + c] + a[r * 4 + 1] * b[1 * 4 + c] +
				       a[r * 4 + 2] * b[2 * 4 + c] + a[r * 4 + 3] * b[3 * 4 + c];
	memcpy(out, m, sizeof m);
}

void animc_quat_from_rotation_matrix(const double m[16], double out[4])
{
	double m11 = m[0], m12 = m[1], m13 = m[2];
	double m21 = m[4], m22 = m[5], m23 = m[6];
	double m31 = m[8], m32 = m[9], m33 = m[10];
	double trace = m11 + m22 + m33, len;

	/* XNA's branches: divide by the largest of 4w^2, 4x^2, 4y^2, 4z^2. */
	if (trace > 0) {
		double root = sqrt(trace + 1), k = 0.5 / root;

		out[0] = (m23 - m32) * k;
		out[1] = (m31 - m13) * k;
		out[2] = (m12 - m21) * k;
		out[3] = root * 0.5;
	} else if (m11 >= m22 && m11 >= m33) {
		double root = sqrt(1 + m11 - m22 - m33), k = 0.5 / root;

		out[0] = 0.5 * root;
		out[1] = (m12 + m21) * k;
		out[2] = (m13 + m31) * k;
		out[3] = (m23 - m32) * k;
	} else if (m22 > m33) {
		double root = sqrt(1 + m22 - m11 - m33), k = 0.5 / root;

		out[0] = (m21 + m12) * k;
		out[1] = 0.5 * root;
		out[2] = (m32 + m23) * k;
		out[3] = (m31 - m13) * k;
	} else {
		double root = sqrt(1 + m33 - m11 - m22), k = 0.5 / root;

		out[0] = (m31 + m13) * k;
		out[1] = (m32 + m23) * k;
		out[2] = 0.5 * root;
		out[3] = (m12 - m21) * k;
	}
	len = sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]);
	for (int i = 0; i < 4; i++)
		out[i] /= len;
}

const char *animc_decompose_result_string(animc_decompose_result result)
{
	static const char *const strings[ANIMC_DECOMPOSE_RESULT_COUNT] = {
		[ANIMC_DECOMPOSE_OK] = "ok",
		[ANIMC_DECOMPOSE_NOT_FINITE] = "it holds a value that is not finite",
		[ANIMC_DECOMPOSE_NOT_AFFINE] = "its fourth column is not 0 0 0 1 (a projection)",
		[ANIMC_DECOMPOSE_ZERO_SCALE] = "it scales an axis to zero",
		[ANIMC_DECOMPOSE_SHEAR] = "it shears (its axes are not perpendicular)",
	};

	if ((unsigned)result >= ANIMC_DECOMPOSE_RESULT_COUNT)
		return "unknown result";
	return strings[result];
}

static double dot3(const double *a, const double *b)
{
	return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

animc_decompose_result animc_mat4_decompose(const double m[16], float translation[3],
					    float rotation[4], float scale[3])
{
	double rows[3][3], s[3], rot[16] = { 0 }, q[4], max_s = 0, cross[3];
	float t_out[3], s_out[3];

	for (int i = 0; i < 16; i++)
		if (!isfinite(m[i]))
			return ANIMC_DECOMPOSE_NOT_FINITE;
	if (fabs(m[3]) > ANIMC_DECOMPOSE_AFFINE_TOLERANCE ||
	    fabs(m[7]) > ANIMC_DECOMPOSE_AFFINE_TOLERANCE ||
	    fabs(m[11]) > ANIMC_DECOMPOSE_AFFINE_TOLERANCE ||
	    fabs(m[15] - 1) > ANIMC_DECOMPOSE_AFFINE_TOLERANCE)
		return ANIMC_DECOMPOSE_NOT_AFFINE;
	for (int r = 0; r < 3; r++) {
		memcpy(rows[r], &m[r * 4], sizeof rows[r]);
		s[r] = sqrt(dot3(rows[r], rows[r]));
		if (!isfinite(s[r]))
			return ANIMC_DECOMPOSE_NOT_FINITE;
		if (s[r] > max_s)
			max_s = s[r];
	}
	for (int r = 0; r < 3; r++) {
		if (!(s[r] > 0) || s[r] < ANIMC_DECOMPOSE_MIN_SCALE_RATIO * max_s)
			return ANIMC_DECOMPOSE_ZERO_SCALE;
		for (int c = 0; c < 3; c++)
			rows[r][c] /= s[r];
	}
	if (fabs(dot3(rows[0], rows[1])) > ANIMC_DECOMPOSE_SHEAR_TOLERANCE ||
	    fabs(dot3(rows[0], rows[2])) > ANIMC_DECOMPOSE_SHEAR_TOLERANCE ||
	    fabs(dot3(rows[1], rows[2])) > ANIMC_DECOMPOSE_SHEAR_TOLERANCE)
		return ANIMC_DECOMPOSE_SHEAR;
	cross[0] = rows[1][1] * rows[2][2] - rows[1][2] * rows[2][1];
	cross[1] = rows[1][2] * rows[2][0] - rows[1][0] * rows[2][2];
	cross[2] = rows[1][0] * rows[2][1] - rows[1][1] * rows[2][0];
	if (dot3(rows[0], cross) < 0) {
		/* A mirror: one negative scale makes the rest a rotation. */
		s[0] = -s[0];
		for (int c = 0; c < 3; c++)
			rows[0][c] = -rows[0][c];
	}
	for (int r = 0; r < 3; r++)
		memcpy(&rot[r * 4], rows[r], sizeof rows[r]);
	rot[15] = 1;
	animc_quat_from_rotation_matrix(rot, q);
	for (int i = 0; i < 3; i++) {
		t_out[i] = (float)m[12 + i];
		s_out[i] = (float)s[i];
		/* Finite in double but beyond float: not a key a clip can hold. */
		if (!isfinite(t_out[i]) || !isfinite(s_out[i]) || s_out[i] == 0)
			return !isfinite(t_out[i]) || !isfinite(s_out[i]) ? ANIMC_DECOMPOSE_NOT_FINITE
									  : ANIMC_DECOMPOSE_ZERO_SCALE;
	}
	memcpy(translation, t_out, sizeof t_out);
	memcpy(scale, s_out, sizeof s_out);
	for (int i = 0; i < 4; i++)
		rotation[i] = (float)q[i];
	return ANIMC_DECOMPOSE_OK;
}
