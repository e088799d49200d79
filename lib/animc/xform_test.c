/*
 * xform_test.c - CreateFromYawPitchRoll against known quaternions and
 * against XNA's elementary rotation matrices, matrix products, and
 * decomposition round trips including the matrices it must refuse.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include <animc/animc_xform.h>

#define PI 3.14159265358979323846

/* q and -q are one rotation. */
static void assert_same_rotation(const float *got, const double *want, double tolerance)
{
	double dot = 0;

	for (int i = 0; i < 4; i++)
		dot += got[i] * want[i];
	if (dot < 0)
		for (int i = 0; i < 4; i++)
			test_assert_near(-got[i], want[i], tolerance);
	else
		for (int i = 0; i < 4; i++)
			test_assert_near(got[i], want[i], tolerance);
}

/* XNA's Matrix.CreateRotationX/Y/Z (row vectors). */
static void rotation_x(double a, double m[16])
{
	memset(m, 0, 16 * sizeof *m);
	m[0] = m[15] = 1;
	m[5] = cos(a), m[6] = sin(a), m[9] = -sin(a), m[10] = cos(a);
}

static void rotation_y(double a, double m[16])
{
	memset(m, 0, 16 * sizeof *m);
	m[5] = m[15] = 1;
	m[0] = cos(a), m[2] = -sin(a), m[8] = sin(a), m[10] = cos(a);
}

static void rotation_z(double a, double m[16])
{
	memset(m, 0, 16 * sizeof *m);
	m[10] = m[15] = 1;
	m[0] = cos(a), m[1] = sin(a), m[4] = -sin(a), m[5] = cos(a);
}

static void yaw_pitch_roll_known_quaternions(void **state)
{
	static const struct {
		float yaw, pitch, roll;
		double q[4];
	} cases[] = {
		{ 0, 0, 0, { 0, 0, 0, 1 } },
		/* The design example's last key: 90 degrees about Y. */
		{ 1.57079637f, 0, 0, { 0, 0.70710678118654752, 0, 0.70710678118654752 } },
		{ 0, 1.57079637f, 0, { 0.70710678118654752, 0, 0, 0.70710678118654752 } },
		{ 0, 0, 1.57079637f, { 0, 0, 0.70710678118654752, 0.70710678118654752 } },
		{ (float)PI, 0, 0, { 0, 1, 0, 0 } },
		/* q_yaw * q_pitch * q_roll (Hamilton product), worked out in double. */
		{ 0.3f, 0.2f, 0.1f, { 0.106020511, 0.143572175, 0.0342707986, 0.983347443 } },
	};
	float q[4];

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		animc_quat_from_yaw_pitch_roll(cases[i].yaw, cases[i].pitch, cases[i].roll, q);
		for (int c = 0; c < 4; c++)
			test_assert_near(q[c], cases[i].q[c], 2e-7);
	}
	/* Exactly as XNA rounds: float sin/cos of the half angles. */
	animc_quat_from_yaw_pitch_roll(1.57079637f, 0, 0, q);
	assert_true(q[0] == 0 && q[2] == 0);
	assert_true(q[1] == (float)sin(0.785398185) && q[3] == (float)cos(0.785398185));
}

/* Roll about Z first, then pitch about X, then yaw about Y. */
static void yaw_pitch_roll_is_z_then_x_then_y(void **state)
{
	static const float angles[][3] = {
		{ 0.3f, 0.2f, 0.1f }, { -2.5f, 1.1f, 0.7f }, { 3.0f, -1.5f, -2.9f }, { 0, 0.5f, 2 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof angles / sizeof angles[0]; i++) {
		double rz[16], rx[16], ry[16], want[16], got[16], q[4];
		float qf[4];

		rotation_z(angles[i][2], rz);
		rotation_x(angles[i][1], rx);
		rotation_y(angles[i][0], ry);
		animc_mat4_multiply(rz, rx, want);
		animc_mat4_multiply(want, ry, want);
		animc_quat_from_yaw_pitch_roll(angles[i][0], angles[i][1], angles[i][2], qf);
		for (int c = 0; c < 4; c++)
			q[c] = qf[c];
		animc_mat4_from_quat(q, got);
		for (int e = 0; e < 16; e++)
			test_assert_near(got[e], want[e], 1e-6);
	}
}

static void multiply_applies_left_first(void **state)
{
	double t[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 0, 0, 1 };
	double r[16], tr[16], rt[16];

	(void)state;
	rotation_z(PI / 2, r);
	/* Translate then rotate: (5,0,0) turns to (0,5,0). */
	animc_mat4_multiply(t, r, tr);
	test_assert_near(tr[12], 0, 1e-12);
	test_assert_near(tr[13], 5, 1e-12);
	/* Rotate then translate: the translation stays (5,0,0). */
	animc_mat4_multiply(r, t, rt);
	test_assert_near(rt[12], 5, 1e-12);
	test_assert_near(rt[13], 0, 1e-12);
	/* In place. */
	animc_mat4_multiply(t, r, t);
	assert_memory_equal(t, tr, sizeof tr);
}

static void rotation_matrix_to_quaternion_each_branch(void **state)
{
	/* One rotation per branch of the method: large w, x, y, z. */
	static const double quats[][4] = {
		{ 0.1, 0.2, 0.3, 0.927362 },
		{ 0.95, 0.1, -0.2, 0.2 },
		{ -0.1, 0.96, 0.15, -0.2 },
		{ 0.05, -0.1, -0.97, 0.2 },
		{ 1, 0, 0, 0 },
		{ 0, 1, 0, 0 },
		{ 0, 0, 1, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof quats / sizeof quats[0]; i++) {
		double q[4], len = 0, m[16], got[4];
		float gotf[4];

		for (int c = 0; c < 4; c++)
			len += quats[i][c] * quats[i][c];
		for (int c = 0; c < 4; c++)
			q[c] = quats[i][c] / sqrt(len);
		animc_mat4_from_quat(q, m);
		animc_quat_from_rotation_matrix(m, got);
		for (int c = 0; c < 4; c++)
			gotf[c] = (float)got[c];
		assert_same_rotation(gotf, q, 1e-7);
	}
}

static void decompose_round_trips(void **state)
{
	static const struct {
		double t[3], q[4], s[3];
	} cases[] = {
		{ { 0, 0, 0 }, { 0, 0, 0, 1 }, { 1, 1, 1 } },
		{ { 1.5, -2, 3.25 }, { 0, 0.70710678118654752, 0, 0.70710678118654752 }, { 1, 1, 1 } },
		{ { -10, 0.001, 7 }, { 0.1, 0.2, 0.3, 0.927362 }, { 2, 0.5, 3 } },
		{ { 0, 0, 0 }, { 0.95, 0.1, -0.2, 0.2 }, { 0.01, 0.01, 0.01 } },
		{ { 4, 5, 6 }, { 0.05, -0.1, -0.97, 0.2 }, { 1e3, 1e3, 2e3 } },
		{ { 1, 2, 3 }, { 0, 0, 1, 0 }, { 1, 1, 1 } },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		double q[4], len = 0, m[16], back[16], tf[3], qf[4], sf[3];
		float t[3], r[4], s[3];

		for (int c = 0; c < 4; c++)
			len += cases[i].q[c] * cases[i].q[c];
		for (int c = 0; c < 4; c++)
			q[c] = cases[i].q[c] / sqrt(len);
		animc_mat4_compose(cases[i].t, q, cases[i].s, m);
		assert_int_equal(animc_mat4_decompose(m, t, r, s), ANIMC_DECOMPOSE_OK);
		for (int c = 0; c < 3; c++) {
			assert_true(t[c] == (float)cases[i].t[c]);
			test_assert_near(s[c], cases[i].s[c], 1e-6 * cases[i].s[c]);
		}
		assert_same_rotation(r, q, 1e-6);
		/* And composing the parts gives the matrix again. */
		for (int c = 0; c < 3; c++) {
			tf[c] = t[c];
			sf[c] = s[c];
		}
		for (int c = 0; c < 4; c++)
			qf[c] = r[c];
		animc_mat4_compose(tf, qf, sf, back);
		for (int e = 0; e < 16; e++)
			test_assert_near(back[e], m[e], 1e-5 * (1 + fabs(m[e])));
	}
}

static void decompose_mirror_gives_negative_x_scale(void **state)
{
	double m[16] = { -2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 1, 2, 3, 1 };
	double identity[4] = { 0, 0, 0, 1 };
	float t[3], r[4], s[3];

	(void)state;
	assert_int_equal(animc_mat4_decompose(m, t, r, s), ANIMC_DECOMPOSE_OK);
	assert_true(s[0] == -2 && s[1] == 3 && s[2] == 4);
	assert_same_rotation(r, identity, 1e-12);
	assert_true(t[0] == 1 && t[1] == 2 && t[2] == 3);
}

static void decompose_refuses_what_has_no_trs(void **state)
{
	double zero[16] = { 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
	double tiny[16] = { 1, 0, 0, 0, 0, 1e-9, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
	double shear[16] = { 1, 0, 0, 0, 0.5, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
	double slight[16] = { 1, 0, 0, 0, 0.0005, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
	double projective[16] = { 1, 0, 0, 0.5, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
	double not_finite[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, NAN, 0, 0, 1 };
	double too_big[16] = { 1e200, 0, 0, 0, 0, 1e200, 0, 0, 0, 0, 1e200, 0, 0, 0, 0, 1 };
	float t[3] = { 7, 7, 7 }, r[4], s[3];

	(void)state;
	assert_int_equal(animc_mat4_decompose(zero, t, r, s), ANIMC_DECOMPOSE_ZERO_SCALE);
	assert_int_equal(animc_mat4_decompose(tiny, t, r, s), ANIMC_DECOMPOSE_ZERO_SCALE);
	assert_int_equal(animc_mat4_decompose(shear, t, r, s), ANIMC_DECOMPOSE_SHEAR);
	assert_int_equal(animc_mat4_decompose(projective, t, r, s), ANIMC_DECOMPOSE_NOT_AFFINE);
	assert_int_equal(animc_mat4_decompose(not_finite, t, r, s), ANIMC_DECOMPOSE_NOT_FINITE);
	assert_int_equal(animc_mat4_decompose(too_big, t, r, s), ANIMC_DECOMPOSE_NOT_FINITE);
	/* Outputs untouched on failure. */
	assert_true(t[0] == 7 && t[1] == 7 && t[2] == 7);
	/* Shear within tolerance is accepted. */
	assert_int_equal(animc_mat4_decompose(slight, t, r, s), ANIMC_DECOMPOSE_OK);
	for (int i = 0; i < ANIMC_DECOMPOSE_RESULT_COUNT; i++)
		assert_non_null(animc_decompose_result_string((animc_decompose_result)i));
}

/* The header is installed for C++ tools too: a C++ program calls its
 * functions by their C names and links with libanimc.a. */
static void cxx_program_links_with_the_header(void **state)
{
	const char *build = getenv("ANIMC_BUILD"), *sanitize = getenv("ANIMC_SANITIZE");

	(void)state;
	if (system("command -v c++ >/dev/null 2>&1") != 0) {
		print_message("skipped: no C++ compiler (c++)\n");
		skip();
	}
	char *dir = test_tmpdir("xform-cxx");
	char *src = test_format("%s/yaw.cpp", dir), *bin = test_format("%s/yaw", dir);
	char *lib = test_format("%s/libanimc.a", build ? build : "build");
	/* The sanitizer build's library needs the sanitizers' runtime. */
	char *runtime = sanitize && *sanitize ? test_format("-fsanitize=%s", sanitize) : test_format("-Wall");
	const char *code = "#include <animc/animc_xform.h>\n"
			   "#include <cstdio>\n"
			   "int main() {\n"
			   "\tfloat q[4];\n"
			   "\tanimc_quat_from_yaw_pitch_roll(0.5f, 0, 0, q);\n"
			   "\tstd::printf(\"%.6f %s\\n\", q[1], animc_decompose_result_string(ANIMC_DECOMPOSE_OK));\n"
			   "}\n";

	assert_true(test_write_file(src, code, strlen(code)));
	test_run r = test_exec("c++", "-std=c++17", "-Wall", "-Wextra", "-pedantic", runtime, "-Ilib/animc/include", "-o",
			       bin, src, lib, "-lm", NULL);
	assert_string_equal(r.err, "");
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_exec(bin, NULL);
	assert_int_equal(r.status, 0);
	char *want = test_format("%.6f %s\n", sin(0.25), animc_decompose_result_string(ANIMC_DECOMPOSE_OK));
	assert_string_equal(r.out, want);
	test_run_release(&r);
	free(want), free(runtime), free(lib), free(bin), free(src), free(dir);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(yaw_pitch_roll_known_quaternions),
	cmocka_unit_test(yaw_pitch_roll_is_z_then_x_then_y),
	cmocka_unit_test(multiply_applies_left_first),
	cmocka_unit_test(rotation_matrix_to_quaternion_each_branch),
	cmocka_unit_test(decompose_round_trips),
	cmocka_unit_test(decompose_mirror_gives_negative_x_scale),
	cmocka_unit_test(decompose_refuses_what_has_no_trs),
	cmocka_unit_test(cxx_program_links_with_the_header),
};

ANIMC_TEST_GROUP(tests);
