/*
 * fbx_test.c - FBX files Assimp 5.2.5 reads wrongly, written here as ASCII
 * FBX 7.4, and as binary FBX by scripts/fbx-binary (its arrays compressed
 * with zlib, or damaged): what the importer mends from the file's own
 * bytes, and what it says.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "assimp_internal.h"
#include "fbx_doc.h"

#define KT_PER_FRAME (46186158000.0 / 30)   /* TimeMode 6: 30 fps */
#define PI 3.14159265358979323846

/* ------------------------------------------------------- writing a file */

typedef struct fbx_writer {
	FILE *objects, *conns;
	const char *flags, *runs;   /* KeyAttrFlags, KeyAttrRefCount of the next curves; NULL: linear */
	char *objects_text, *conns_text;
	size_t objects_len, conns_len;
	const char *definitions;   /* the Definitions section's text, or NULL for none */
} fbx_writer;

static void writer_init(fbx_writer *w)
{
	memset(w, 0, sizeof *w);
	w->objects = open_memstream(&w->objects_text, &w->objects_len);
	w->conns = open_memstream(&w->conns_text, &w->conns_len);
	assert_non_null(w->objects);
	assert_non_null(w->conns);
}

/* A Model of `id` under `parent` (0: the scene's root), with `props`
 * (Properties70 P lines, separated by newlines). */
static void add_model(fbx_writer *w, long id, const char *name, long parent, const char *props)
{
	fprintf(w->objects, "\tModel: %ld, \"Model::%s\", \"LimbNode\" {\n\t\tVersion: 232\n"
		"\t\tProperties70:  {\n%s\n\t\t}\n\t}\n", id, name, props);
	fprintf(w->conns, "\tC: \"OO\",%ld,%ld\n", id, parent);
}

/* An AnimationStack, its LocalStart and LocalStop in frames (both < 0:
 * none). */
static void add_stack(fbx_writer *w, long id, const char *name, double start, double stop)
{
	fprintf(w->objects, "\tAnimationStack: %ld, \"AnimStack::%s\", \"\" {\n\t\tProperties70:  {\n", id, name);
	if (start >= 0)
		fprintf(w->objects, "\t\t\tP: \"LocalStart\", \"KTime\", \"Time\", \"\",%.0f\n"
			"\t\t\tP: \"LocalStop\", \"KTime\", \"Time\", \"\",%.0f\n",
			start * KT_PER_FRAME, stop * KT_PER_FRAME);
	fprintf(w->objects, "\t\t}\n\t}\n");
}

static void add_layer(fbx_writer *w, long id, const char *name, long stack)
{
	fprintf(w->objects, "\tAnimationLayer: %ld, \"AnimLayer::%s\", \"\" {\n\t}\n", id, name);
	fprintf(w->conns, "\tC: \"OO\",%ld,%ld\n", id, stack);
}

/* How many numbers a list "1,2,3" holds. */
static unsigned numbers_in(const char *list)
{
	unsigned n = 1;

	for (; *list; list++)
		n += *list == ',';
	return n;
}

/* The writer's KeyAttrFlags and KeyAttrRefCount, and the curve's end. */
static void add_key_attrs(fbx_writer *w)
{
	unsigned n = numbers_in(w->flags);

	fprintf(w->objects, "\n\t\t}\n\t\tKeyAttrFlags: *%u {\n\t\t\ta: %s\n\t\t}\n\t\tKeyAttrDataFloat: *%u {\n\t\t\ta: 0",
		n, w->flags, 4 * n);
	for (unsigned i = 1; i < 4 * n; i++)
		fprintf(w->objects, ",0");
	fprintf(w->objects, "\n\t\t}\n\t\tKeyAttrRefCount: *%u {\n\t\t\ta: %s\n\t\t}\n\t}\n", numbers_in(w->runs),
		w->runs);
}

/* The curve node of `prop` of `model` in `layer`, and one curve for each
 * of `axes` ("XZ"), each keyed at `frames` with `values[axis][key]`. */
static void add_curves(fbx_writer *w, long id, long layer, long model, const char *prop, const char *axes,
		       unsigned n, const double *frames, const double values[][8])
{
	fprintf(w->objects, "\tAnimationCurveNode: %ld, \"AnimCurveNode::%c\", \"\" {\n\t}\n", id, prop[4]);
	fprintf(w->conns, "\tC: \"OO\",%ld,%ld\n\tC: \"OP\",%ld,%ld, \"%s\"\n", id, layer, id, model, prop);
	for (unsigned a = 0; axes[a]; a++) {
		long cid = id * 10 + a + 1;

		fprintf(w->objects, "\tAnimationCurve: %ld, \"AnimCurve::\", \"\" {\n\t\tDefault: 0\n"
			"\t\tKeyVer: 4009\n\t\tKeyTime: *%u {\n\t\t\ta: ", cid, n);
		for (unsigned k = 0; k < n; k++)
			fprintf(w->objects, "%s%.0f", k ? "," : "", frames[k] * KT_PER_FRAME);
		fprintf(w->objects, "\n\t\t}\n\t\tKeyValueFloat: *%u {\n\t\t\ta: ", n);
		for (unsigned k = 0; k < n; k++)
			fprintf(w->objects, "%s%.9g", k ? "," : "", values[a][k]);
		if (w->flags)
			add_key_attrs(w);
		else
			fprintf(w->objects, "\n\t\t}\n\t\tKeyAttrFlags: *1 {\n\t\t\ta: 4\n\t\t}\n"
				"\t\tKeyAttrDataFloat: *4 {\n\t\t\ta: 0,0,255790911,0\n\t\t}\n"
				"\t\tKeyAttrRefCount: *1 {\n\t\t\ta: %u\n\t\t}\n\t}\n", n);
		fprintf(w->conns, "\tC: \"OP\",%ld,%ld, \"d|%c\"\n", cid, id, axes[a]);
	}
}

/* The whole file (free it); the writer is released. */
static char *writer_text(fbx_writer *w)
{
	fclose(w->objects);
	fclose(w->conns);
	char *text = test_format(
		"; FBX 7.4.0 project file\nFBXHeaderExtension:  {\n\tFBXHeaderVersion: 1003\n\tFBXVersion: 7400\n}\n"
		"GlobalSettings:  {\n\tVersion: 1000\n\tProperties70:  {\n"
		"\t\tP: \"UpAxis\", \"int\", \"Integer\", \"\",1\n"
		"\t\tP: \"TimeMode\", \"enum\", \"\", \"\",6\n\t}\n}\n%s%s%s"
		"Objects:  {\n%s}\nConnections:  {\n%s}\n", w->definitions ? "Definitions:  {\n" : "",
		w->definitions ? w->definitions : "", w->definitions ? "}\n" : "", w->objects_text, w->conns_text);
	free(w->objects_text);
	free(w->conns_text);
	return text;
}

/* ---------------------------------------------------------- importing */

typedef struct imported {
	animc_status status;
	animc_clip_set set;
	test_diags diags;
	animc_diag_sink sink;
} imported;

static void import_bytes(imported *r, const uint8_t *data, size_t size)
{
	animc_import_request req = { NULL, data, size, NULL };

	memset(r, 0, sizeof *r);
	r->diags.echo = getenv("ANIMC_TEST_ECHO") != NULL;
	r->sink = test_diag_sink(&r->diags, NULL);
	r->status = animc_importer_assimp.import(&req, &r->set, &r->sink);
}

static void import_text(imported *r, const char *text)
{
	import_bytes(r, (const uint8_t *)text, strlen(text));
}

/* `text` written as binary FBX by scripts/fbx-binary (its arrays
 * compressed with zlib, as FBX SDK 7.x exporters write them), given
 * `options` (NULL-terminated); free it. */
static uint8_t *binary_of(const char *text, const char *const *options, size_t *size)
{
	char *dir = test_tmpdir("fbx-binary"), *in = test_format("%s/in.fbx", dir), *out = test_format("%s/out.fbx", dir);
	const char *argv[16] = { "python3", "scripts/fbx-binary" };
	size_t n = 2;

	for (; options && *options && n < 13; options++)
		argv[n++] = *options;
	argv[n++] = in;
	argv[n++] = out;
	assert_true(test_write_file(in, text, strlen(text)));
	test_run run = test_execv(argv);
	if (run.status != 0)
		fail_msg("scripts/fbx-binary: %s", run.err);
	test_run_release(&run);
	uint8_t *data = test_read_file(out, size);
	free(in), free(out), free(dir);
	return data;
}

static void release(imported *r)
{
	animc_clip_set_release(&r->set);
	test_diags_release(&r->diags);
}

static const animc_channel *channel_named(const animc_clip *clip, const char *bone)
{
	for (uint32_t i = 0; i < clip->channel_count; i++)
		if (strcmp(clip->channels[i].bone, bone) == 0)
			return &clip->channels[i];
	fail_msg("clip '%s' has no bone '%s'", clip->name, bone);
	return NULL;
}

/* The value of a track at `time_s` (its key there). */
static const float *key_at(const animc_track *t, unsigned width, double time_s)
{
	for (uint32_t i = 0; i < t->value_count; i++)
		if (fabs(t->times_s[i] - time_s) < 1e-5)
			return &t->values[(size_t)i * width];
	fail_msg("no key at %g s", time_s);
	return NULL;
}

/* How many warnings of kind `kind` were given. */
static size_t warnings_of(const imported *r, const char *kind)
{
	size_t n = 0;

	for (size_t i = 0; i < r->diags.count; i++)
		n += r->diags.items[i].severity == ANIMC_WARNING && r->diags.items[i].kind &&
		     strcmp(r->diags.items[i].kind, kind) == 0;
	return n;
}

/* The first warning of kind `kind` (it must be there). */
static const char *warning_of(const imported *r, const char *kind)
{
	for (size_t i = 0; i < r->diags.count; i++)
		if (r->diags.items[i].severity == ANIMC_WARNING && r->diags.items[i].kind &&
		    strcmp(r->diags.items[i].kind, kind) == 0)
			return r->diags.items[i].message;
	fail_msg("no %s warning", kind);
	return NULL;
}

/* ------------------------------------------------------------ rotations */

/* x y z w of a turn of `deg` degrees about axis 0, 1 or 2. */
static void axis_quat(int axis, double deg, double q[4])
{
	q[0] = q[1] = q[2] = 0;
	q[axis] = sin(deg * PI / 360);
	q[3] = cos(deg * PI / 360);
}

/* a * b, x y z w. */
static void quat_mul(const double a[4], const double b[4], double out[4])
{
	double r[4] = { a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
			a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
			a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
			a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2] };

	memcpy(out, r, sizeof r);
}

static void assert_turn(const float *got, const double want[4], double tolerance)
{
	double dot = 0;

	for (int i = 0; i < 4; i++)
		dot += got[i] * want[i];
	if (!(fabs(dot) >= 1 - tolerance))
		fail_msg("rotation (%g %g %g %g), expected +-(%g %g %g %g)", (double)got[0], (double)got[1],
			 (double)got[2], (double)got[3], want[0], want[1], want[2], want[3]);
}

/* --------------------------------------------------------------- tests */

#define POST_PROPS                                                       \
	"\t\t\tP: \"RotationActive\", \"bool\", \"\", \"\",1\n"          \
	"\t\t\tP: \"PostRotation\", \"Vector3D\", \"Vector\", \"\",0,40,0\n" \
	"\t\t\tP: \"Lcl Rotation\", \"Lcl Rotation\", \"\", \"A\",0,0,30\n"  \
	"\t\t\tP: \"Lcl Scaling\", \"Lcl Scaling\", \"\", \"A\",1,2,1"

/* The FBX local rotation is R * Rpost^-1: Assimp 5.2.5 gave R * Rpost, 80
 * degrees off for a PostRotation of 40 (3ds Max, MotionBuilder and Maya's
 * rotate axis write one).  The keys and the rest pose (--skeleton) alike. */
static void post_rotation_enters_inverted(void **state)
{
	static const double frames[] = { 0, 10 }, z[][8] = { { 0, 90 } };
	fbx_writer w;
	imported r;
	double post[4], want[4], turn[4];

	(void)state;
	writer_init(&w);
	add_model(&w, 10, "Bone", 0, POST_PROPS);
	add_stack(&w, 20, "Take 001", 0, 10);
	add_layer(&w, 21, "BaseLayer", 20);
	add_curves(&w, 30, 21, 10, "Lcl Rotation", "Z", 2, frames, z);
	char *text = writer_text(&w);
	import_text(&r, text);
	assert_int_equal(r.status, ANIMC_OK);
	const animc_track *t = &channel_named(r.set.clips[0], "Bone")->tracks[ANIMC_ROTATION];
	axis_quat(1, -40, post);
	for (int k = 0; k < 2; k++) {
		axis_quat(2, z[0][k], turn);
		quat_mul(turn, post, want);
		assert_turn(key_at(t, 4, frames[k] / 30), want, 1e-6);
	}
	release(&r);

	/* The rest pose: Rz(30) * Rpost^-1, the scale (1, 2, 1) kept. */
	char *dir = test_tmpdir("fbx-post"), *path = test_format("%s/post.fbx", dir);
	animc_skeleton skel;
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, path);

	assert_true(test_write_file(path, text, strlen(text)));
	assert_int_equal(animc_assimp_skeleton_load(path, &skel, &sink), ANIMC_OK);
	axis_quat(2, 30, turn);
	quat_mul(turn, post, want);
	uint32_t found = 0;
	for (uint32_t i = 0; i < skel.bone_count; i++)
		if (strcmp(skel.bones[i].name, "Bone") == 0) {
			assert_turn(skel.bones[i].rotation, want, 1e-6);
			assert_true(fabs(skel.bones[i].scale[1] - 2) < 1e-5);
			found++;
		}
	assert_int_equal(found, 1);
	animc_skeleton_release(&skel);
	test_diags_release(&diags);
	free(path), free(dir), free(text);
}

/* R(q) * diag(s): q x y z w. */
static void rotation_scale(const double q[4], const double s[3], double m[3][3])
{
	double x = q[0], y = q[1], z = q[2], w = q[3], r[3][3] = {
		{ 1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y) },
		{ 2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x) },
		{ 2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y) } };

	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			m[i][j] = r[i][j] * s[j];
}

/* The bone's rotation and scale at `time_s` make R(want) * diag(scale). */
static void assert_pose(const animc_channel *c, double time_s, const double want[4], const double scale[3])
{
	const float *q = key_at(&c->tracks[ANIMC_ROTATION], 4, time_s), *s = key_at(&c->tracks[ANIMC_SCALE], 3, time_s);
	const double got_q[4] = { q[0], q[1], q[2], q[3] }, got_s[3] = { s[0], s[1], s[2] };
	double got[3][3], expected[3][3];

	rotation_scale(got_q, got_s, got);
	rotation_scale(want, scale, expected);
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			if (!(fabs(got[i][j] - expected[i][j]) < 1e-5))
				fail_msg("at %g s: entry %d,%d is %g, expected %g", time_s, i, j, got[i][j], expected[i][j]);
}

/* One bone's take: Lcl Scaling keyed on `scale_axes`, Lcl Rotation Z from
 * `from` to `to` degrees, over frames 0, 5, 10, `props` its Properties70;
 * with `twice`, its scale X keyed in a second layer too. */
static char *scaled_take(const char *scale_axes, const double scale[][8], double from, double to, const char *props,
			 bool twice)
{
	static const double frames[] = { 0, 5, 10 };
	const double z[][8] = { { from, (from + to) / 2, to } };
	fbx_writer w;

	writer_init(&w);
	add_model(&w, 10, "Bone", 0, props);
	add_stack(&w, 20, "Take 001", 0, 10);
	add_layer(&w, 21, "BaseLayer", 20);
	add_curves(&w, 30, 21, 10, "Lcl Scaling", scale_axes, 3, frames, scale);
	add_curves(&w, 40, 21, 10, "Lcl Rotation", "Z", 3, frames, z);
	if (twice) {
		add_layer(&w, 22, "AnimLayer1", 20);
		add_curves(&w, 50, 22, 10, "Lcl Scaling", "X", 3, frames, scale);
	}
	return writer_text(&w);
}

/* A bone scaled to 0 (a prop hidden): Assimp reads the key's rotation
 * back from a matrix of scale 0, a half turn, and the bone spun 140
 * degrees on its way there, with a warning blaming the exporter's
 * quaternions.  The bone is rebuilt from its curves (a scale of 0 on one
 * axis too, and a negative scale under a PostRotation, which Assimp's
 * matrix gives with another rotation); where the curves cannot be read
 * exactly, the key takes its neighbour's rotation, and the warning names
 * the zero scale. */
static void zero_scale_key_keeps_the_rotation(void **state)
{
	static const double gone[][8] = { { 1, 0.5, 0 }, { 1, 0.5, 0 }, { 1, 0.5, 0 } }, flat[][8] = { { 1, 0.5, 0 } };
	static const double mirror[][8] = { { -1, -1, -1 } };
	imported r;
	double want[4], post[4], turn[4];

	(void)state;
	for (int twice = 0; twice < 2; twice++) {
		char *text = scaled_take("XYZ", gone, 40, 40, "", twice);
		import_text(&r, text);
		assert_int_equal(r.status, ANIMC_OK);
		const animc_track *t = &channel_named(r.set.clips[0], "Bone")->tracks[ANIMC_ROTATION];
		axis_quat(2, 40, want);
		for (int k = 0; k < 3; k++)
			assert_turn(key_at(t, 4, k * 5 / 30.0), want, 1e-6);
		assert_int_equal(warnings_of(&r, "not-unit-quaternion"), 0);
		assert_int_equal(warnings_of(&r, "zero-scale-key"), twice);
		if (twice)
			assert_non_null(strstr(warning_of(&r, "zero-scale-key"),
					       "1 scale key is 0 on an axis (the first at 0.333333 s)"));
		release(&r);
		free(text);
	}
	/* Scale X 1 to 0 while the bone turns 0 to 90 about Z. */
	char *text = scaled_take("X", flat, 0, 90, "", false);
	import_text(&r, text);
	for (int k = 0; k < 3; k++) {
		const double s[3] = { flat[0][k], 1, 1 };

		axis_quat(2, 45 * k, want);
		assert_pose(channel_named(r.set.clips[0], "Bone"), k * 5 / 30.0, want, s);
	}
	release(&r);
	free(text);
	/* Scaled -1 under a PostRotation: R * Rpost^-1 * S. */
	text = scaled_take("X", mirror, 0, 90, POST_PROPS, false);
	import_text(&r, text);
	axis_quat(1, -40, post);
	for (int k = 0; k < 3; k++) {
		const double s[3] = { -1, 2, 1 };

		axis_quat(2, 45 * k, turn);
		quat_mul(turn, post, want);
		assert_pose(channel_named(r.set.clips[0], "Bone"), k * 5 / 30.0, want, s);
	}
	release(&r);
	free(text);
}


/* A take import of one bone's curves: `frames` and `values` per axis of
 * `prop`, the take's range `start` to `stop` frames. */
static void import_take(imported *r, double start, double stop, const char *prop, const char *axes, unsigned n,
			const double *frames, const double values[][8])
{
	fbx_writer w;

	writer_init(&w);
	add_model(&w, 10, "Bone", 0, "");
	add_stack(&w, 20, "Take 001", start, stop);
	add_layer(&w, 21, "BaseLayer", 20);
	add_curves(&w, 30, 21, 10, prop, axes, n, frames, values);
	char *text = writer_text(&w);
	import_text(r, text);
	free(text);
}

/* Assimp 5.2.5 leaves out the keys of a take's curves outside its range
 * (LocalStart, LocalStop) and holds the first and last key left: a take
 * cut out of a longer timeline started and ended in another pose, without
 * a word.  The bone is rebuilt from the file's curves over the take; where
 * they cannot be read exactly (one component keyed in two layers), it is
 * said, naming the take, the bone and the curve. */
static void keys_outside_the_take_are_read_from_the_curves(void **state)
{
	static const double frames[] = { 0, 10, 20 }, xy[][8] = { { 0, 10, 20 }, { 0, 20, 40 } };
	static const double pre[] = { -5, 5, 10 }, x[][8] = { { 0, 5, 10 } };
	static const double turn_frames[] = { 0, 20 }, turn[][8] = { { 0, 40 } }, half[][8] = { { 0, 180 } };
	static const double want[][4] = { { 0, 5, 10 }, { 5.0 / 30, 10, 20 }, { 10.0 / 30, 15, 30 } };
	imported r;
	double q[4];

	(void)state;
	/* X keyed at frames 0, 10, 20 and Y at 0, 20, in a take of frames 5 to 15. */
	import_take(&r, 5, 15, "Lcl Translation", "XY", 3, frames, xy);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(warnings_of(&r, "keys-outside-take"), 0);
	const animc_track *t = &channel_named(r.set.clips[0], "Bone")->tracks[ANIMC_TRANSLATION];
	for (int k = 0; k < 3; k++) {
		const double v[3] = { want[k][1], want[k][2], 0 };

		for (int a = 0; a < 3; a++)
			assert_true(fabs(key_at(t, 3, want[k][0])[a] - v[a]) < 1e-4);
	}
	release(&r);
	/* Keyed before the take: frames -5, 5, 10 of a take 0 to 10. */
	import_take(&r, 0, 10, "Lcl Translation", "X", 3, pre, x);
	t = &channel_named(r.set.clips[0], "Bone")->tracks[ANIMC_TRANSLATION];
	assert_true(fabs(key_at(t, 3, 0)[0] - 2.5) < 1e-4);
	assert_int_equal(warnings_of(&r, "keys-outside-take"), 0);
	release(&r);
	/* A rotation 0 to 180 over frames 0 to 20, in a take of frames 5 to 15. */
	import_take(&r, 5, 15, "Lcl Rotation", "Z", 2, turn_frames, half);
	t = &channel_named(r.set.clips[0], "Bone")->tracks[ANIMC_ROTATION];
	axis_quat(2, 45, q);
	assert_turn(key_at(t, 4, 0), q, 1e-6);
	axis_quat(2, 135, q);
	assert_turn(key_at(t, 4, 10.0 / 30), q, 1e-6);
	release(&r);
	/* A take on its keys; and a rotation's first key, which Assimp keeps. */
	import_take(&r, 0, 20, "Lcl Translation", "XY", 3, frames, xy);
	assert_int_equal(warnings_of(&r, "keys-outside-take"), 0);
	release(&r);
	import_take(&r, 10, 20, "Lcl Rotation", "Z", 2, turn_frames, turn);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(warnings_of(&r, "keys-outside-take"), 0);
	release(&r);

	/* X keyed in two layers: not read exactly, said. */
	fbx_writer w;
	writer_init(&w);
	add_model(&w, 10, "Bone", 0, "");
	add_stack(&w, 20, "Take 001", 5, 15);
	add_layer(&w, 21, "BaseLayer", 20);
	add_layer(&w, 22, "AnimLayer1", 20);
	add_curves(&w, 30, 21, 10, "Lcl Translation", "XY", 3, frames, xy);
	add_curves(&w, 40, 22, 10, "Lcl Translation", "X", 3, frames, xy);
	char *text = writer_text(&w);
	import_text(&r, text);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(warnings_of(&r, "keys-outside-take"), 1);
	assert_non_null(strstr(warning_of(&r, "keys-outside-take"),
			       "bone 'Bone': its Lcl Translation X curve has keys outside the take (0.166667 s to "
			       "0.5 s of the timeline: LocalStart, LocalStop), which Assimp leaves out: at the "
			       "take's start the clip gives 10 where the curve gives 5 (and 2 more curves)"));
	release(&r);
	free(text);
}

/* Assimp 5.2.5 takes each component from the last curve for it across a
 * take's layers, blending none: a correction layer over mocap replaced
 * the base layer, without a word.  Said, naming the take's layers; not
 * for a layer that keys nothing. */
static void animation_layers_are_said(void **state)
{
	static const double frames[] = { 0, 10 }, base[][8] = { { 0, 10 } }, add[][8] = { { 5, 5 }, { 1, 1 } };
	fbx_writer w;
	imported r;

	(void)state;
	for (int layered = 0; layered < 2; layered++) {
		writer_init(&w);
		add_model(&w, 10, "Bone", 0, "");
		add_stack(&w, 20, "Take 001", 0, 10);
		add_layer(&w, 21, "BaseLayer", 20);
		add_layer(&w, 22, "AnimLayer1", 20);
		add_curves(&w, 30, 21, 10, "Lcl Translation", "X", 2, frames, base);
		if (layered)
			add_curves(&w, 40, 22, 10, "Lcl Translation", "XY", 2, frames, add);
		char *text = writer_text(&w);
		import_text(&r, text);
		assert_int_equal(r.status, ANIMC_OK);
		assert_int_equal(warnings_of(&r, "animation-layers"), layered);
		if (layered)
			assert_non_null(strstr(warning_of(&r, "animation-layers"),
					       "the take keys 2 animation layers ('BaseLayer' and 'AnimLayer1', which "
					       "keys bone 'Bone''s Lcl Translation)"));
		release(&r);
		free(text);
	}
}

/* An FBX 6.1 file (XNA's samples, exporters before 2011), which Assimp
 * does not read: the error says how to get a file it reads. */
static void an_fbx_before_2011_says_how_to_convert_it(void **state)
{
	static const char text[] = "; FBX 6.1.0 project file\nFBXHeaderExtension:  {\n\tFBXHeaderVersion: 1003\n"
				   "\tFBXVersion: 6100\n}\nObjects:  {\n}\n";
	imported r;

	(void)state;
	import_text(&r, text);
	assert_int_not_equal(r.status, ANIMC_OK);
	const char *message = test_diags_first(&r.diags, ANIMC_ERROR)->message;
	if (!strstr(message, "old format version") ||
	    !strstr(message, "; save it again as FBX 2011 or later (Autodesk's FBX Converter converts an FBX 6.1 file)"))
		fail_msg("%s", message);
	release(&r);
}

/* Assimp leaves out a take that keys no bone (a bind pose): it vanished
 * without a word.  Said, naming it; not for a file of no animation at
 * all, which says so itself. */
static void a_take_of_no_curves_is_said(void **state)
{
	static const double frames[] = { 0, 10 }, x[][8] = { { 0, 10 } };
	fbx_writer w;
	imported r;

	(void)state;
	for (int has_walk = 0; has_walk < 2; has_walk++) {
		writer_init(&w);
		add_model(&w, 10, "Bone", 0, "");
		add_stack(&w, 20, "TPose", -1, -1);
		add_layer(&w, 21, "BaseLayer", 20);
		if (has_walk) {
			add_stack(&w, 22, "Walk", 0, 10);
			add_layer(&w, 23, "BaseLayer", 22);
			add_curves(&w, 30, 23, 10, "Lcl Translation", "X", 2, frames, x);
		}
		char *text = writer_text(&w);
		import_text(&r, text);
		assert_int_equal(r.status, has_walk ? ANIMC_OK : ANIMC_ERR_NOT_FOUND);
		assert_int_equal(r.set.count, has_walk);
		assert_int_equal(warnings_of(&r, "empty-take"), has_walk);
		if (has_walk)
			assert_non_null(strstr(warning_of(&r, "empty-take"), "take 'TPose' keys no bone"));
		release(&r);
		free(text);
	}
}

/* Assimp 5.2.5 moves the animation of a bone with a pivot, an offset or
 * a geometric transform onto helper nodes whatever the settings: the
 * error named a channel 'Bone_$AssimpFbx$_Rotation' the user never made.
 * It names the bone, the property and the fix. */
static void a_pivot_is_named_with_its_bone(void **state)
{
	static const double frames[] = { 0, 10 }, z[][8] = { { 0, 90 } };
	static const char *const props[][2] = {
		{ "\t\t\tP: \"RotationPivot\", \"Vector3D\", \"Vector\", \"\",0,1,0", "a RotationPivot that is not 0" },
		{ "\t\t\tP: \"GeometricScaling\", \"Vector3D\", \"Vector\", \"\",2,2,2",
		  "a GeometricScaling that is not 1" },
	};
	fbx_writer w;
	imported r;

	(void)state;
	for (size_t i = 0; i < sizeof props / sizeof props[0]; i++) {
		writer_init(&w);
		add_model(&w, 10, "Bone", 0, props[i][0]);
		add_stack(&w, 20, "Take 001", 0, 10);
		add_layer(&w, 21, "BaseLayer", 20);
		add_curves(&w, 30, 21, 10, "Lcl Rotation", "Z", 2, frames, z);
		char *text = writer_text(&w);
		import_text(&r, text);
		assert_int_equal(r.status, ANIMC_ERR_UNSUPPORTED);
		const char *message = test_diags_first(&r.diags, ANIMC_ERROR)->message;
		char *want = test_format("bone 'Bone' has %s: Assimp moves", props[i][1]);
		if (!strstr(message, want) || !strstr(message, "reset the bone's pivots"))
			fail_msg("error: %s", message);
		release(&r);
		free(want);
		free(text);
	}
}

/* A bone of InheritType 2 (Maya's segment scale compensate) does not take
 * its parent's scale; Assimp reads no inherit type, and the bone was
 * scaled with its parent without a word.  Said where the parent's scale
 * is keyed off 1 or rests off 1; not for a parent of scale 1. */
static void inherit_type_rrs_under_a_scaled_parent_is_said(void **state)
{
	static const double frames[] = { 0, 10 }, grow[][8] = { { 1, 2 }, { 1, 2 }, { 1, 2 } },
			    one[][8] = { { 1, 1 }, { 1, 1 }, { 1, 1 } }, z[][8] = { { 0, 10 } };
	static const char *const rest[] = { "", "\t\t\tP: \"Lcl Scaling\", \"Lcl Scaling\", \"\", \"A\",3,3,3" };
	fbx_writer w;
	imported r;

	(void)state;
	for (int c = 0; c < 3; c++) {
		writer_init(&w);
		add_model(&w, 10, "Parent", 0, rest[c == 2]);
		add_model(&w, 11, "Child", 10, "\t\t\tP: \"InheritType\", \"enum\", \"\", \"\",2");
		add_stack(&w, 20, "Take 001", 0, 10);
		add_layer(&w, 21, "BaseLayer", 20);
		if (c < 2)
			add_curves(&w, 30, 21, 10, "Lcl Scaling", "XYZ", 2, frames, c == 0 ? grow : one);
		add_curves(&w, 40, 21, 11, "Lcl Rotation", "Z", 2, frames, z);
		char *text = writer_text(&w);
		import_text(&r, text);
		assert_int_equal(r.status, ANIMC_OK);
		assert_int_equal(warnings_of(&r, "inherit-type"), c != 1);
		if (c != 1)
			assert_non_null(strstr(warning_of(&r, "inherit-type"),
					       "bone 'Child' has InheritType 2 (Rrs, segment scale compensate: it does "
					       "not take its parent's scale), and its parent 'Parent' is scaled"));
		release(&r);
		free(text);
	}
}

/* Assimp keeps Euler curves as one quaternion a key, and the runtime
 * slerps between them: with X and Y keyed 0 to 90 together, halfway the
 * pose was 19.5 degrees off the curves'.  The rotation is rebuilt from the
 * curves with keys where a slerp would leave them (with a take's range or
 * without); where they cannot be read exactly (X keyed in two layers),
 * said.  Not for curves of one axis (a slerp is their turn) or keys close
 * enough. */
static void euler_curves_between_keys_are_read_from_the_curves(void **state)
{
	static const double frames[] = { 0, 10 }, wide[][8] = { { 0, 90 }, { 0, 90 } };
	static const double dense_frames[] = { 0, 1, 2 }, dense[][8] = { { 0, 5, 10 }, { 0, 5, 10 } };
	imported r;
	double qx[4], qy[4], want[4];

	(void)state;
	for (int has_range = 0; has_range < 2; has_range++) {
		import_take(&r, has_range ? 0 : -1, 10, "Lcl Rotation", "XY", 2, frames, wide);
		assert_int_equal(r.status, ANIMC_OK);
		assert_int_equal(warnings_of(&r, "euler-between-keys"), 0);
		const animc_track *t = &channel_named(r.set.clips[0], "Bone")->tracks[ANIMC_ROTATION];
		for (double f = 0; f <= 10; f += 2.5) {
			axis_quat(0, 9 * f, qx);
			axis_quat(1, 9 * f, qy);
			quat_mul(qy, qx, want);   /* XYZ: X turned first */
			assert_turn(key_at(t, 4, f / 30), want, 1e-6);
		}
		assert_true(t->value_count > 2);
		release(&r);
	}
	import_take(&r, 0, 10, "Lcl Rotation", "X", 2, frames, wide);
	assert_int_equal(channel_named(r.set.clips[0], "Bone")->tracks[ANIMC_ROTATION].value_count, 2);
	release(&r);
	import_take(&r, 0, 2, "Lcl Rotation", "XY", 3, dense_frames, dense);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(channel_named(r.set.clips[0], "Bone")->tracks[ANIMC_ROTATION].value_count, 3);
	release(&r);

	fbx_writer w;
	writer_init(&w);
	add_model(&w, 10, "Bone", 0, "");
	add_stack(&w, 20, "Take 001", 0, 10);
	add_layer(&w, 21, "BaseLayer", 20);
	add_layer(&w, 22, "AnimLayer1", 20);
	add_curves(&w, 30, 21, 10, "Lcl Rotation", "XY", 2, frames, wide);
	add_curves(&w, 40, 22, 10, "Lcl Rotation", "X", 2, frames, wide);
	char *text = writer_text(&w);
	import_text(&r, text);
	assert_int_equal(warnings_of(&r, "euler-between-keys"), 1);
	assert_non_null(strstr(warning_of(&r, "euler-between-keys"), "up to 19.5 degrees off the curves' turn "
				"(at 0.166667 s)"));
	release(&r);
	free(text);
}

/* An infinite key: Assimp spreads it into every track of the bone, and
 * the errors were of NaN in key 0 of rotation and scale tracks the file
 * does not have.  One error names the curve, its key and its line; the
 * file's other takes are still written. */
static void an_infinite_key_is_named_at_its_curve(void **state)
{
	static const double frames[] = { 0, 5, 10 }, x[][8] = { { 0, INFINITY, 10 } }, ok[][8] = { { 0, 1, 2 } };
	fbx_writer w;
	test_diags diags = { 0 };

	(void)state;
	writer_init(&w);
	add_model(&w, 10, "Bone", 0, "");
	add_stack(&w, 20, "Take 001", 0, 10);
	add_layer(&w, 21, "BaseLayer", 20);
	add_curves(&w, 30, 21, 10, "Lcl Translation", "X", 3, frames, x);
	add_stack(&w, 22, "Walk", 0, 10);
	add_layer(&w, 23, "BaseLayer", 22);
	add_curves(&w, 40, 23, 10, "Lcl Translation", "X", 3, frames, ok);
	char *text = writer_text(&w), *dir = test_tmpdir("fbx-inf"), *path = test_format("%s/inf.fbx", dir);
	assert_true(test_write_file(path, text, strlen(text)));
	assert_int_equal(test_compile_file(path, &diags, &animc_importer_assimp), ANIMC_OK);
	assert_int_equal(test_diags_count(&diags, ANIMC_ERROR), 1);
	const test_diag *e = test_diags_first(&diags, ANIMC_ERROR);
	assert_non_null(strstr(e->message, "clip 'Take 001': bone 'Bone': its Lcl Translation X curve's key 1 (at "
				"0.166667 s of the timeline) is infinite"));
	/* The line of the values: "a: 0,inf,10". */
	const char *at = text;
	for (uint32_t line = 1; line < e->line; line++)
		at = strchr(at, '\n') + 1;
	assert_true(strncmp(at, "\t\t\ta: 0,inf,10\n", 14) == 0);
	test_diags_release(&diags);
	free(path), free(dir), free(text);
}

/* The reader reads binary records (names "Bone\0\1Model", typed
 * properties, arrays): a seed's take and keys, and the corpus's models,
 * their parents and the curves of their takes. */
static void fbx_reader_reads_binary_records(void **state)
{
	size_t size;
	uint8_t *data = test_read_file("testdata/fuzz/assimp/move_binary.fbx", &size);
	fbx_doc doc;

	(void)state;
	assert_true(animc_fbx_doc_read(data, size, &doc));
	const fbx_stack *st = animc_fbx_doc_stack(&doc, "move");
	assert_non_null(st);
	assert_true(st->local_start == 0 && st->local_stop == FBX_KTIME_PER_SECOND);
	assert_true(doc.curve_count >= 3);
	const fbx_curve *c = &doc.curves[0];
	assert_true(c->is_read && c->key_count == 3 && c->axis == 0);
	assert_true(c->values[1] == 1 && c->values[2] == 2 && c->times[2] == 2 * c->times[1]);
	assert_int_equal(doc.layers[doc.nodes[c->node].layer].stack, (uint32_t)(st - doc.stacks));
	animc_fbx_doc_release(&doc);
	/* Cut short, it is no document. */
	assert_false(animc_fbx_doc_read(data, size / 2, &doc));
	assert_int_equal(doc.curve_count, 0);
	/* The first curve's KeyAttrFlags (an int32 array of one, over a run
	 * of 3 keys) made constant: each key read constant. */
	uint8_t *flags = memmem(data, size, "KeyAttrFlags", 12);
	assert_non_null(flags);
	assert_true(flags[12] == 'i' && flags[13] == 1 && flags[17] == 0 && flags[25] == 0);
	flags[25] = 2;
	assert_true(animc_fbx_doc_read(data, size, &doc));
	c = &doc.curves[0];
	assert_true(c->has_constant && c->steps && c->key_count == 3);
	assert_true(c->steps[0] == FBX_CONSTANT && c->steps[1] == FBX_CONSTANT && c->steps[2] == FBX_CONSTANT);
	double v;
	assert_true(animc_fbx_curve_exact(c, c->times[2], -1, &v) && v == 1);
	assert_true(animc_fbx_curve_exact(c, c->times[2], 0, &v) && v == 2);
	animc_fbx_doc_release(&doc);
	free(data);

	const char *corpus = test_corpus_dir();
	if (!corpus) {
		print_message("skipped: corpus not found (../shared/corpus)\n");
		return;
	}
	char *path = test_format("%s/assimp/animation_with_skeleton.fbx", corpus);
	data = test_read_file(path, &size);
	assert_true(animc_fbx_doc_read(data, size, &doc));
	const fbx_model *bone = animc_fbx_doc_model(&doc, "Bone.001");
	assert_non_null(bone);
	assert_string_equal(doc.models[bone->parent].name, "Bone");
	st = animc_fbx_doc_stack(&doc, "Armature|ArmatureAction");
	assert_non_null(st);
	uint32_t keyed = 0;
	for (uint32_t i = 0; i < doc.curve_count; i++) {
		const fbx_curve_node *n = &doc.nodes[doc.curves[i].node];
		keyed += doc.curves[i].is_read && doc.curves[i].key_count && n->model < doc.model_count &&
			 strcmp(n->property, "Lcl Rotation") == 0 && doc.layers[n->layer].stack == 0;
	}
	assert_true(keyed >= 3);
	animc_fbx_doc_release(&doc);
	free(data);
	free(path);
}

/* One bone's take of frames `start` to `stop`, its curves of `prop` keyed
 * at `frames` with `values` per axis of `axes`, their KeyAttrFlags `flags`
 * over runs of keys `runs` (NULL: none), as ASCII FBX (free it). */
static char *flagged_take(double start, double stop, const char *prop, const char *axes, unsigned n,
			  const double *frames, const double values[][8], const char *flags, const char *runs)
{
	fbx_writer w;

	writer_init(&w);
	add_model(&w, 10, "Bone", 0, "");
	add_stack(&w, 20, "Take 001", start, stop);
	add_layer(&w, 21, "BaseLayer", 20);
	w.flags = flags, w.runs = runs;
	add_curves(&w, 30, 21, 10, prop, axes, n, frames, values);
	return writer_text(&w);
}

static char *take_text(double start, double stop, const char *prop, const char *axes, unsigned n,
		       const double *frames, const double values[][8])
{
	return flagged_take(start, stop, prop, axes, n, frames, values, NULL, NULL);
}

/* ------------------------------------------------------ stepped keys */

static char *stepped_take(const char *prop, const char *axes, unsigned n, const double *frames,
			  const double values[][8], double stop, const char *flags, const char *runs)
{
	return flagged_take(0, stop, prop, axes, n, frames, values, flags, runs);
}

/* `text` built (with `option`, or none) into `dir`: the clip's path. */
static char *built(const char *dir, const char *text, const char *option, const char *value, char **err)
{
	char *path = test_format("%s/s.fbx", dir), *out = test_format("%s/out", dir);
	test_run r;

	assert_true(test_write_file(path, text, strlen(text)));
	test_sh("rm -rf '%s'", out);
	r = option ? test_animc("build", option, value, "-o", out, path, NULL) : test_animc("build", "-o", out, path, NULL);
	if (r.status != 0)
		fail_msg("%s%s", r.out, r.err);
	*err = strdup(r.err);
	test_run_release(&r);
	free(path);
	char *xnb = test_format("%s/s/Take 001.xnb", out);
	free(out);
	return xnb;
}

/* Item `index` of the bone's `what` ("translation", "rotation") in `xnb`
 * at `time_s`, as the runtime samples it. */
static double sampled(const char *xnb, const char *time_s, const char *what, int index)
{
	test_run r = test_animc("sample", "--json", "--time", time_s, xnb, NULL);
	char *key = test_format("\"%s\": [", what);
	const char *at = strstr(r.out, key);

	if (r.status != 0 || !at)
		fail_msg("%s%s", r.out, r.err);
	at += strlen(key);
	for (int i = 0; i < index; i++)
		at = strchr(at, ',') + 1;
	double v = strtod(at, NULL);
	test_run_release(&r);
	free(key);
	return v;
}

/* Translation X of `xnb` at each of `times` is `want`'s. */
static void assert_samples(const char *xnb, const char *const *times, const double *want, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		double got = sampled(xnb, times[i], "translation", 0);

		if (!(fabs(got - want[i]) < 1e-4))
			fail_msg("%s at %s s: translation X %g, expected %g", xnb, times[i], got, want[i]);
	}
}

/* Frame 10 is 0.33333334 s (a float); 0.3333333 is the float before it. */
static const char *const step_times[] = { "0", "0.1666667", "0.3333333", "0.33333334", "0.5", "0.6666666",
					  "0.6666667", "0.8333333" };

/*
 * Assimp 5.2.5 reads no key's interpolation: constant (stepped) keys, as
 * Maya and MotionBuilder write blocking passes, played as linear (halfway
 * between keys 0 and 5, 2.5), with a stepped-keys warning.  The bone is
 * rebuilt from its curves: each value held up to the float before the
 * next key (and, for eConstantNext, the next key's value from just after
 * the key), linear keys still linear; kept by a lossy build and the compact
 * layout (which declines the jump and writes the original layout).
 */
static void stepped_keys_are_held_from_the_curves(void **state)
{
	static const double frames[] = { 0, 10, 20, 30 }, x[][8] = { { 0, 5, 10, 20 } };
	/* All constant; constant with the next key's value; linear, constant,
	 * linear (frame 25 halfway from 10 to 20). */
	static const double held[] = { 0, 0, 0, 5, 5, 5, 10, 10 }, next[] = { 0, 5, 5, 5, 10, 10, 10, 15 },
			    mixed[] = { 0, 2.5, 5, 5, 5, 5, 10, 15 };
	static const struct { const char *flags, *runs; const double *want; } cases[] = {
		{ "2,4", "3,1", held }, { "258,4", "2,2", next }, { "4,2,4", "1,1,2", mixed },
	};
	static const char *const options[][2] = { { "--tolerance", "default" }, { "--layout", "compact" } };
	char *dir = test_tmpdir("fbx-stepped"), *err;

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *text = stepped_take("Lcl Translation", "X", 4, frames, x, 30, cases[i].flags, cases[i].runs);
		char *xnb = built(dir, text, NULL, NULL, &err);

		if (strstr(err, "[stepped-keys]"))
			fail_msg("%s", err);
		assert_samples(xnb, step_times, cases[i].want, 8);
		free(xnb), free(err);
		for (size_t o = 0; o < 2 && i == 2; o++) {
			xnb = built(dir, text, options[o][0], options[o][1], &err);
			assert_samples(xnb, step_times, cases[i].want, 8);
			free(xnb), free(err);
		}
		free(text);
	}
	free(dir);
}

/* A stepped Euler rotation: Z held at 0 then 90 while X turns linearly,
 * the runtime's pose the curves' mid-span and on each side of the step. */
static void stepped_rotation_keys_are_held(void **state)
{
	static const double frames[] = { 0, 10, 20 }, xz[][8] = { { 0, 20, 40 }, { 0, 90, -120 } };
	static const double want_x[] = { 10, 20, 20, 30 }, want_z[] = { 0, 0, 90, 90 };
	static const char *const times[] = { "0.1666667", "0.3333333", "0.33333334", "0.5" };
	char *dir = test_tmpdir("fbx-stepped-rot"), *err;
	fbx_writer w;
	double qx[4], qz[4], want[4];

	(void)state;
	writer_init(&w);
	add_model(&w, 10, "Bone", 0, "");
	add_stack(&w, 20, "Take 001", 0, 20);
	add_layer(&w, 21, "BaseLayer", 20);
	w.flags = "2", w.runs = "3";
	add_curves(&w, 30, 21, 10, "Lcl Rotation", "Z", 3, frames, &xz[1]);
	w.flags = NULL;
	add_curves(&w, 40, 21, 10, "Lcl Rotation", "X", 3, frames, xz);
	char *text = writer_text(&w), *xnb = built(dir, text, NULL, NULL, &err);
	for (int i = 0; i < 4; i++) {
		float got[4];

		for (int k = 0; k < 4; k++)
			got[k] = (float)sampled(xnb, times[i], "rotation", k);
		axis_quat(0, want_x[i], qx);
		axis_quat(2, want_z[i], qz);
		quat_mul(qz, qx, want);
		assert_turn(got, want, 1e-6);
	}
	assert_null(strstr(err, "[stepped-keys]"));
	free(xnb), free(err), free(text), free(dir);
}

/* Constant keys the reader cannot match to keys (runs that do not cover
 * them) are still said, naming the clip, the bone and the curve, at its
 * KeyAttrFlags' line; constant keys that change nothing are not. */
static void stepped_keys_not_read_are_said(void **state)
{
	static const double frames[] = { 0, 10, 20 }, x[][8] = { { 0, 5, 10 } }, flat[][8] = { { 5, 5, 0 } };
	imported r;

	(void)state;
	char *text = stepped_take("Lcl Translation", "X", 3, frames, x, 20, "2", "2");
	import_text(&r, text);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(warnings_of(&r, "stepped-keys"), 1);
	assert_non_null(strstr(warning_of(&r, "stepped-keys"), "clip 'Take 001': bone 'Bone': its Lcl Translation X "
			       "curve has constant (stepped) keys, which are read as linear: its KeyAttrFlags and "
			       "KeyAttrRefCount do not give each key one"));
	const char *at = text;
	for (uint32_t line = 1; line < test_diags_first(&r.diags, ANIMC_WARNING)->line; line++)
		at = strchr(at, '\n') + 1;
	assert_true(strncmp(at, "\t\tKeyAttrFlags: *1 {", 20) == 0);
	release(&r);
	free(text);
	/* Constant from 5 to 5, then linear. */
	text = stepped_take("Lcl Translation", "X", 3, frames, flat, 20, "2,4", "1,2");
	import_text(&r, text);
	assert_int_equal(warnings_of(&r, "stepped-keys"), 0);
	assert_int_equal(channel_named(r.set.clips[0], "Bone")->tracks[ANIMC_TRANSLATION].value_count, 3);
	release(&r);
	free(text);
}

/* Binary FBX exporters (FBX SDK 7.x, Blender) compress their arrays with
 * zlib; the reader left such curves unread, so on real binary files the
 * mends from the curves did not apply: a take starting between keys
 * started in Assimp's pose (with a warning), Euler curves turning about
 * two axes were slerped between keys.  Such curves are read. */
static void compressed_binary_curves_are_read(void **state)
{
	static const double pre[] = { -5, 5, 10 }, x[][8] = { { 0, 5, 10 } };
	static const double frames[] = { 0, 10 }, wide[][8] = { { 0, 90 }, { 0, 90 } };
	imported r;
	size_t size;
	double qx[4], qy[4], want[4];
	fbx_doc doc;

	(void)state;
	/* Keyed before the take: frames -5, 5, 10 of a take 0 to 10. */
	char *text = take_text(0, 10, "Lcl Translation", "X", 3, pre, x);
	uint8_t *data = binary_of(text, NULL, &size);
	assert_true(animc_fbx_doc_read(data, size, &doc));
	assert_true(doc.curve_count == 1 && doc.curves[0].is_read && doc.curves[0].key_count == 3);
	assert_true(doc.curves[0].values[1] == 5 && doc.curves[0].times[0] == -5 * KT_PER_FRAME);
	assert_string_equal(doc.curves[0].damage, "");
	animc_fbx_doc_release(&doc);
	import_bytes(&r, data, size);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(warnings_of(&r, "keys-outside-take"), 0);
	const animc_track *t = &channel_named(r.set.clips[0], "Bone")->tracks[ANIMC_TRANSLATION];
	assert_true(fabs(key_at(t, 3, 0)[0] - 2.5) < 1e-4);
	release(&r);
	free(data), free(text);

	/* X and Y keyed 0 to 90 together: halfway, the curves' turn. */
	text = take_text(0, 10, "Lcl Rotation", "XY", 2, frames, wide);
	data = binary_of(text, NULL, &size);
	import_bytes(&r, data, size);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(warnings_of(&r, "euler-between-keys"), 0);
	axis_quat(0, 45, qx);
	axis_quat(1, 45, qy);
	quat_mul(qy, qx, want);
	assert_turn(key_at(&channel_named(r.set.clips[0], "Bone")->tracks[ANIMC_ROTATION], 4, 5.0 / 30), want, 1e-6);
	release(&r);
	free(data), free(text);
}

/* A compressed array whose data inflates to more values than it declares
 * (a bomb), fewer (a lying count: Assimp read zeros for the rest, or
 * refused the curve naming no curve), or a count no compressed data of its
 * size can hold (Assimp allocated it, and ran out of memory): the source
 * fails with an error naming the curve and the array, and nothing is
 * allocated beyond the count declared. */
static void a_damaged_binary_array_is_named_at_its_curve(void **state)
{
	static const double frames[] = { 0, 5, 10 }, x[][8] = { { 0, 5, 10 } };
	static const struct {
		const char *options[5], *array, *says;
	} cases[] = {
		{ { "--pad", "KeyValueFloat=4000000" }, "KeyValueFloat", "declares 3 values, but its compressed data "
			"inflates to more" },
		{ { "--declare", "KeyTime=5", "--declare", "KeyValueFloat=5" }, "KeyTime", "declares 5 values, but its "
			"compressed data holds fewer" },
		{ { "--declare", "KeyTime=10000000" }, "KeyTime", "declares 10000000 values, more than its " },
		{ { "--declare", "KeyTime=4294967295" }, "KeyTime", "declares 4294967295 values, more than the "
			"16777216 one array may hold" },
		{ { "--plain", "--declare", "KeyValueFloat=4" }, "KeyValueFloat", "declares 4 values (16 bytes), but "
			"holds 12 bytes" },
	};
	imported r;
	size_t size;
	fbx_doc doc;

	(void)state;
	char *text = take_text(0, 10, "Lcl Translation", "X", 3, frames, x);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint8_t *data = binary_of(text, cases[i].options, &size);
		const char *name = cases[i].array;
		const uint8_t *at = memmem(data, size, name, strlen(name));

		assert_non_null(at);
		char *says = test_format("its %s array (at byte %zu) %s", name, (size_t)(at - data) + strlen(name),
					 cases[i].says);
		assert_true(animc_fbx_doc_read(data, size, &doc));
		assert_false(doc.curves[0].is_read);
		assert_non_null(strstr(doc.curves[0].damage, says));
		animc_fbx_doc_release(&doc);
		import_bytes(&r, data, size);
		assert_int_equal(r.status, ANIMC_ERR_PARSE);
		assert_int_equal(test_diags_count(&r.diags, ANIMC_ERROR), 1);
		const char *message = test_diags_first(&r.diags, ANIMC_ERROR)->message;
		if (strncmp(message, "bone 'Bone': its Lcl Translation X curve (AnimationCurve 301): ", 63) != 0 ||
		    !strstr(message, says) || !strstr(message, "the file is damaged"))
			fail_msg("case %zu: %s", i, message);
		release(&r);
		free(says), free(data);
	}
	free(text);
}

/* Definitions property templates: a Model's PostRotation given by its
 * type's template (Maya and MotionBuilder write non-default ones), and a
 * take's range by the AnimationStack template.  Assimp takes a property a
 * model or stack does not give from its template; the reader did not, so
 * the PostRotation was not mended (80 degrees off) and keys before such a
 * range were not read from the curves.  A model's own value overrides
 * the template's. */
static void property_templates_give_defaults(void **state)
{
	static const double frames[] = { 0, 10 }, z[][8] = { { 0, 90 } };
	static const double pre[] = { -5, 5, 10 }, x[][8] = { { 0, 5, 10 } };
	fbx_writer w;
	imported r;
	double post[4], want[4], turn[4];

	(void)state;
	writer_init(&w);
	w.definitions = "\tObjectType: \"Model\" {\n\t\tCount: 2\n\t\tPropertyTemplate: \"FbxNode\" {\n"
			"\t\t\tProperties70:  {\n"
			"\t\t\t\tP: \"RotationActive\", \"bool\", \"\", \"\",1\n"
			"\t\t\t\tP: \"PostRotation\", \"Vector3D\", \"Vector\", \"\",0,40,0\n"
			"\t\t\t}\n\t\t}\n\t}\n"
			"\tObjectType: \"AnimationStack\" {\n\t\tCount: 1\n\t\tPropertyTemplate: \"FbxAnimStack\" {\n"
			"\t\t\tProperties70:  {\n"
			"\t\t\t\tP: \"LocalStart\", \"KTime\", \"Time\", \"\",0\n"
			"\t\t\t\tP: \"LocalStop\", \"KTime\", \"Time\", \"\",15395386000\n"
			"\t\t\t}\n\t\t}\n\t}\n";
	add_model(&w, 10, "Bone", 0, "");
	add_model(&w, 11, "Own", 0, "\t\t\tP: \"PostRotation\", \"Vector3D\", \"Vector\", \"\",0,0,0");
	add_model(&w, 12, "Early", 0, "");
	add_stack(&w, 20, "Take 001", -1, -1);
	add_layer(&w, 21, "BaseLayer", 20);
	add_curves(&w, 30, 21, 10, "Lcl Rotation", "Z", 2, frames, z);
	add_curves(&w, 40, 21, 11, "Lcl Rotation", "Z", 2, frames, z);
	add_curves(&w, 50, 21, 12, "Lcl Translation", "X", 3, pre, x);
	char *text = writer_text(&w);
	import_text(&r, text);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(warnings_of(&r, "keys-outside-take"), 0);
	axis_quat(1, -40, post);
	for (int k = 0; k < 2; k++) {
		axis_quat(2, z[0][k], turn);
		quat_mul(turn, post, want);
		assert_turn(key_at(&channel_named(r.set.clips[0], "Bone")->tracks[ANIMC_ROTATION], 4, frames[k] / 30),
			    want, 1e-6);
		assert_turn(key_at(&channel_named(r.set.clips[0], "Own")->tracks[ANIMC_ROTATION], 4, frames[k] / 30),
			    turn, 1e-6);
	}
	/* Frames -5, 5, 10 of the template's take of frames 0 to 10. */
	assert_true(fabs(key_at(&channel_named(r.set.clips[0], "Early")->tracks[ANIMC_TRANSLATION], 3, 0)[0] - 2.5) <
		    1e-4);
	release(&r);
	free(text);
}

#define INACTIVE "\t\t\tP: \"RotationActive\", \"bool\", \"\", \"\",0\n"
#define ZYX "\t\t\tP: \"RotationOrder\", \"enum\", \"\", \"\",5\n"

/* The rotation of bone `name` in the rest pose of the FBX file `text`. */
static void assert_rest_turn(const char *text, const char *name, const double want[4])
{
	char *dir = test_tmpdir("fbx-rest"), *path = test_format("%s/rest.fbx", dir);
	animc_skeleton skel;
	test_diags diags = { 0 };
	animc_diag_sink sink = test_diag_sink(&diags, path);
	uint32_t found = 0;

	assert_true(test_write_file(path, text, strlen(text)));
	assert_int_equal(animc_assimp_skeleton_load(path, &skel, &sink), ANIMC_OK);
	for (uint32_t i = 0; i < skel.bone_count; i++)
		if (strcmp(skel.bones[i].name, name) == 0) {
			assert_turn(skel.bones[i].rotation, want, 1e-6);
			assert_true(fabs(skel.bones[i].scale[1] - 2) < 1e-5);
			found++;
		}
	assert_int_equal(found, 1);
	animc_skeleton_release(&skel);
	test_diags_release(&diags);
	free(path), free(dir);
}

/* A bone of RotationActive 0: the FBX SDK ignores its PreRotation,
 * PostRotation and RotationOrder (it turns in XYZ order); Assimp 5.2.5
 * reads no RotationActive and applied all three (and the PostRotation
 * mend took it for an active one): the bone was turned by its pre- and
 * post-rotation, and in its order.  The keys and the rest pose are the
 * SDK's: the pre- and post-rotation taken out, a bone of another order
 * rebuilt from its curves (or held at its Lcl Rotation when none keys
 * it); where the curves cannot be read exactly (X keyed in two layers),
 * said. */
static void rotation_active_0_turns_in_xyz_alone(void **state)
{
	static const double frames[] = { 0, 10 }, z[][8] = { { 0, 90 } }, wide[][8] = { { 0, 90 }, { 0, 90 } };
	fbx_writer w;
	imported r;
	double qx[4], qy[4], want[4];

	(void)state;
	writer_init(&w);
	add_model(&w, 10, "Bone", 0, INACTIVE "\t\t\tP: \"PreRotation\", \"Vector3D\", \"Vector\", \"\",0,0,20\n"
		  "\t\t\tP: \"PostRotation\", \"Vector3D\", \"Vector\", \"\",0,40,0\n"
		  "\t\t\tP: \"Lcl Rotation\", \"Lcl Rotation\", \"\", \"A\",0,0,30\n"
		  "\t\t\tP: \"Lcl Scaling\", \"Lcl Scaling\", \"\", \"A\",1,2,1");
	add_model(&w, 11, "Ordered", 0, INACTIVE ZYX);
	add_model(&w, 12, "Still", 0, INACTIVE ZYX "\t\t\tP: \"Lcl Rotation\", \"Lcl Rotation\", \"\", \"A\",30,40,0");
	add_stack(&w, 20, "Take 001", 0, 10);
	add_layer(&w, 21, "BaseLayer", 20);
	add_curves(&w, 30, 21, 10, "Lcl Rotation", "Z", 2, frames, z);
	add_curves(&w, 40, 21, 11, "Lcl Rotation", "XY", 2, frames, wide);
	add_curves(&w, 50, 21, 12, "Lcl Translation", "X", 2, frames, z);
	char *text = writer_text(&w);
	import_text(&r, text);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(warnings_of(&r, "rotation-active"), 0);
	const animc_clip *clip = r.set.clips[0];
	for (int k = 0; k < 2; k++) {
		axis_quat(2, z[0][k], want);
		assert_turn(key_at(&channel_named(clip, "Bone")->tracks[ANIMC_ROTATION], 4, frames[k] / 30), want, 1e-6);
	}
	for (double f = 0; f <= 10; f += 2.5) {
		axis_quat(0, 9 * f, qx);
		axis_quat(1, 9 * f, qy);
		quat_mul(qy, qx, want);   /* XYZ: X turned first */
		assert_turn(key_at(&channel_named(clip, "Ordered")->tracks[ANIMC_ROTATION], 4, f / 30), want, 1e-6);
	}
	axis_quat(0, 30, qx);
	axis_quat(1, 40, qy);
	quat_mul(qy, qx, want);
	assert_turn(key_at(&channel_named(clip, "Still")->tracks[ANIMC_ROTATION], 4, 0), want, 1e-6);
	release(&r);
	axis_quat(2, 30, want);
	assert_rest_turn(text, "Bone", want);
	free(text);

	writer_init(&w);
	add_model(&w, 11, "Ordered", 0, INACTIVE ZYX);
	add_stack(&w, 20, "Take 001", 0, 10);
	add_layer(&w, 21, "BaseLayer", 20);
	add_layer(&w, 22, "AnimLayer1", 20);
	add_curves(&w, 40, 21, 11, "Lcl Rotation", "XY", 2, frames, wide);
	add_curves(&w, 50, 22, 11, "Lcl Rotation", "X", 2, frames, wide);
	text = writer_text(&w);
	import_text(&r, text);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(warnings_of(&r, "rotation-active"), 1);
	assert_non_null(strstr(warning_of(&r, "rotation-active"), "bone 'Ordered' has RotationActive 0, so the FBX SDK "
			       "turns it in XYZ order and ignores its RotationOrder (ZYX)"));
	release(&r);
	free(text);
}

/* An object whose id is no number (none at all, NaN, 1e300), a
 * connection naming such an id, a RotationOrder or InheritType of NaN:
 * each was cast from a double to an integer, undefined behaviour (fuzzing
 * found it), and kept whatever that gave.  Such an object is left out
 * (Assimp refuses the file), such a connection names nothing, such an
 * enum is -1 (none of its values). */
static void an_object_of_no_id_is_left_out(void **state)
{
	static const char text[] = "Objects:  {\n\tModel: \"Model::A\", \"LimbNode\" {\n\t}\n"
				   "\tModel: nan, \"Model::B\", \"LimbNode\" {\n\t}\n"
				   "\tAnimationCurve: 1e300, \"AnimCurve::\", \"\" {\n\t}\n"
				   "\tModel: 7, \"Model::C\", \"LimbNode\" {\n\t\tProperties70:  {\n"
				   "\t\t\tP: \"RotationOrder\", \"enum\", \"\", \"\",nan\n"
				   "\t\t\tP: \"InheritType\", \"enum\", \"\", \"\",1e300\n\t\t}\n\t}\n}\n"
				   "Connections:  {\n\tC: \"OO\",7,nan\n\tC: \"OO\",-1e300,7\n}\n";
	fbx_doc doc;

	(void)state;
	assert_true(animc_fbx_doc_read((const uint8_t *)text, strlen(text), &doc));
	assert_int_equal(doc.model_count, 1);
	assert_int_equal(doc.curve_count, 0);
	assert_string_equal(doc.models[0].name, "C");
	assert_int_equal(doc.models[0].parent, FBX_NONE);
	assert_int_equal(doc.models[0].rotation_order, -1);
	assert_int_equal(doc.models[0].inherit_type, -1);
	animc_fbx_doc_release(&doc);
}

/* A rotation curve keyed to 1e30 degrees: Assimp keys the turn every
 * half turn, and the import ran out of its memory limit with a message
 * blaming a damaged count.  An error at the curve's values naming the bone
 * and the key, before Assimp reads the file; 100 turns compile. */
static void an_endless_turn_fails_at_its_curve(void **state)
{
	static const double frames[2] = { 0, 30 }, endless[][8] = { { 0, 1e30 } }, hundred[][8] = { { 0, 36000 } };
	imported r;

	(void)state;
	char *text = take_text(0, 30, "Lcl Rotation", "Z", 2, frames, endless);
	import_text(&r, text);
	assert_int_not_equal(r.status, ANIMC_OK);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_ERROR), 1);
	const test_diag *e = test_diags_first(&r.diags, ANIMC_ERROR);
	assert_non_null(strstr(e->message, "bone 'Bone': its Lcl Rotation Z curve has turned more than 1048576 half "
				"turns by key 1 (1e+30 degrees)"));
	/* The line of the values: "a: 0,1e+30". */
	const char *at = text;
	for (uint32_t line = 1; line < e->line; line++)
		at = strchr(at, '\n') + 1;
	assert_true(strncmp(at, "\t\t\ta: 0,1e+30\n", 14) == 0);
	release(&r);
	free(text);
	text = take_text(0, 30, "Lcl Rotation", "Z", 2, frames, hundred);
	import_text(&r, text);
	assert_int_equal(r.status, ANIMC_OK);
	release(&r);
	free(text);
}

/* Finite keys past Assimp's float arithmetic: a translation from 3e38 to
 * -3e38 (their difference, which Assimp interpolates, is infinite) failed
 * as NaN translation, rotation and scale keys, three errors; a scale of
 * 1e30 (its square infinite) as an infinite scale key.  One error, at the
 * curve's values, naming the key and why. */
static void keys_past_assimp_floats_fail_at_their_curve(void **state)
{
	static const double frames[2] = { 0, 30 }, apart[][8] = { { 3e38, -3e38 } }, huge[][8] = { { 1e30, 1 } },
			    near[][8] = { { 3e38, 2e38 } };
	static const struct {
		const char *prop;
		const double (*values)[8];
		const char *words;
	} cases[] = {
		{ "Lcl Translation", apart, "its Lcl Translation X curve's key 1 (at 1 s of the timeline) is -3e+38, "
					    "farther from the key before than a float holds" },
		{ "Lcl Scaling", huge, "its Lcl Scaling X curve's key 0 (at 0 s of the timeline) is 1e+30, past 1.8e19" },
		{ "Lcl Translation", near, NULL },
	};
	imported r;

	(void)state;
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		char *text = take_text(0, 30, cases[c].prop, "X", 2, frames, cases[c].values);

		import_text(&r, text);
		if (!cases[c].words) {
			assert_int_equal(r.status, ANIMC_OK);
		} else {
			assert_int_equal(test_diags_count(&r.diags, ANIMC_ERROR), 1);
			const test_diag *e = test_diags_first(&r.diags, ANIMC_ERROR);
			if (!strstr(e->message, cases[c].words))
				fail_msg("case %zu: %s", c, e->message);
			assert_true(e->line > 0);
		}
		release(&r);
		free(text);
	}
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(stepped_keys_not_read_are_said),
	cmocka_unit_test(stepped_rotation_keys_are_held),
	cmocka_unit_test(stepped_keys_are_held_from_the_curves),
	cmocka_unit_test(an_object_of_no_id_is_left_out),
	cmocka_unit_test(rotation_active_0_turns_in_xyz_alone),
	cmocka_unit_test(property_templates_give_defaults),
	cmocka_unit_test(a_damaged_binary_array_is_named_at_its_curve),
	cmocka_unit_test(compressed_binary_curves_are_read),
	cmocka_unit_test(fbx_reader_reads_binary_records),
	cmocka_unit_test(an_infinite_key_is_named_at_its_curve),
	cmocka_unit_test(euler_curves_between_keys_are_read_from_the_curves),
	cmocka_unit_test(inherit_type_rrs_under_a_scaled_parent_is_said),
	cmocka_unit_test(a_pivot_is_named_with_its_bone),
	cmocka_unit_test(a_take_of_no_curves_is_said),
	cmocka_unit_test(animation_layers_are_said),
	cmocka_unit_test(an_fbx_before_2011_says_how_to_convert_it),
	cmocka_unit_test(keys_outside_the_take_are_read_from_the_curves),
	cmocka_unit_test(zero_scale_key_keeps_the_rotation),
	cmocka_unit_test(post_rotation_enters_inverted),
	cmocka_unit_test(an_endless_turn_fails_at_its_curve),
	cmocka_unit_test(keys_past_assimp_floats_fail_at_their_curve),
};

ANIMC_TEST_GROUP(tests);
