/*
 * animc_xform.h - the 3D transform maths importers share, in XNA's conventions:
 * row vectors; 4x4 matrices stored M11..M44 row by row, translation in
 * M41..M43 (m[12..14]); quaternions x y z w.  A bone key as the runtime
 * rebuilds it is scale, then rotation, then translation: M = S * R * T.
 *
 *     double k[16], m[16];
 *     float t[3], r[4], s[3];
 *     animc_mat4_compose(pos, quat, scale, k);
 *     animc_mat4_multiply(k, rest, m);               // key x bone rest transform
 *     if (animc_mat4_decompose(m, t, r, s) != ANIMC_DECOMPOSE_OK) ...
 *
 * Matrices are double so composing and splitting again loses nothing a
 * float key can show.  Pure functions, no allocation.  Installed beside
 * animc.h (<animc/animc_xform.h>), for C and C++.
 */
#ifndef ANIMC_XFORM_H
#define ANIMC_XFORM_H

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Quaternion.CreateFromYawPitchRoll as XNA computes it, in float: roll about
 * Z, then pitch about X, then yaw about Y (angles in radians).
 */
void animc_quat_from_yaw_pitch_roll(float yaw, float pitch, float roll, float out[4]);

/* Matrix.CreateFromQuaternion: the rotation of a unit quaternion. */
void animc_mat4_from_quat(const double q[4], double out[16]);

/* Scale, then rotation (unit quaternion), then translation: S * R * T. */
void animc_mat4_compose(const double translation[3], const double rotation[4],
			const double scale[3], double out[16]);

/* out = a * b (apply a, then b, to a row vector).  out may alias a or b. */
void animc_mat4_multiply(const double a[16], const double b[16], double out[16]);

/*
 * Quaternion.CreateFromRotationMatrix: the unit quaternion of the rotation in
 * the upper 3x3 of `m` (orthonormal rows, determinant +1), normalised.
 */
void animc_quat_from_rotation_matrix(const double m[16], double out[4]);

/* Shear accepted by animc_mat4_decompose: the largest |cos| of the angle
 * between two normalised rows of the upper 3x3 (1e-3 is about 0.06 deg, far
 * above what 7-digit text and float keys introduce). */
#define ANIMC_DECOMPOSE_SHEAR_TOLERANCE 1e-3
/* A scale below this fraction of the largest one is taken for zero. */
#define ANIMC_DECOMPOSE_MIN_SCALE_RATIO 1e-6
/* Allowed distance of column 4 from (0 0 0 1). */
#define ANIMC_DECOMPOSE_AFFINE_TOLERANCE 1e-4

typedef enum animc_decompose_result {
	ANIMC_DECOMPOSE_OK = 0,
	ANIMC_DECOMPOSE_NOT_FINITE,  /* a NaN or infinite element */
	ANIMC_DECOMPOSE_NOT_AFFINE,  /* column 4 is not 0 0 0 1: a projection */
	ANIMC_DECOMPOSE_ZERO_SCALE,  /* a row (axis) of zero or vanishing length */
	ANIMC_DECOMPOSE_SHEAR,       /* rows not perpendicular within tolerance */
	ANIMC_DECOMPOSE_RESULT_COUNT
} animc_decompose_result;

/* A short lowercase description, never NULL. */
const char *animc_decompose_result_string(animc_decompose_result result);

/*
 * Split an affine matrix into translation, unit rotation and scale so that
 * S * R * T gives it back.  A mirroring matrix (negative determinant) gets a
 * negative X scale.  The outputs are written only on ANIMC_DECOMPOSE_OK.
 */
animc_decompose_result animc_mat4_decompose(const double m[16], float translation[3],
					    float rotation[4], float scale[3]);

#ifdef __cplusplus
}
#endif

#endif
