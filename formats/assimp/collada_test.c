/*
 * collada_test.c - COLLADA files Assimp 5.2.5 reads wrongly or without a
 * word, written here: what the importer mends from the file itself
 * (collada.c), and what it says.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_support.h"
#include "assimp_internal.h"

#define PI 3.14159265358979323846

/* ------------------------------------------------------- writing a file */

/* One <animation> of id `id` (named `name`, NULL: none) keying `target`
 * at `times` with `values` (`stride` a key: a float4x4 for 16, else that
 * many floats), every key `interp`. */
static void add_anim(FILE *f, const char *id, const char *name, const char *target, const char *times,
		     const char *values, int stride, const char *interp)
{
	int n = 1, nv = 1;

	for (const char *p = times; *p; p++)
		n += *p == ' ' || *p == '\n';
	for (const char *p = values; *p; p++)
		nv += *p == ' ' || *p == '\n';
	fprintf(f, "    <animation id=\"%s\"", id);
	if (name)
		fprintf(f, " name=\"%s\"", name);
	fprintf(f, ">\n      <source id=\"%s-in\"><float_array id=\"%s-in-a\" count=\"%d\">%s</float_array>\n"
		"        <technique_common><accessor source=\"#%s-in-a\" count=\"%d\" stride=\"1\"><param name=\"TIME\" "
		"type=\"float\"/></accessor></technique_common></source>\n",
		id, id, n, times, id, n);
	fprintf(f, "      <source id=\"%s-out\"><float_array id=\"%s-out-a\" count=\"%d\">%s</float_array>\n"
		"        <technique_common><accessor source=\"#%s-out-a\" count=\"%d\" stride=\"%d\">",
		id, id, nv, values, id, n, stride);
	for (int i = 0; i < (stride == 16 ? 1 : stride); i++)
		fprintf(f, "<param name=\"V\" type=\"%s\"/>", stride == 16 ? "float4x4" : "float");
	fprintf(f, "</accessor></technique_common></source>\n");
	fprintf(f, "      <source id=\"%s-ip\"><Name_array id=\"%s-ip-a\" count=\"%d\">", id, id, n);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? " " : "", interp);
	fprintf(f, "</Name_array></source>\n      <sampler id=\"%s-s\"><input semantic=\"INPUT\" source=\"#%s-in\"/>"
		"<input semantic=\"OUTPUT\" source=\"#%s-out\"/><input semantic=\"INTERPOLATION\" source=\"#%s-ip\"/>"
		"</sampler>\n      <channel source=\"#%s-s\" target=\"%s\"/>\n    </animation>\n",
		id, id, id, id, id, target);
}

/* A file of the animations `anims` and one node, Root, of the
 * transforms `transforms`. */
static char *scene_of(const char *anims, const char *transforms)
{
	return test_format("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
			   "<COLLADA xmlns=\"http://www.collada.org/2005/11/COLLADASchema\" version=\"1.4.1\">\n"
			   "  <asset><unit name=\"meter\" meter=\"1\"/><up_axis>Y_UP</up_axis></asset>\n"
			   "  <library_animations>\n%s  </library_animations>\n"
			   "  <library_visual_scenes>\n    <visual_scene id=\"Scene\" name=\"Scene\">\n"
			   "      <node id=\"Root\" name=\"Root\" sid=\"Root\" type=\"JOINT\">\n%s"
			   "      </node>\n    </visual_scene>\n  </library_visual_scenes>\n"
			   "  <scene><instance_visual_scene url=\"#Scene\"/></scene>\n</COLLADA>\n",
			   anims, transforms);
}

/* A file of the animations `anims` and one node, Root: a translate, then
 * rotates about Z, Y (by 30 degrees) and X. */
static char *scene_text(const char *anims)
{
	return scene_of(anims, "        <translate sid=\"location\">0 0 0</translate>\n"
			       "        <rotate sid=\"rotationZ\">0 0 1 0</rotate>\n"
			       "        <rotate sid=\"rotationY\">0 1 0 30</rotate>\n"
			       "        <rotate sid=\"rotationX\">1 0 0 0</rotate>\n");
}

/* ---------------------------------------------------------- importing */

typedef struct imported {
	animc_status status;
	animc_clip_set set;
	test_diags diags;
	animc_diag_sink sink;
} imported;

static void import_text(imported *r, const char *text)
{
	animc_import_request req = { NULL, (const uint8_t *)text, strlen(text), NULL };

	memset(r, 0, sizeof *r);
	r->diags.echo = getenv("ANIMC_TEST_ECHO") != NULL;
	r->sink = test_diag_sink(&r->diags, NULL);
	r->status = animc_importer_assimp.import(&req, &r->set, &r->sink);
}

/* Import the file of animations written to `f` (closed here). */
static void import_anims(imported *r, FILE *f, char **anims)
{
	char *text;

	fclose(f);
	text = scene_text(*anims);
	import_text(r, text);
	free(text);
	free(*anims);
}

static void release(imported *r)
{
	animc_clip_set_release(&r->set);
	test_diags_release(&r->diags);
}

static size_t warnings_of(const imported *r, const char *kind)
{
	size_t n = 0;

	for (size_t i = 0; i < r->diags.count; i++)
		n += r->diags.items[i].severity == ANIMC_WARNING && r->diags.items[i].kind &&
		     strcmp(r->diags.items[i].kind, kind) == 0;
	return n;
}

static const char *warning_of(const imported *r, const char *kind)
{
	for (size_t i = 0; i < r->diags.count; i++)
		if (r->diags.items[i].severity == ANIMC_WARNING && r->diags.items[i].kind &&
		    strcmp(r->diags.items[i].kind, kind) == 0)
			return r->diags.items[i].message;
	fail_msg("no %s warning", kind);
	return NULL;
}

/* The line `line` of `text`, up to its end. */
static char *line_of(const char *text, uint32_t line)
{
	const char *at = text, *end;

	for (uint32_t i = 1; i < line && at; i++)
		at = strchr(at, '\n') ? strchr(at, '\n') + 1 : NULL;
	assert_non_null(at);
	end = strchr(at, '\n');
	return test_format("%.*s", (int)(end ? end - at : (ptrdiff_t)strlen(at)), at);
}

/* The import failed with one error, whose message holds `words`, on the
 * line of `text` that reads `line`. */
static void assert_one_error_at(const imported *r, const char *text, const char *words, const char *line)
{
	assert_int_not_equal(r->status, ANIMC_OK);
	assert_int_equal(test_diags_count(&r->diags, ANIMC_ERROR), 1);
	const test_diag *e = test_diags_first(&r->diags, ANIMC_ERROR);
	if (!strstr(e->message, words))
		fail_msg("no '%s' in: %s", words, e->message);
	char *at = line_of(text, e->line);
	assert_string_equal(at, line);
	free(at);
}

/* ------------------------------------------------------------ rotations */

static void axis_quat(int axis, double deg, double q[4])
{
	q[0] = q[1] = q[2] = 0;
	q[axis] = sin(deg * PI / 360);
	q[3] = cos(deg * PI / 360);
}

static void quat_mul(const double a[4], const double b[4], double out[4])
{
	double r[4] = { a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
			a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
			a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
			a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2] };

	memcpy(out, r, sizeof r);
}

/* COLLADA's pose of Root: Rz(z) * Ry(30) * Rx(x). */
static void stack_quat(double z, double x, double q[4])
{
	double qz[4], qy[4], qx[4];

	axis_quat(2, z, qz);
	axis_quat(1, 30, qy);
	axis_quat(0, x, qx);
	quat_mul(qz, qy, q);
	quat_mul(q, qx, q);
}

/* The track's turn at `t` s as the runtime plays it: its keys slerped. */
static void played(const animc_track *t, double time, double q[4])
{
	uint32_t i = 1;

	while (i + 1 < t->value_count && t->times_s[i] < time)
		i++;
	const float *a = &t->values[(size_t)(i - 1) * 4], *b = &t->values[(size_t)i * 4];
	double u = (time - t->times_s[i - 1]) / (t->times_s[i] - t->times_s[i - 1]), dot = 0, len = 0;

	for (int k = 0; k < 4; k++)
		dot += a[k] * b[k];
	double sign = dot < 0 ? -1 : 1, angle = acos(fmin(1, fabs(dot)));
	for (int k = 0; k < 4; k++) {
		q[k] = angle < 1e-6 ? a[k] : (sin((1 - u) * angle) * a[k] + sign * sin(u * angle) * b[k]) / sin(angle);
		len += q[k] * q[k];
	}
	for (int k = 0; k < 4; k++)
		q[k] /= sqrt(len);
}

static double degrees_between(const double a[4], const double b[4])
{
	double dot = fabs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]);

	return 2 * acos(fmin(1, dot)) * 180 / PI;
}

/* --------------------------------------------------------------- tests */

/* Two <rotate>s keyed together (Z and X, 0 to 90 over 1 s): Assimp keeps
 * one quaternion a key, and the runtime's slerp was 19.5 degrees off the
 * file's turn halfway, without a word.  Keys are added from the file's
 * channels until it keeps within half a degree; where the turn cannot be
 * read exactly (BEZIER keys), a warning names the bone and the rotates. */
static void rotates_keyed_together_get_keys_from_the_file(void **state)
{
	char *anims;
	size_t len;
	imported r;
	FILE *f;

	(void)state;
	f = open_memstream(&anims, &len);
	add_anim(f, "rz", NULL, "Root/rotationZ.ANGLE", "0 1", "0 90", 1, "LINEAR");
	add_anim(f, "rx", NULL, "Root/rotationX.ANGLE", "0 1", "0 90", 1, "LINEAR");
	import_anims(&r, f, &anims);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(warnings_of(&r, "euler-between-keys"), 0);
	const animc_track *t = &r.set.clips[0]->channels[0].tracks[ANIMC_ROTATION];
	assert_true(t->value_count > 2);
	for (double s = 0; s <= 1; s += 1.0 / 64) {
		double want[4], got[4];

		stack_quat(90 * s, 90 * s, want);
		played(t, s, got);
		if (degrees_between(want, got) > 0.5)
			fail_msg("at %g s: %g degrees off the file's turn", s, degrees_between(want, got));
	}
	release(&r);

	/* One rotate keyed: a slerp is its turn, and the keys are Assimp's. */
	f = open_memstream(&anims, &len);
	add_anim(f, "rz", NULL, "Root/rotationZ.ANGLE", "0 1", "0 90", 1, "LINEAR");
	import_anims(&r, f, &anims);
	assert_int_equal(r.set.clips[0]->channels[0].tracks[ANIMC_ROTATION].value_count, 2);
	release(&r);

	f = open_memstream(&anims, &len);
	add_anim(f, "rz", NULL, "Root/rotationZ.ANGLE", "0 1", "0 90", 1, "BEZIER");
	add_anim(f, "rx", NULL, "Root/rotationX.ANGLE", "0 1", "0 90", 1, "BEZIER");
	import_anims(&r, f, &anims);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(warnings_of(&r, "euler-between-keys"), 1);
	assert_non_null(strstr(warning_of(&r, "euler-between-keys"),
			       "clip 'animation': bone 'Root': its <rotate>s 'rotationZ', 'rotationX' are keyed together"));
	assert_non_null(strstr(warning_of(&r, "euler-between-keys"), "other than LINEAR interpolation"));
	release(&r);
}

/* Key times that go backwards ("1 0"): Assimp lost the channel, and the
 * bone held still, without a word.  An error at the line of the time. */
static void backwards_key_times_fail_at_their_line(void **state)
{
	char *anims, *text;
	size_t len;
	imported r;
	FILE *f;

	(void)state;
	f = open_memstream(&anims, &len);
	add_anim(f, "tr", NULL, "Root/location", "0 1", "0 0 0 1 0 0", 3, "LINEAR");
	add_anim(f, "rz", NULL, "Root/rotationZ.ANGLE", "1\n0", "0 90", 1, "LINEAR");
	fclose(f);
	text = scene_text(anims);
	import_text(&r, text);
	assert_one_error_at(&r, text,
			    "channel 'Root/rotationZ.ANGLE': its key times go backwards (key 1 at 0 s "
			    "comes after key 0 at 1 s)",
			    "0</float_array>");
	release(&r);
	free(text), free(anims);
}

/* A NaN angle: Assimp spreads it through the node's matrix, and the
 * errors were of NaN rotation and scale keys (a scale the file does not
 * key), naming no line.  One error names the channel, the key and the
 * line of the value. */
static void a_nan_angle_is_one_error_at_its_line(void **state)
{
	char *anims, *text;
	size_t len;
	imported r;
	FILE *f;

	(void)state;
	f = open_memstream(&anims, &len);
	add_anim(f, "tr", NULL, "Root/location", "0 1 2", "0 0 0 1 0 0 2 0 0", 3, "LINEAR");
	add_anim(f, "rz", NULL, "Root/rotationZ.ANGLE", "0 1 2", "0\n10\nNaN", 1, "LINEAR");
	fclose(f);
	text = scene_text(anims);
	import_text(&r, text);
	assert_one_error_at(&r, text,
			    "channel 'Root/rotationZ.ANGLE': key 2 (at 2 s) is NaN",
			    "NaN</float_array>");
	release(&r);
	free(text), free(anims);
}

/* Assimp prefixed every clip with the name of the file's first
 * <animation>: Walk_Walk and Walk_Run, Motion_Motion, animation_animation. */
static void clips_take_the_names_the_file_gives(void **state)
{
	static const char *const walk_run[] = { "Walk", "Run" };
	char *anims, *inner;
	size_t len, inner_len;
	imported r;
	FILE *f;

	(void)state;
	f = open_memstream(&anims, &len);
	for (int a = 0; a < 2; a++) {
		FILE *g = open_memstream(&inner, &inner_len);

		add_anim(g, a ? "rt" : "wt", NULL, "Root/location", "0 1", "0 0 0 1 0 0", 3, "LINEAR");
		add_anim(g, a ? "rr" : "wr", NULL, "Root/rotationZ.ANGLE", "0 1", "0 10", 1, "LINEAR");
		fclose(g);
		fprintf(f, "<animation id=\"%s\" name=\"%s\">\n%s</animation>\n", walk_run[a], walk_run[a], inner);
		free(inner);
	}
	import_anims(&r, f, &anims);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(r.set.count, 2);
	assert_string_equal(r.set.clips[0]->name, "Walk");
	assert_string_equal(r.set.clips[1]->name, "Run");
	release(&r);

	for (int named = 0; named < 2; named++) {
		f = open_memstream(&anims, &len);
		fprintf(f, "<animation id=\"m\"%s>\n", named ? " name=\"Motion\"" : "");
		add_anim(f, "wt", NULL, "Root/location", "0 1", "0 0 0 1 0 0", 3, "LINEAR");
		add_anim(f, "wr", NULL, "Root/rotationZ.ANGLE", "0 1", "0 10", 1, "LINEAR");
		fprintf(f, "</animation>\n");
		import_anims(&r, f, &anims);
		assert_int_equal(r.set.count, 1);
		assert_string_equal(r.set.clips[0]->name, named ? "Motion" : "animation");
		release(&r);
	}
}

/* ------------------------------------------------------------ STEP keys */

/* Item `index` of track `t` (3 floats a key) at `time` s, as the runtime
 * plays it: its keys joined by straight lines, held past the ends. */
static double lerped(const animc_track *t, double time, int index)
{
	uint32_t i = 1;

	if (t->value_count == 1 || time <= t->times_s[0])
		return t->values[index];
	while (i + 1 < t->value_count && t->times_s[i] < time)
		i++;
	if (time >= t->times_s[i])
		return t->values[(size_t)i * 3 + (size_t)index];
	double a = t->values[(size_t)(i - 1) * 3 + (size_t)index], b = t->values[(size_t)i * 3 + (size_t)index];
	return a + (b - a) * (time - t->times_s[i - 1]) / (t->times_s[i] - t->times_s[i - 1]);
}

/* Mid-span, the float before a key, and the key: at 0.25 to 2 s. */
static double step_time(int i)
{
	static const double times[] = { 0.25, 0.5, 0.75, -1, 1, 1.25, 1.5, -2, 2 };

	return times[i] < 0 ? nextafterf((float)-times[i], 0) : times[i];
}

#define STEP_TIMES 9

/* Root's translation X and turn at each step_time are `want_x`'s and
 * stack_quat's of `want_z`, `want_x_deg` (within `deg` degrees). */
static void assert_steps(const animc_clip *clip, const double *want_x, const double *want_z,
			 const double *want_x_deg, double deg)
{
	const animc_channel *ch = &clip->channels[0];

	for (int i = 0; i < STEP_TIMES; i++) {
		double s = step_time(i), want[4], got[4];

		if (want_x && !(fabs(lerped(&ch->tracks[ANIMC_TRANSLATION], s, 0) - want_x[i]) < 1e-5))
			fail_msg("at %.9g s: translation X %g, expected %g", s,
				 lerped(&ch->tracks[ANIMC_TRANSLATION], s, 0), want_x[i]);
		stack_quat(want_z[i], want_x_deg[i], want);
		played(&ch->tracks[ANIMC_ROTATION], s, got);
		if (degrees_between(want, got) > deg)
			fail_msg("at %.9g s: %g degrees off the file's turn", s, degrees_between(want, got));
	}
}

/*
 * A STEP sampler holds each key's value up to the next key; Assimp 5.2.5
 * reads it as linear, and merges a node's channels onto one timeline,
 * where a STEP channel is interpolated at the other channels' key times:
 * halfway from 0 to 5 the bone stood at 2.5, with only a stepped-keys
 * warning for the file.  The bone is made again from the file's
 * transforms: each value held to the float before the next key, linear
 * channels still linear, <rotate>s keyed together still within half a
 * degree of their turn.
 */
static void step_keys_are_held_from_the_file(void **state)
{
	static const double held_x[] = { 0, 0, 0, 0, 5, 5, 5, 5, 10 };
	static const double z_held[] = { 0, 0, 0, 0, 90, 90, 90, 90, 180 };
	static const double no_x[STEP_TIMES] = { 0 }, x_linear[] = { 11.25, 22.5, 33.75, 45, 45, 56.25, 67.5, 90, 90 };
	char *anims;
	size_t len;
	imported r;
	FILE *f;

	(void)state;
	f = open_memstream(&anims, &len);
	add_anim(f, "tr", NULL, "Root/location", "0 1 2", "0 0 0 5 0 0 10 0 0", 3, "STEP");
	add_anim(f, "rz", NULL, "Root/rotationZ.ANGLE", "0 0.5 1.5 2", "0 45 135 180", 1, "LINEAR");
	import_anims(&r, f, &anims);
	assert_int_equal(r.status, ANIMC_OK);
	/* Z's keys at 0.5 and 1.5 s, 90 degrees at the float before 1 s:
	 * the slerp from 45 to 135 degrees, about 90 at the step. */
	double z_at[STEP_TIMES];
	for (int i = 0; i < STEP_TIMES; i++)
		z_at[i] = step_time(i) * 90;
	assert_steps(r.set.clips[0], held_x, z_at, no_x, 1e-3);
	assert_int_equal(warnings_of(&r, "stepped-keys"), 0);
	release(&r);

	/* A STEP angle keyed with a linear one: Z held, X turning. */
	f = open_memstream(&anims, &len);
	add_anim(f, "rz", NULL, "Root/rotationZ.ANGLE", "0 1 2", "0 90 180", 1, "STEP");
	add_anim(f, "rx", NULL, "Root/rotationX.ANGLE", "0 2", "0 90", 1, "LINEAR");
	import_anims(&r, f, &anims);
	assert_int_equal(r.status, ANIMC_OK);
	assert_steps(r.set.clips[0], NULL, z_held, x_linear, 0.5);
	assert_int_equal(warnings_of(&r, "stepped-keys"), 0);
	assert_int_equal(warnings_of(&r, "euler-between-keys"), 0);
	release(&r);
}

/* Root keyed by a <matrix> STEP: the identity, then turned 90 degrees
 * about Z and moved 5 along X at 1 s, then moved 10 at 2 s.  Assimp's
 * keys at the key times are the matrices'; only the held values between
 * were linear. */
static void step_matrix_keys_are_held(void **state)
{
	static const double held_x[] = { 0, 0, 0, 0, 5, 5, 5, 5, 10 };
	static const double z[] = { 0, 0, 0, 0, 90, 90, 90, 90, 0 };
	char *anims, *text;
	size_t len;
	imported r;
	FILE *f;

	(void)state;
	f = open_memstream(&anims, &len);
	add_anim(f, "mt", NULL, "Root/transform", "0 1 2",
		 "1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1 "
		 "0 -1 0 5 1 0 0 0 0 0 1 0 0 0 0 1 "
		 "1 0 0 10 0 1 0 0 0 0 1 0 0 0 0 1", 16, "STEP");
	fclose(f);
	text = scene_of(anims, "        <matrix sid=\"transform\">1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1</matrix>\n");
	import_text(&r, text);
	assert_int_equal(r.status, ANIMC_OK);
	const animc_channel *ch = &r.set.clips[0]->channels[0];
	for (int i = 0; i < STEP_TIMES; i++) {
		double s = step_time(i), want[4], got[4];

		if (!(fabs(lerped(&ch->tracks[ANIMC_TRANSLATION], s, 0) - held_x[i]) < 1e-5))
			fail_msg("at %.9g s: translation X %g, expected %g", s, lerped(&ch->tracks[ANIMC_TRANSLATION], s, 0),
				 held_x[i]);
		axis_quat(2, z[i], want);
		played(&ch->tracks[ANIMC_ROTATION], s, got);
		if (degrees_between(want, got) > 1e-3)
			fail_msg("at %.9g s: %g degrees off the matrix's turn", s, degrees_between(want, got));
	}
	assert_int_equal(warnings_of(&r, "stepped-keys"), 0);
	release(&r);
	free(text), free(anims);
}

/* STEP keys the bone cannot be made exact of (a <translate> before a
 * <matrix> keyed linear at other times) are said, naming the clip, the
 * bone and the channel, at its sampler's line; STEP keys that change
 * nothing are not, and keep Assimp's keys. */
static void step_keys_not_read_are_said(void **state)
{
	char *anims, *text;
	size_t len;
	imported r;
	FILE *f;

	(void)state;
	f = open_memstream(&anims, &len);
	add_anim(f, "tr", NULL, "Root/location", "0 1", "0 0 0 5 0 0", 3, "STEP");
	add_anim(f, "mt", NULL, "Root/transform", "0 0.5",
		 "1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1 1 0 0 0 0 1 0 1 0 0 1 0 0 0 0 1", 16, "LINEAR");
	fclose(f);
	text = scene_of(anims, "        <translate sid=\"location\">0 0 0</translate>\n"
			       "        <matrix sid=\"transform\">1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1</matrix>\n");
	import_text(&r, text);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(warnings_of(&r, "stepped-keys"), 1);
	assert_non_null(strstr(warning_of(&r, "stepped-keys"), "clip 'animation': bone 'Root': channel 'Root/location' "
			       "has STEP keys, which are read as linear: the bone is not rebuilt from the file (its "
			       "node has transforms other than <translate>s, <rotate>s and <scale>s in that order"));
	uint32_t line = 0;
	for (size_t i = 0; i < r.diags.count; i++)
		if (r.diags.items[i].kind && strcmp(r.diags.items[i].kind, "stepped-keys") == 0)
			line = r.diags.items[i].line;
	char *at = line_of(text, line);
	assert_non_null(strstr(at, "<sampler id=\"tr-s\">"));
	free(at);
	release(&r);
	free(text), free(anims);

	f = open_memstream(&anims, &len);
	add_anim(f, "tr", NULL, "Root/location", "0 1 2", "5 0 0 5 0 0 6 0 0", 3, "STEP LINEAR");
	add_anim(f, "rz", NULL, "Root/rotationZ.ANGLE", "0 0.5", "0 10", 1, "LINEAR");
	import_anims(&r, f, &anims);
	assert_int_equal(warnings_of(&r, "stepped-keys"), 0);
	assert_int_equal(r.set.clips[0]->channels[0].tracks[ANIMC_TRANSLATION].value_count, 4);
	release(&r);
}

/* The held steps, built: a lossy build keeps them; the compact layout
 * declines the clip (a jump between keys a float apart) and writes the
 * original layout, which keeps them too. */
static void step_keys_survive_a_lossy_build(void **state)
{
	static const char *const options[][2] = { { "--tolerance", "default" }, { "--layout", "compact" } };
	static const double held_x[] = { 0, 0, 0, 0, 5, 5, 5, 5, 10 };
	char *dir = test_tmpdir("dae-step"), *path = test_format("%s/s.dae", dir), *out = test_format("%s/out", dir);
	char *xnb = test_format("%s/s/animation.xnb", out), *anims, *text;
	size_t len;
	FILE *f;

	(void)state;
	f = open_memstream(&anims, &len);
	add_anim(f, "tr", NULL, "Root/location", "0 1 2", "0 0 0 5 0 0 10 0 0", 3, "STEP");
	add_anim(f, "rz", NULL, "Root/rotationZ.ANGLE", "0 0.5 1.5 2", "0 45 135 180", 1, "LINEAR");
	fclose(f);
	text = scene_text(anims);
	assert_true(test_write_file(path, text, strlen(text)));
	for (int o = 0; o < 2; o++) {
		test_sh("rm -rf '%s'", out);
		test_run r = test_animc("build", options[o][0], options[o][1], "-o", out, path, NULL);

		if (r.status != 0 || strstr(r.err, "[stepped-keys]") ||
		    (o == 1) != (strstr(r.err, "[compact-declined]") != NULL))
			fail_msg("%s%s", r.out, r.err);
		test_run_release(&r);
		for (int i = 0; i < STEP_TIMES; i++) {
			char *at = test_format("%.9g", step_time(i));

			r = test_animc("sample", "--json", "--time", at, xnb, NULL);
			const char *x = strstr(r.out, "\"translation\": [");
			if (r.status != 0 || !x || !(fabs(strtod(x + 16, NULL) - held_x[i]) < 1e-4))
				fail_msg("%s at %s s: %s%s", options[o][0], at, r.out, r.err);
			test_run_release(&r);
			free(at);
		}
	}
	free(text), free(anims), free(xnb), free(out), free(path), free(dir);
}

/* A bone scaled to 0 (a prop hidden), by its <scale> or by a <matrix> key:
 * Assimp reads each key's rotation back from its matrix, which holds none
 * at scale 0, and the bone turned a half turn on its way there (90
 * degrees at scale 0.5), with a warning blaming the file's quaternions.
 * The key takes its neighbour's rotation, with a zero-scale-key warning. */
static void a_bone_scaled_to_zero_keeps_its_rotation(void **state)
{
	static const struct {
		const char *target, *values, *transforms;
		int stride;
	} cases[] = {
		{ "Root/scale", "1 1 1 0 0 0", "        <rotate sid=\"rotationZ\">0 0 1 30</rotate>\n"
					       "        <scale sid=\"scale\">1 1 1</scale>\n", 3 },
		{ "Root/transform", "1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1",
		  "        <matrix sid=\"transform\">1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1</matrix>\n", 16 },
	};
	char *anims, *text;
	size_t len;
	imported r;
	FILE *f;

	(void)state;
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		double want[4];

		f = open_memstream(&anims, &len);
		add_anim(f, "s", NULL, cases[c].target, "0 1", cases[c].values, cases[c].stride, "LINEAR");
		fclose(f);
		text = scene_of(anims, cases[c].transforms);
		import_text(&r, text);
		assert_int_equal(r.status, ANIMC_OK);
		assert_int_equal(warnings_of(&r, "not-unit-quaternion"), 0);
		assert_int_equal(warnings_of(&r, "zero-scale-key"), 1);
		assert_non_null(strstr(warning_of(&r, "zero-scale-key"), "1 scale key is 0 on an axis (the first at 1 s)"));
		const animc_track *t = &r.set.clips[0]->channels[0].tracks[ANIMC_ROTATION];
		axis_quat(2, c == 0 ? 30 : 0, want);
		for (double s = 0; s <= 1; s += 1.0 / 8) {
			double got[4];

			played(t, s, got);
			if (degrees_between(want, got) > 1e-3)
				fail_msg("%s at %g s: %g degrees off", cases[c].target, s, degrees_between(want, got));
		}
		release(&r);
		free(text);
		free(anims);
	}
}

/* A <rotate> about the axis 0 0 0 (its ANGLE keyed, the whole rotate
 * keyed, or its own angle on a keyed node): Assimp's matrix about it is
 * the cosine of the angle times the identity, and the bone was scaled to
 * -4.4e-8 at 90 degrees, exit 0, without a word.  An error at the line of
 * the key, or of the <rotate>; an angle of 0 about it turns nothing. */
static void a_rotate_about_no_axis_fails_at_its_line(void **state)
{
	static const struct {
		const char *target, *times, *values, *rotate, *words, *line;
		int stride;
	} cases[] = {
		{ "Root/spin.ANGLE", "0 1", "0\n90", "0 0 0 0",
		  "channel 'Root/spin.ANGLE': key 1 (at 1 s) turns its <rotate> about the axis 0 0 0", "90</float_array>", 1 },
		{ "Root/spin", "0 1", "0 0 1 0\n0 0 0 90", "0 0 1 0",
		  "channel 'Root/spin': key 1 (at 1 s) turns its <rotate> about the axis 0 0 0", "0 0 0 90</float_array>", 4 },
		{ "Root/location", "0 1", "0 0 0 1 0 0", "0 0 0 90",
		  "node 'Root': its <rotate> 'spin' turns by 90 degrees about the axis 0 0 0",
		  "        <rotate sid=\"spin\">0 0 0 90</rotate>", 3 },
		{ "Root/location", "0 1", "0 0 0 1 0 0", "0 0 0 0", NULL, NULL, 3 },
	};
	char *anims, *text, *transforms;
	size_t len;
	imported r;
	FILE *f;

	(void)state;
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		f = open_memstream(&anims, &len);
		add_anim(f, "a", NULL, cases[c].target, cases[c].times, cases[c].values, cases[c].stride, "LINEAR");
		fclose(f);
		transforms = test_format("        <translate sid=\"location\">0 0 0</translate>\n"
					 "        <rotate sid=\"spin\">%s</rotate>\n", cases[c].rotate);
		text = scene_of(anims, transforms);
		import_text(&r, text);
		if (!cases[c].words) {
			assert_int_equal(r.status, ANIMC_OK);
			assert_float_equal(r.set.clips[0]->channels[0].tracks[ANIMC_SCALE].values[0], 1, 1e-6);
		} else {
			assert_one_error_at(&r, text, cases[c].words, cases[c].line);
		}
		release(&r);
		free(text), free(anims), free(transforms);
	}
}

/* An animation of `target` keyed `values` (`stride` floats a key, at 0 and
 * 1 s) on a node whose <`element` sid="`sid`"> holds `value`, after its
 * <translate sid="location">: `words` the one error expected, at the line
 * holding `line` (NULL: it compiles). */
typedef struct transform_case {
	const char *target, *values, *value, *words, *line;
	int stride;
} transform_case;

static void import_transform_cases(const transform_case *cases, size_t count, const char *element, const char *sid)
{
	char *anims, *text, *transforms;
	size_t len;
	imported r;
	FILE *f;

	for (size_t c = 0; c < count; c++) {
		f = open_memstream(&anims, &len);
		add_anim(f, "a", NULL, cases[c].target, "0 1", cases[c].values, cases[c].stride, "LINEAR");
		fclose(f);
		transforms = test_format("        <translate sid=\"location\">0 0 0</translate>\n"
					 "        <%s sid=\"%s\">%s</%s>\n", element, sid, cases[c].value, element);
		text = scene_of(anims, transforms);
		import_text(&r, text);
		if (!cases[c].words)
			assert_int_equal(r.status, ANIMC_OK);
		else
			assert_one_error_at(&r, text, cases[c].words, cases[c].line);
		release(&r);
		free(text), free(anims), free(transforms);
	}
}

/* A <matrix> whose last row is not 0 0 0 1 (a projection), keyed or on a
 * keyed node: Assimp dropped the row, and the file compiled, exit 0,
 * without a word.  An error at the line of the key's last row, or of the
 * <matrix>; a matrix of last row 0 0 0 1 compiles. */
static void a_projecting_matrix_fails_at_its_line(void **state)
{
	static const transform_case cases[] = {
		{ "Root/m", "1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1 1 0 0 0 0 1 0 0 0 0 1 0\n0 0 0.5 2", "1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1",
		  "channel 'Root/m': key 1 (at 1 s) is a matrix whose last row is not 0 0 0 1 (a projection)",
		  "0 0 0.5 2</float_array>", 16 },
		{ "Root/location", "0 0 0 1 0 0", "1 0 0 0 0 1 0 0 0 0 1 0 0 0 0.5 2",
		  "node 'Root': its <matrix> has a last row other than 0 0 0 1 (a projection)",
		  "        <matrix sid=\"m\">1 0 0 0 0 1 0 0 0 0 1 0 0 0 0.5 2</matrix>", 3 },
		{ "Root/m", "1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1 1 0 0 5 0 1 0 0 0 0 1 0 0 0 0 1", "1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1",
		  NULL, NULL, 16 },
	};
	(void)state;
	import_transform_cases(cases, sizeof cases / sizeof *cases, "matrix", "m");
}

/* A <matrix> (keyed, or on a keyed node) that scales an axis past 1.8e19:
 * Assimp splits it in floats, and the square of the scale is past the
 * largest float.  A key failed as "scale key 1 is infinite", naming no line
 * nor any value of the file (after a sheared-key warning); a node's own
 * <matrix> failed so at key 0.  An error at the line of the value, naming
 * it; 1.5e19 compiles. */
static void a_matrix_scaled_past_a_float_fails_at_its_line(void **state)
{
	static const transform_case cases[] = {
		{ "Root/m", "1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1\n0 0 0 0 0 1e30 0 0 0 0 1 0 0 0 0 1",
		  "1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1",
		  "channel 'Root/m': key 1 (at 1 s) is a matrix whose Y axis scales by 1e+30, past what a float holds",
		  "0 0 0 0 0 1e30 0 0 0 0 1 0 0 0 0 1</float_array>", 16 },
		{ "Root/location", "0 0 0 1 0 0", "1 0 0 0 0 1 0 0 0 0 -2e19 0 0 0 0 1",
		  "node 'Root': its <matrix> scales its Z axis by -2e+19, past what a float holds",
		  "        <matrix sid=\"m\">1 0 0 0 0 1 0 0 0 0 -2e19 0 0 0 0 1</matrix>", 3 },
		{ "Root/location", "0 0 0 1 0 0", "1.5e19 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1", NULL, NULL, 3 },
	};
	(void)state;
	import_transform_cases(cases, sizeof cases / sizeof *cases, "matrix", "m");
}

/* A <scale> past 1.8e19, keyed (whole or one axis) or on a keyed node:
 * Assimp composes it into the node's matrix and splits that in floats, so
 * it failed as "scale key 0 is infinite" (after a sheared-key warning),
 * naming no line nor any value of the file.  An error at the line of the
 * value, naming it; 1e19 compiles. */
static void a_scale_past_a_float_fails_at_its_line(void **state)
{
	static const transform_case cases[] = {
		{ "Root/s", "1 1 1\n1e30 1 1", "1 1 1",
		  "channel 'Root/s': key 1 (at 1 s) scales by 1e+30, past what a float holds", "1e30 1 1</float_array>",
		  3 },
		{ "Root/s.Y", "1\n-5e19", "1 1 1", "channel 'Root/s.Y': key 1 (at 1 s) scales by -5e+19, past what a "
		  "float holds", "-5e19</float_array>", 1 },
		{ "Root/location", "0 0 0 1 0 0", "1 2e19 1",
		  "node 'Root': its <scale> scales its Y axis by 2e+19, past what a float holds",
		  "        <scale sid=\"s\">1 2e19 1</scale>", 3 },
		{ "Root/location", "0 0 0 1 0 0", "1e19 2 1", NULL, NULL, 3 },
	};
	(void)state;
	import_transform_cases(cases, sizeof cases / sizeof *cases, "scale", "s");
}

/* A key whose matrix shears (a <scale> of unequal axes before a <rotate>,
 * composed by Assimp into S * R): its rotation, Assimp's split of it, is
 * off unit length, and the warning blamed the exporter's quaternions,
 * which a COLLADA file of angles does not have.  It says the shear. */
static void a_sheared_key_is_said_as_a_shear(void **state)
{
	char *anims, *text;
	size_t len;
	imported r;
	FILE *f;

	(void)state;
	f = open_memstream(&anims, &len);
	add_anim(f, "rz", NULL, "Root/rz.ANGLE", "0 1", "0 45", 1, "LINEAR");
	fclose(f);
	text = scene_of(anims, "        <scale sid=\"s\">1 2 1</scale>\n        <rotate sid=\"rz\">0 0 1 0</rotate>\n");
	import_text(&r, text);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(warnings_of(&r, "not-unit-quaternion"), 0);
	assert_int_equal(warnings_of(&r, "sheared-key"), 1);
	assert_non_null(strstr(warning_of(&r, "sheared-key"), "bone 'Root': the key at 1 s shears"));
	release(&r);
	free(text), free(anims);
}

/* An angle keyed to 1e30 degrees: Assimp keys a <rotate> every quarter
 * turn, and the import ran out of its memory limit (2 GB, 6 s) with a
 * message blaming a damaged count.  An error at the line of the key past
 * 2^20 quarter turns, before Assimp reads the file; 100 turns compile. */
static void an_endless_turn_fails_at_its_line(void **state)
{
	char *anims, *text;
	size_t len;
	imported r;
	FILE *f;

	(void)state;
	f = open_memstream(&anims, &len);
	add_anim(f, "rz", NULL, "Root/rotationZ.ANGLE", "0 1 2", "0\n36000\n1e30", 1, "LINEAR");
	fclose(f);
	text = scene_text(anims);
	import_text(&r, text);
	assert_one_error_at(&r, text,
			    "channel 'Root/rotationZ.ANGLE': by key 2 (1e+30 degrees) the angle has "
			    "turned more than 1048576 quarter turns",
			    "1e30</float_array>");
	release(&r);
	free(text), free(anims);

	f = open_memstream(&anims, &len);
	add_anim(f, "rz", NULL, "Root/rotationZ.ANGLE", "0 1", "0 36000", 1, "LINEAR");
	import_anims(&r, f, &anims);
	assert_int_equal(r.status, ANIMC_OK);
	release(&r);
}

/* `text` with its first `from` replaced by `to` (a new string). */
static char *replaced(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);

	assert_non_null(at);
	return test_format("%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
}

/* Whether importing `text` in a child process returns (it does not crash
 * the program that imports). */
static bool import_returns(const char *text)
{
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		imported r;

		import_text(&r, text);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* The line of `text` that holds `part`, whole (a new string). */
static char *line_holding(const char *text, const char *part)
{
	const char *at = strstr(text, part), *start, *end;

	assert_non_null(at);
	for (start = at; start > text && start[-1] != '\n'; start--)
		;
	end = strchr(at, '\n');
	return test_format("%.*s", (int)(end ? end - start : (ptrdiff_t)strlen(start)), start);
}

/* An <accessor> whose keys Assimp reads past its <float_array> (a float4x4
 * <param> at a stride of 3, an array short of a key, a time accessor
 * counting more keys than its array holds), or writes past the node's
 * 16-value transform (a float4x4 from .Z on): Assimp crashed, and with it
 * a program importing in its own process.  One whose <param>s give more
 * values than its stride, over an array long enough, made Assimp read
 * each key over the next one's values, and compiled.  An error at the line of the
 * accessor, before Assimp reads the file; a fitting one compiles. */
static void an_accessor_past_its_array_fails_at_its_line(void **state)
{
	static const char m16[] = "1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1 1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1";
	static const struct {
		const char *target, *values, *from, *to, *words;
		int params;
	} cases[] = {
		{ "Root/m", "0 0 0 1 0 0", "stride=\"16\"", "stride=\"3\"",
		  "channel 'Root/m': its OUTPUT <accessor> reads 16 values a key (its <param>s: a float4x4 is 16) at a "
		  "stride of 3, and its 2 keys reach past the 6 numbers of its <float_array>", 16 },
		{ "Root/location.Z", m16, "stride=\"16\"", "stride=\"16\"",
		  "channel 'Root/location.Z': its OUTPUT <accessor>'s <param>s give 16 values a key, and from its "
		  "target's component 2 a transform holds 14", 16 },
		{ "Root/location", "0 0 0 1 0", "stride=\"3\"", "stride=\"3\"",
		  "its OUTPUT <accessor> reads 3 values a key (its <param>s: a float4x4 is 16) at a stride of 3, and "
		  "its 2 keys reach past the 5 numbers", 3 },
		{ "Root/location", "0 0 0 1 0 0 2 0 0", "#a-in-a\" count=\"2\"", "#a-in-a\" count=\"3\"",
		  "its INPUT <accessor> reads 1 value a key (its <param>s: a float4x4 is 16) at a stride of 1, and its "
		  "3 keys reach past the 2 numbers", 3 },
		{ "Root/m", "1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1 0 0 1", "stride=\"16\"", "stride=\"3\"",
		  "channel 'Root/m': its OUTPUT <accessor>'s <param>s give 16 values a key (a float4x4 is 16), more "
		  "than its stride of 3: Assimp reads each key over the values of the next", 16 },
		{ "Root/location", "0 0 0 1 0 0", "stride=\"3\"", "stride=\"2\"",
		  "its OUTPUT <accessor>'s <param>s give 3 values a key (a float4x4 is 16), more than its stride of 2",
		  3 },
		{ "Root/location", "0 0 0 1 0 0", "stride=\"3\"", "stride=\"3\"", NULL, 3 },
	};
	char *anims, *text, *transforms, *line;
	size_t len;
	imported r;
	FILE *f;

	(void)state;
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		f = open_memstream(&anims, &len);
		add_anim(f, "a", NULL, cases[c].target, "0 1", cases[c].values, cases[c].params, "LINEAR");
		fclose(f);
		transforms = test_format("        <translate sid=\"location\">0 0 0</translate>\n"
					 "        <matrix sid=\"m\">%.31s</matrix>\n", m16);
		line = scene_of(anims, transforms);
		text = replaced(line, cases[c].from, cases[c].to);
		free(line);
		if (!import_returns(text))
			fail_msg("case %zu: the import crashed", c);
		import_text(&r, text);
		if (!cases[c].words) {
			assert_int_equal(r.status, ANIMC_OK);
		} else {
			line = line_holding(text, cases[c].to);
			assert_one_error_at(&r, text, cases[c].words, line);
			free(line);
		}
		release(&r);
		free(text), free(anims), free(transforms);
	}
}

/* A <skew> on a node: Assimp 5.2 reads it and then stops on it (an
 * assertion where it composes the node's transforms), so the build lost
 * its worker and the file failed as "the assimp importer crashed",
 * naming nothing (a program importing in its own process died).  An error
 * at the line of the <skew>, before Assimp reads the file. */
static void a_skew_fails_at_its_line(void **state)
{
	static const transform_case cases[] = {
		{ "Root/location", "0 0 0 1 0 0", "45 0 1 0 1 0 0",
		  "node 'Root': a <skew>, which Assimp cannot read (it stops on it",
		  "        <skew sid=\"k\">45 0 1 0 1 0 0</skew>", 3 },
	};
	(void)state;
	import_transform_cases(cases, sizeof cases / sizeof *cases, "skew", "k");
}

/* A <lookat> (on a keyed node, or keyed) whose up is not perpendicular to
 * its view: COLLADA viewers make it so, as gluLookAt does; Assimp put the
 * up as written in the matrix, and the bone compiled turned 0.4 rad from
 * the view (up 0 1 0 looking along 1 1 0), under a sheared-key warning
 * that asked to move a <scale> the node did not have.  An error at the
 * line of the values, giving the up the viewers use; one with no view
 * (eye at the interest, up along the view) too; a perpendicular up, as
 * written to six digits, compiles. */
static void a_lookat_of_a_slanted_up_fails_at_its_line(void **state)
{
	static const transform_case cases[] = {
		{ "Root/location", "0 0 0 1 0 0", "0 0 0 1 1 0 0 1 0",
		  "node 'Root': its <lookat> has an up (0 1 0) that is not perpendicular to its view (eye to "
		  "interest): COLLADA viewers make it so, as gluLookAt does, and Assimp does not (it builds a sheared "
		  "matrix, whose rotation is not the view's); write the up they use, -0.707107 0.707107 0",
		  "        <lookat sid=\"l\">0 0 0 1 1 0 0 1 0</lookat>", 3 },
		{ "Root/l", "0 0 0 0 0 -1 0 1 0\n0 0 0 0 1 1 0 1 0", "0 0 0 0 0 -1 0 1 0",
		  "node 'Root': key 1 of its <lookat> has an up (0 1 0) that is not perpendicular to its view",
		  "0 0 0 0 1 1 0 1 0</float_array>", 9 },
		{ "Root/location", "0 0 0 1 0 0", "1 2 3 1 2 3 0 1 0",
		  "node 'Root': its <lookat> has its eye and interest at one point (no view direction), which makes "
		  "no rotation", "        <lookat sid=\"l\">1 2 3 1 2 3 0 1 0</lookat>", 3 },
		{ "Root/location", "0 0 0 1 0 0", "0 0 0 0 2 0 0 1 0",
		  "node 'Root': its <lookat> has an up along its view direction, which makes no rotation",
		  "        <lookat sid=\"l\">0 0 0 0 2 0 0 1 0</lookat>", 3 },
		{ "Root/location", "0 0 0 1 0 0", "0 0 0 1 2 0 -0.894427 0.447214 0", NULL, NULL, 3 },
	};
	(void)state;
	import_transform_cases(cases, sizeof cases / sizeof *cases, "lookat", "l");
}

/* A <lookat> holding a value no float holds (inf, nan, past 3.4e38), or an
 * up or a view whose length Assimp cannot normalise in floats (its square
 * past the largest float, or 0 in one): Assimp builds the matrix in
 * floats.  An infinite up was said as "an up of 0 0 0", an infinite eye
 * as "its eye and interest at one point", which the file does not hold;
 * an up of 1e39 failed as "rotation key 0 is NaN", naming no line, and
 * one of 1e20 or 1e-30 compiled to a scale of 0 under a zero-scale-key
 * warning.  An error at the line of the value, naming it; an up of 1e18
 * compiles. */
static void a_lookat_of_values_no_float_holds_fails_at_its_line(void **state)
{
	static const transform_case cases[] = {
		{ "Root/location", "0 0 0 1 0 0", "0 0 0 1 0 0 0 inf 0",
		  "node 'Root': its <lookat> has an up whose y is infinite (inf), which makes no rotation: Assimp "
		  "builds its matrix in floats", "        <lookat sid=\"l\">0 0 0 1 0 0 0 inf 0</lookat>", 3 },
		{ "Root/location", "0 0 0 1 0 0", "0 0 0 1 0 0 0 1e39 0",
		  "node 'Root': its <lookat> has an up whose y is 1e+39, past what a float holds (3.4e+38)",
		  "        <lookat sid=\"l\">0 0 0 1 0 0 0 1e39 0</lookat>", 3 },
		{ "Root/location", "0 0 0 1 0 0", "0 0 0 -inf 0 0 0 1 0",
		  "node 'Root': its <lookat> has an interest whose x is infinite (-inf)",
		  "        <lookat sid=\"l\">0 0 0 -inf 0 0 0 1 0</lookat>", 3 },
		{ "Root/l", "0 0 0 0 0 -1 0 1 0\n0 0 0 0 0 -1 0 1e20 0", "0 0 0 0 0 -1 0 1 0",
		  "node 'Root': key 1 of its <lookat> has an up so long that its length squared is past what a float holds",
		  "0 0 0 0 0 -1 0 1e20 0</float_array>", 9 },
		{ "Root/location", "0 0 0 1 0 0", "0 0 0 1 0 0 0 1e20 0",
		  "node 'Root': its <lookat> has an up so long that its length squared is past what a float holds",
		  "        <lookat sid=\"l\">0 0 0 1 0 0 0 1e20 0</lookat>", 3 },
		{ "Root/location", "0 0 0 1 0 0", "0 0 0 1 0 0 0 1e-30 0",
		  "node 'Root': its <lookat> has an up so short that its length squared is 0 in a float",
		  "        <lookat sid=\"l\">0 0 0 1 0 0 0 1e-30 0</lookat>", 3 },
		{ "Root/location", "0 0 0 1 0 0", "0 0 0 1e20 0 0 0 1 0",
		  "node 'Root': its <lookat> has a view (eye to interest) so long that its length squared is past",
		  "        <lookat sid=\"l\">0 0 0 1e20 0 0 0 1 0</lookat>", 3 },
		{ "Root/location", "0 0 0 1 0 0", "0 0 0 1 0 0 0 1e18 0", NULL, NULL, 3 },
	};
	(void)state;
	import_transform_cases(cases, sizeof cases / sizeof *cases, "lookat", "l");
}

/* A <lookat> whose up is perpendicular to its view as an exporter rounds
 * it compiles, as it did, on a keyed node or in a key: to 3 decimals
 * (2.4e-4 off, as the |cos| of the angle between up and view), or 0.0009
 * off, within what animc takes for no shear between a matrix's axes
 * (ANIMC_DECOMPOSE_SHEAR_TOLERANCE).  They failed past 1e-4; 0.002 off
 * fails. */
static void a_lookat_of_an_up_rounded_by_its_exporter_compiles(void **state)
{
	static const transform_case cases[] = {
		{ "Root/location", "0 0 0 1 0 0", "1 2 3 -2.3 0.7 5.1 -0.266 0.949 0.169", NULL, NULL, 3 },
		{ "Root/l", "0 0 0 0 0 -1 0 1 0\n1 2 3 -2.3 0.7 5.1 -0.266 0.949 0.169", "0 0 0 0 0 -1 0 1 0", NULL,
		  NULL, 9 },
		{ "Root/location", "0 0 0 1 0 0", "0 10 0 0 0 0 0 0.0009 -1", NULL, NULL, 3 },
		{ "Root/location", "0 0 0 1 0 0", "0 10 0 0 0 0 0 0.002 -1",
		  "node 'Root': its <lookat> has an up (0 0.002 -1) that is not perpendicular to its view (eye to "
		  "interest): COLLADA viewers make it so, as gluLookAt does, and Assimp does not (it builds a sheared "
		  "matrix, whose rotation is not the view's); write the up they use, 0 0 -1",
		  "        <lookat sid=\"l\">0 10 0 0 0 0 0 0.002 -1</lookat>", 3 },
	};
	(void)state;
	import_transform_cases(cases, sizeof cases / sizeof *cases, "lookat", "l");
}

/* A <lookat> of fewer than 9 numbers gives no up to judge, and Assimp
 * refuses it (it cannot read the numbers it lacks): the error is Assimp's.
 * It was said to have "an up of 0 0 0", which the file does not give. */
static void a_lookat_short_of_numbers_is_refused_by_assimp(void **state)
{
	char *anims, *text, *transforms;
	size_t len;
	imported r;
	FILE *f;

	(void)state;
	f = open_memstream(&anims, &len);
	add_anim(f, "a", NULL, "Root/location", "0 1", "0 0 0 1 0 0", 3, "LINEAR");
	fclose(f);
	transforms = test_format("        <translate sid=\"location\">0 0 0</translate>\n"
				 "        <lookat sid=\"l\">0 0 0 1 0 0</lookat>\n");
	text = scene_of(anims, transforms);
	import_text(&r, text);
	assert_int_not_equal(r.status, ANIMC_OK);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_ERROR), 1);
	const char *said = test_diags_first(&r.diags, ANIMC_ERROR)->message;
	if (strncmp(said, "Assimp cannot read this file: ", 30) != 0 || strstr(said, "<lookat>"))
		fail_msg("said: %s", said);
	release(&r);
	free(text), free(anims), free(transforms);
}

/* An accessor of one key whose <param>s give more values than its stride
 * (one that states none: 1) has no next key to read over: Assimp reads the
 * key's values as the file gives them, and it compiles, as it did.  It was
 * refused as one that "reads each key over the values of the next". */
static void a_one_key_accessor_under_its_params_compiles(void **state)
{
	char *anims, *text, *transforms, *line;
	size_t len;
	imported r;
	FILE *f;

	(void)state;
	f = open_memstream(&anims, &len);
	add_anim(f, "a", NULL, "Root/location", "0", "0 0 1", 3, "LINEAR");
	fclose(f);
	transforms = test_format("        <translate sid=\"location\">0 0 0</translate>\n");
	line = scene_of(anims, transforms);
	text = replaced(line, "stride=\"3\"", "stride=\"1\"");
	free(line);
	import_text(&r, text);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(r.set.count, 1);
	release(&r);
	free(text), free(anims), free(transforms);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(step_matrix_keys_are_held),
	cmocka_unit_test(step_keys_not_read_are_said),
	cmocka_unit_test(step_keys_survive_a_lossy_build),
	cmocka_unit_test(step_keys_are_held_from_the_file),
	cmocka_unit_test(rotates_keyed_together_get_keys_from_the_file),
	cmocka_unit_test(backwards_key_times_fail_at_their_line),
	cmocka_unit_test(a_nan_angle_is_one_error_at_its_line),
	cmocka_unit_test(clips_take_the_names_the_file_gives),
	cmocka_unit_test(a_bone_scaled_to_zero_keeps_its_rotation),
	cmocka_unit_test(a_rotate_about_no_axis_fails_at_its_line),
	cmocka_unit_test(a_projecting_matrix_fails_at_its_line),
	cmocka_unit_test(a_matrix_scaled_past_a_float_fails_at_its_line),
	cmocka_unit_test(a_scale_past_a_float_fails_at_its_line),
	cmocka_unit_test(a_sheared_key_is_said_as_a_shear),
	cmocka_unit_test(an_endless_turn_fails_at_its_line),
	cmocka_unit_test(an_accessor_past_its_array_fails_at_its_line),
	cmocka_unit_test(a_skew_fails_at_its_line),
	cmocka_unit_test(a_lookat_of_a_slanted_up_fails_at_its_line),
	cmocka_unit_test(a_lookat_of_values_no_float_holds_fails_at_its_line),
	cmocka_unit_test(a_lookat_short_of_numbers_is_refused_by_assimp),
	cmocka_unit_test(a_lookat_of_an_up_rounded_by_its_exporter_compiles),
	cmocka_unit_test(a_one_key_accessor_under_its_params_compiles),
};

ANIMC_TEST_GROUP(tests);
