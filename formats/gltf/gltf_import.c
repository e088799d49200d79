/*
 * gltf_import.c - the glTF 2.0 importer: recognises .gltf and .glb (content
 * first), turns each animation into a clip (each animated node a bone,
 * each sampler's keys through animc_gltf_keys_build), and reads a document's node
 * tree as a skeleton for --skeleton.  See NOTES.md for every rule.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <animc/animc_xform.h>
#include "gltf_internal.h"

/* Rest values of an animated node, for the tracks it does not animate. */
typedef struct rest {
	float translation[3], rotation[4], scale[3];
} rest;

const char *animc_gltf_node_name(gltf_doc *doc, size_t index, char buf[GLTF_PATH_BYTES])
{
	json_t *name = animc_gltf_member(json_array_get(doc->nodes_json, index), "name");

	if (name && json_is_string(name) && json_string_length(name) > 0)
		return json_string_value(name);
	/* What Assimp's glTF importer names an unnamed node, kept so that
	 * clips and skeletons built either way bind alike. */
	animc_gltf_path(buf, "nodes[%zu]", index);
	return buf;
}

/* A node's name member, when present, must be a string. */
static bool check_node(gltf_doc *doc, size_t index)
{
	char path[GLTF_PATH_BYTES];
	json_t *node = json_array_get(doc->nodes_json, index);
	bool ok;

	animc_gltf_path(path, "nodes[%zu]", index);
	if (!animc_gltf_expect_object(doc, node, path))
		return false;
	animc_gltf_get_string(doc, node, path, "name", false, &ok);
	return ok;
}

static double dot3(const double *a, const double *b)
{
	return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross3(const double *a, const double *b, double *out)
{
	out[0] = a[1] * b[2] - a[2] * b[1];
	out[1] = a[2] * b[0] - a[0] * b[2];
	out[2] = a[0] * b[1] - a[1] * b[0];
}

/*
 * A matrix that scales one or more axes to zero, which glTF allows (an
 * exporter hides an object so, and "scale": [0, 0, 0] is the same node as
 * TRS): each zero axis a scale of 0, the rotation from the other axes,
 * completed to a right-handed basis (identity when every axis is zero).
 * The split must give the matrix back; false when it does not (a shear).
 */
static bool split_zero_scale(const double m[16], rest *r)
{
	double rows[3][3], s[3], max_s = 0, rot[16] = { 0 }, q[4];
	int zero[3], zeros = 0, kept = -1;

	for (int i = 0; i < 3; i++) {
		memcpy(rows[i], &m[i * 4], sizeof rows[i]);
		s[i] = sqrt(dot3(rows[i], rows[i]));
		max_s = fmax(max_s, s[i]);
	}
	for (int i = 0; i < 3; i++) {
		zero[i] = !(s[i] > 0) || s[i] < ANIMC_DECOMPOSE_MIN_SCALE_RATIO * max_s;
		zeros += zero[i];
		if (zero[i]) {
			s[i] = 0;
			continue;
		}
		kept = i;
		for (int c = 0; c < 3; c++)
			rows[i][c] /= s[i];
	}
	if (zeros == 0)
		return false;
	if (zeros == 3) {
		rows[0][0] = rows[1][1] = rows[2][2] = 1;
		rows[0][1] = rows[0][2] = rows[1][0] = rows[1][2] = rows[2][0] = rows[2][1] = 0;
	} else if (zeros == 2) {
		/* One axis: the next one any perpendicular, the third their cross. */
		const double *u = rows[kept];
		double *v = rows[(kept + 1) % 3], *w = rows[(kept + 2) % 3], len;
		int least = fabs(u[0]) <= fabs(u[1]) && fabs(u[0]) <= fabs(u[2]) ? 0 : fabs(u[1]) <= fabs(u[2]) ? 1 : 2;
		double axis[3] = { 0, 0, 0 };

		axis[least] = 1;
		cross3(u, axis, v);
		len = sqrt(dot3(v, v));
		for (int c = 0; c < 3; c++)
			v[c] /= len;
		cross3(u, v, w);
	} else {
		/* Two axes, perpendicular: the zero one is their cross, in order. */
		int z = zero[0] ? 0 : zero[1] ? 1 : 2;

		if (fabs(dot3(rows[(z + 1) % 3], rows[(z + 2) % 3])) > ANIMC_DECOMPOSE_SHEAR_TOLERANCE)
			return false;
		cross3(rows[(z + 1) % 3], rows[(z + 2) % 3], rows[z]);
	}
	for (int i = 0; i < 3; i++)
		memcpy(&rot[i * 4], rows[i], sizeof rows[i]);
	rot[15] = 1;
	animc_quat_from_rotation_matrix(rot, q);
	for (int i = 0; i < 3; i++) {
		r->translation[i] = (float)m[12 + i];
		r->scale[i] = (float)s[i];
		if (!isfinite(r->translation[i]))
			return false;
	}
	for (int i = 0; i < 4; i++)
		r->rotation[i] = (float)q[i];
	return true;
}

/* A node's local rest transform: its matrix, or its translation, rotation
 * and scale (defaults: none, identity, 1). */
static animc_status node_rest(gltf_doc *doc, size_t index, rest *r, float local[16], bool *has_matrix)
{
	char path[GLTF_PATH_BYTES];
	json_t *node = json_array_get(doc->nodes_json, index);
	float m[16];
	bool present, has_t, has_r, has_s;
	double len;

	animc_gltf_path(path, "nodes[%zu]", index);
	*r = (rest){ { 0, 0, 0 }, { 0, 0, 0, 1 }, { 1, 1, 1 } };
	if (!animc_gltf_get_floats(doc, node, path, "matrix", m, 16, &present) ||
	    !animc_gltf_get_floats(doc, node, path, "translation", r->translation, 3, &has_t) ||
	    !animc_gltf_get_floats(doc, node, path, "rotation", r->rotation, 4, &has_r) ||
	    !animc_gltf_get_floats(doc, node, path, "scale", r->scale, 3, &has_s))
		return animc_gltf_status(doc);
	*has_matrix = present;
	if (present) {
		double dm[16];

		if (has_t || has_r || has_s)
			return animc_gltf_fail(doc, ANIMC_ERR_INVALID, path, "has both a matrix and translation, "
					 "rotation or scale");
		/* glTF stores column vectors column by column; that is XNA's row
		 * vectors row by row: the same 16 floats. */
		for (int i = 0; i < 16; i++)
			dm[i] = m[i];
		if (local)
			memcpy(local, m, sizeof m);
		animc_decompose_result res = animc_mat4_decompose(dm, r->translation, r->rotation, r->scale);

		if (res == ANIMC_DECOMPOSE_ZERO_SCALE && split_zero_scale(dm, r))
			return ANIMC_OK;
		if (res != ANIMC_DECOMPOSE_OK)
			return animc_gltf_fail(doc, ANIMC_ERR_INVALID, path, "the matrix does not split into "
					 "translation, rotation and scale: %s",
					 animc_decompose_result_string(res));
		return ANIMC_OK;
	}
	len = sqrt((double)r->rotation[0] * r->rotation[0] + (double)r->rotation[1] * r->rotation[1] +
		   (double)r->rotation[2] * r->rotation[2] + (double)r->rotation[3] * r->rotation[3]);
	if (!(len > 1e-6))
		return animc_gltf_fail(doc, ANIMC_ERR_INVALID, path, "rotation is a zero quaternion");
	for (int i = 0; i < 4; i++)
		r->rotation[i] = (float)(r->rotation[i] / len);
	if (local) {
		double t[3], q[4], s[3], dm[16];

		for (int i = 0; i < 3; i++) {
			t[i] = r->translation[i];
			s[i] = r->scale[i];
		}
		for (int i = 0; i < 4; i++)
			q[i] = r->rotation[i];
		animc_mat4_compose(t, q, s, dm);
		for (int i = 0; i < 16; i++)
			local[i] = (float)dm[i];
	}
	return ANIMC_OK;
}

/* ------------------------------------------------------------- animations */

/* One channel target of an animation: node, track kind, sampler. */
typedef struct target {
	uint64_t node;
	animc_track_kind kind;
	uint64_t sampler;
	uint64_t channel;
} target;

static int compare_targets(const void *pa, const void *pb)
{
	const target *a = pa, *b = pb;

	if (a->node != b->node)
		return a->node < b->node ? -1 : 1;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	return (a->channel > b->channel) - (a->channel < b->channel);
}

typedef struct importer {
	gltf_doc *doc;
	const animc_import_options *options;
	const gltf_bounds *bounds;
	bool *is_joint;          /* per node, when the document has skins */
	bool *matrix_said;       /* per node: its animated-matrix warning is given */
	uint32_t mesh_only;      /* animations without node transform channels */
	uint32_t no_channel;     /* of those, the ones without any channel */
	/* The animation being read: the gaps between its samplers' key times
	 * as authored, and whether a curve was baked to more keys (CUBICSPLINE,
	 * STEP), whose spacing is then no frame. */
	double *gaps;
	size_t gap_count, gap_capacity;
	bool is_baked;
	/* Seconds added to every key time of the animation being read: an
	 * animation keyed wholly before 0 is moved to start at 0. */
	double time_shift;
} importer;

/* The times of a sampler's input: a FLOAT SCALAR accessor, strictly
 * increasing.  Checked before its elements are read, so that the memory
 * it takes is bounded by the bytes of the buffers. */
static animc_status read_input(importer *im, uint64_t accessor, const char *path, gltf_accessor *acc)
{
	animc_status status = animc_gltf_accessor_describe(im->doc, accessor, path, acc);

	if (status != ANIMC_OK)
		return status;
	if (acc->component_type != GLTF_FLOAT || acc->width != 1)
		return animc_gltf_fail(im->doc, ANIMC_ERR_INVALID, path, "key times must be a FLOAT SCALAR "
				 "accessor (accessors[%llu] is not)", (unsigned long long)accessor);
	/* Without a bufferView, the elements its sparse entries leave are 0:
	 * two of them are two equal times. */
	if (!acc->has_view && acc->count - acc->sparse_count > 1)
		return animc_gltf_fail(im->doc, ANIMC_ERR_INVALID, path, "accessors[%llu] has no bufferView, "
				 "so %llu of its %u key times are 0; times must strictly increase",
				 (unsigned long long)accessor,
				 (unsigned long long)(acc->count - acc->sparse_count), acc->count);
	status = animc_gltf_accessor_read(im->doc, accessor, path, acc);
	if (status != ANIMC_OK)
		return status;
	for (uint32_t i = 1; i < acc->count; i++) {
		if (!(acc->values[i] > acc->values[i - 1])) {
			animc_gltf_fail(im->doc, ANIMC_ERR_INVALID, path, "key time %u (%g s) is not after key "
				  "time %u (%g s); times must strictly increase", i, (double)acc->values[i],
				  i - 1, (double)acc->values[i - 1]);
			animc_gltf_accessor_release(acc);
			return animc_gltf_status(im->doc);
		}
	}
	return ANIMC_OK;
}

/* An input's times moved by im->time_shift.  Rounding may make two times
 * one: times just below 0, where floats are fine, land near the shift,
 * where they are coarser.  Then they no longer strictly increase: an error. */
static animc_status shift_times(importer *im, gltf_accessor *input, const char *path)
{
	if (im->time_shift == 0)
		return ANIMC_OK;
	for (uint32_t i = 0; i < input->count; i++) {
		input->values[i] = (float)(input->values[i] + im->time_shift);
		if (i > 0 && !(input->values[i] > input->values[i - 1]))
			return animc_gltf_fail(im->doc, ANIMC_ERR_INVALID, path, "key times %u and %u are one time "
					 "once the animation is moved %g s later to start at 0: re-export it "
					 "from frame 0", i - 1, i, im->time_shift);
	}
	return ANIMC_OK;
}

typedef struct sampler_info {
	uint64_t input, output;
	gltf_interpolation mode;
} sampler_info;

static animc_status read_sampler(importer *im, json_t *samplers, uint64_t index, const char *anim_path,
				 sampler_info *out, char path[GLTF_PATH_BYTES])
{
	json_t *obj;
	const char *interp;
	bool ok;

	animc_gltf_path(path, "%s.samplers[%llu]", anim_path, (unsigned long long)index);
	obj = animc_gltf_expect_object(im->doc, json_array_get(samplers, index), path);
	if (!obj)
		return animc_gltf_status(im->doc);
	if (!animc_gltf_get_index(im->doc, obj, path, "input", true, json_array_size(im->doc->accessors_json),
			    &out->input) ||
	    !animc_gltf_get_index(im->doc, obj, path, "output", true, json_array_size(im->doc->accessors_json),
			    &out->output))
		return animc_gltf_status(im->doc);
	interp = animc_gltf_get_string(im->doc, obj, path, "interpolation", false, &ok);
	if (!ok)
		return animc_gltf_status(im->doc);
	if (!interp || strcmp(interp, "LINEAR") == 0)
		out->mode = GLTF_LINEAR;
	else if (strcmp(interp, "STEP") == 0)
		out->mode = GLTF_STEP;
	else if (strcmp(interp, "CUBICSPLINE") == 0)
		out->mode = GLTF_CUBICSPLINE;
	else
		return animc_gltf_fail(im->doc, ANIMC_ERR_INVALID, path, "interpolation '%s' is not LINEAR, "
				 "STEP or CUBICSPLINE", interp);
	return ANIMC_OK;
}

/* A curve past GLTF_MAX_BAKED_KEYS, said as what passed it: the keys the
 * sampler holds (LINEAR), the key a STEP curve adds before each change of
 * value, or a cubic spline baked finer than that many keys can follow. */
static void key_limit_passed(importer *im, const char *path, gltf_interpolation mode, uint32_t count, double bound,
			     bool is_rotation)
{
	if (mode == GLTF_LINEAR || count > GLTF_MAX_BAKED_KEYS)
		animc_gltf_fail(im->doc, ANIMC_ERR_LIMIT, path, "the curve has %u keys; animc reads at most %u "
				"keys a curve: split the take", count, GLTF_MAX_BAKED_KEYS);
	else if (mode == GLTF_STEP)
		animc_gltf_fail(im->doc, ANIMC_ERR_LIMIT, path, "the STEP curve of %u keys needs more than %u "
				"keys (one more before each change of value, to hold it); animc reads at most %u "
				"keys a curve: split the take", count, GLTF_MAX_BAKED_KEYS, GLTF_MAX_BAKED_KEYS);
	else
		animc_gltf_fail(im->doc, ANIMC_ERR_LIMIT, path, "the cubic spline of %u keys cannot be followed "
				"within %g %s by at most %u keys, animc's limit for a curve (are its tangents "
				"sane?)", count, bound, is_rotation ? "rad" : "units", GLTF_MAX_BAKED_KEYS);
}

/* One track of node `t->node` from its sampler, into the clip's channel. */
static animc_status import_track(importer *im, json_t *samplers, const char *anim_path, const target *t,
				 animc_clip *clip, uint32_t ch, float *last_time, uint32_t *dropped)
{
	static const char *const kind_types[ANIMC_TRACK_COUNT] = { "VEC3", "VEC4", "VEC3" };
	char path[GLTF_PATH_BYTES], in_path[GLTF_PATH_BYTES], out_path[GLTF_PATH_BYTES];
	unsigned width = animc_track_width[t->kind];
	gltf_accessor input = { 0 }, output = { 0 };
	gltf_keys keys = { 0 };
	sampler_info s;
	animc_status status;
	uint64_t want;
	uint32_t off_unit = 0;

	status = read_sampler(im, samplers, t->sampler, anim_path, &s, path);
	if (status != ANIMC_OK)
		return status;
	animc_gltf_path(in_path, "%s.input", path);
	animc_gltf_path(out_path, "%s.output", path);
	status = read_input(im, s.input, in_path, &input);
	if (status != ANIMC_OK)
		return status;
	status = shift_times(im, &input, in_path);
	if (status != ANIMC_OK)
		goto done;
	/* The output's type and count are checked against the input before
	 * its elements are read: an accessor of zeros costs no input bytes. */
	status = animc_gltf_accessor_describe(im->doc, s.output, out_path, &output);
	if (status != ANIMC_OK)
		goto done;
	if (output.width != width || output.is_matrix) {
		status = animc_gltf_fail(im->doc, ANIMC_ERR_INVALID, out_path, "%s values must be a %s accessor "
				   "(accessors[%llu] has %u components)", animc_track_name[t->kind],
				   kind_types[t->kind], (unsigned long long)s.output, output.width);
		goto done;
	}
	want = (uint64_t)input.count * (s.mode == GLTF_CUBICSPLINE ? 3 : 1);
	if (output.count != want) {
		status = animc_gltf_fail(im->doc, ANIMC_ERR_INVALID, out_path, "%u values for %u key times; "
				   "%s needs %llu", output.count, input.count,
				   s.mode == GLTF_CUBICSPLINE ? "CUBICSPLINE (in-tangent, value, out-tangent "
				   "per key)" : "one per key", (unsigned long long)want);
		goto done;
	}
	status = animc_gltf_accessor_read(im->doc, s.output, out_path, &output);
	if (status != ANIMC_OK)
		goto done;
	if (t->kind == ANIMC_ROTATION) {
		/* Key values are unit quaternions (tangents are not). */
		for (uint32_t k = 0; k < input.count; k++) {
			float *q = &output.values[((size_t)k * (s.mode == GLTF_CUBICSPLINE ? 3 : 1) +
						   (s.mode == GLTF_CUBICSPLINE)) * 4];
			double len = sqrt((double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] +
					  (double)q[3] * q[3]);

			if (!(len > 1e-6)) {
				status = animc_gltf_fail(im->doc, ANIMC_ERR_INVALID, out_path, "key %u is a zero "
						   "quaternion, which is no rotation", k);
				goto done;
			}
			if (fabs(len - 1) > ANIMC_UNIT_QUAT_TOLERANCE && output.component_type == GLTF_FLOAT)
				off_unit++;
			for (int c = 0; c < 4; c++)
				q[c] = (float)(q[c] / len);
		}
		if (off_unit)
			animc_gltf_warn(im->doc, ANIMC_WARN_NOT_UNIT_QUATERNION, out_path, "%u rotation key%s not of unit length, which glTF "
				  "requires; normalised: check the exporter's rotation output (quaternions)",
				  off_unit, off_unit == 1 ? " is" : "s are");
	}
	if (input.count - 1 > im->gap_capacity - im->gap_count) {
		size_t capacity = im->gap_count + input.count + im->gap_capacity;
		double *gaps = realloc(im->gaps, capacity * sizeof *gaps);

		if (!gaps) {
			status = animc_gltf_fail(im->doc, ANIMC_ERR_NOMEM, path, "out of memory");
			goto done;
		}
		im->gaps = gaps;
		im->gap_capacity = capacity;
	}
	for (uint32_t k = 1; k < input.count; k++)
		im->gaps[im->gap_count++] = (double)input.values[k] - input.values[k - 1];
	/* Baking adds keys: a CUBICSPLINE curve finer ones, a STEP one a key a
	 * float step before each change, which as a frame would be ~1e-7 s. */
	im->is_baked |= s.mode == GLTF_CUBICSPLINE || s.mode == GLTF_STEP;
	status = animc_gltf_keys_build(s.mode, t->kind == ANIMC_ROTATION, width, input.values, output.values,
				 input.count, animc_gltf_bound_of(im->bounds, t->kind), &keys);
	if (status == ANIMC_ERR_LIMIT && keys.is_through_zero) {
		uint32_t k = keys.limit_key;
		const float *a = &output.values[((size_t)k * 3 + 1) * 4], *b = &output.values[((size_t)k * 3 + 4) * 4];
		double dot = (double)a[0] * b[0] + (double)a[1] * b[1] + (double)a[2] * b[2] + (double)a[3] * b[3];

		if (dot < 0)
			animc_gltf_fail(im->doc, status, path, "keys %u and %u (at %g s and %g s) are of opposite sign "
				  "(dot product %.3g), so the cubic spline between them passes through the zero "
				  "quaternion, which is no rotation: negate key %u and its tangents (q and -q are the same rotation)", k,
				  k + 1, input.values[k], input.values[k + 1], dot, k + 1);
		else
			animc_gltf_fail(im->doc, status, path, "the cubic spline between keys %u and %u (at %g s and %g s) "
				  "passes through the zero quaternion, which is no rotation (are its tangents sane?)", k,
				  k + 1, input.values[k], input.values[k + 1]);
		goto done;
	}
	if (status == ANIMC_ERR_LIMIT) {
		key_limit_passed(im, path, s.mode, input.count, animc_gltf_bound_of(im->bounds, t->kind),
				 t->kind == ANIMC_ROTATION);
		goto done;
	}
	if (status != ANIMC_OK) {
		animc_gltf_fail(im->doc, status, path, "out of memory");
		goto done;
	}
	{
		animc_track *track = &clip->channels[ch].tracks[t->kind];

		track->times_s = animc_clip_alloc_floats(clip, keys.count);
		track->values = animc_clip_alloc_values(clip, t->kind, keys.count);
		if (!track->times_s || !track->values) {
			status = animc_gltf_fail(im->doc, ANIMC_ERR_NOMEM, path, "out of memory");
			goto done;
		}
		memcpy(track->times_s, keys.times_s, keys.count * sizeof *keys.times_s);
		memcpy(track->values, keys.values, (size_t)keys.count * width * sizeof *keys.values);
		track->value_count = keys.count;
		track->is_present = true;
		track->is_fixed = false;
	}
	if (input.values[input.count - 1] > *last_time)
		*last_time = input.values[input.count - 1];
	*dropped += keys.dropped_before_zero;
done:
	animc_gltf_keys_release(&keys);
	animc_gltf_accessor_release(&input);
	animc_gltf_accessor_release(&output);
	return status;
}

/* The first and last key time of sampler `sampler` of an animation. */
static animc_status sampler_span(importer *im, json_t *samplers, const char *anim_path, uint64_t sampler,
				 double *first, double *last)
{
	char path[GLTF_PATH_BYTES], in_path[GLTF_PATH_BYTES];
	gltf_accessor input;
	sampler_info s;
	animc_status status = read_sampler(im, samplers, sampler, anim_path, &s, path);

	if (status != ANIMC_OK)
		return status;
	animc_gltf_path(in_path, "%s.input", path);
	status = read_input(im, s.input, in_path, &input);
	if (status != ANIMC_OK)
		return status;
	*first = input.values[0];
	*last = input.values[input.count - 1];
	animc_gltf_accessor_release(&input);
	return ANIMC_OK;
}

/* The last key time of a morph-weights sampler, for the clip's length. */
static animc_status weights_end(importer *im, json_t *samplers, const char *anim_path, uint64_t sampler,
				float *last_time)
{
	double first, last;
	animc_status status = sampler_span(im, samplers, anim_path, sampler, &first, &last);

	if (status != ANIMC_OK)
		return status;
	if (last + im->time_shift > *last_time)
		*last_time = (float)(last + im->time_shift);
	return ANIMC_OK;
}

/* The first and last key time of an animation's samplers, those of its
 * node targets and of its morph weights, read before any track is built. */
static animc_status animation_span(importer *im, json_t *samplers, const char *anim_path,
				   const target *targets, size_t count, json_t *weight_samplers,
				   double *first, double *last)
{
	size_t weights = json_array_size(weight_samplers);

	*first = INFINITY;
	*last = -INFINITY;
	for (size_t i = 0; i < count + weights; i++) {
		uint64_t sampler = i < count ? targets[i].sampler :
				   (uint64_t)json_integer_value(json_array_get(weight_samplers, i - count));
		double a, b;
		animc_status status = sampler_span(im, samplers, anim_path, sampler, &a, &b);

		if (status != ANIMC_OK)
			return status;
		*first = fmin(*first, a);
		*last = fmax(*last, b);
	}
	return ANIMC_OK;
}

/*
 * An animation keyed wholly before 0 (a Maya timeline or a Blender action at
 * negative frames, exported without sliding it to 0) would keep, of all its
 * motion, the value of its last key: a still pose, said in a note only.  It
 * is moved to start at 0, as other tools play such a take, with a warning.
 * Keys before 0 beside keys after it stay a pre-roll, cut at 0.
 */
static animc_status decide_shift(importer *im, json_t *samplers, const char *anim_path, const char *clip_name,
				 const target *targets, size_t count, json_t *weight_samplers)
{
	double first, last;
	animc_status status = animation_span(im, samplers, anim_path, targets, count, weight_samplers,
					     &first, &last);

	im->time_shift = 0;
	if (status != ANIMC_OK || !(first < 0 && last <= 0))
		return status;
	im->time_shift = -first;
	animc_gltf_warn(im->doc, ANIMC_WARN_KEYS_BEFORE_ZERO, anim_path, "every key of animation '%s' lies "
		  "before time 0 (%g s to %g s), where nothing of it would play; moved %g s later to "
		  "start at 0: export it from frame 0 (in Maya or Blender, a timeline or action "
		  "starting at 0)", clip_name, first, last, -first);
	return ANIMC_OK;
}

/* The node property a KHR_animation_pointer pointer names, "/nodes/N/P"
 * (RFC 6901: N written without leading zeros), as the core target
 * {node: N, path: P} names it; NULL for a pointer to anything else. */
static const char *node_pointer(const char *pointer, uint64_t *node)
{
	static const char *const paths[] = { "translation", "rotation", "scale", "weights" };
	const char *p = pointer + strlen("/nodes/");
	uint64_t n = 0;

	if (strncmp(pointer, "/nodes/", strlen("/nodes/")) != 0 || !(*p >= '0' && *p <= '9') ||
	    (p[0] == '0' && p[1] >= '0' && p[1] <= '9'))
		return NULL;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (n > (UINT64_MAX - 9) / 10)
			return NULL;
		n = n * 10 + (uint64_t)(*p - '0');
	}
	if (*p++ != '/')
		return NULL;
	for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++)
		if (strcmp(p, paths[i]) == 0) {
			*node = n;
			return paths[i];
		}
	return NULL;
}

/*
 * The node and path of a channel target without a node: a
 * KHR_animation_pointer pointer to a node's translation, rotation, scale
 * or weights is that core target; any other target is left out with a
 * warning.  1 found, 0 left out, -1 failed (reported).
 */
static int pointer_target(importer *im, json_t *tg, const char *tpath, const char *path, uint64_t *node,
			  const char **what)
{
	char ppath[GLTF_PATH_BYTES];
	json_t *ext = animc_gltf_member(animc_gltf_member(tg, "extensions"), "KHR_animation_pointer");
	const char *pointer = NULL, *property;
	bool ok = true;

	animc_gltf_path(ppath, "%s.extensions.KHR_animation_pointer", tpath);
	if (strcmp(path, "pointer") == 0 && ext) {
		if (!animc_gltf_expect_object(im->doc, ext, ppath))
			return -1;
		pointer = animc_gltf_get_string(im->doc, ext, ppath, "pointer", true, &ok);
		if (!ok)
			return -1;
	}
	if (!pointer) {
		animc_gltf_warn(im->doc, ANIMC_WARN_NON_NODE_TARGET, tpath, "targets no node ('%s', an extension's); left out: "
			  "only node translation, rotation and scale compile, so bake this animation into "
			  "nodes if the game needs it", path);
		return 0;
	}
	property = node_pointer(pointer, node);
	if (!property) {
		animc_gltf_warn(im->doc, ANIMC_WARN_NON_NODE_TARGET, tpath, "points at '%s', not a node's translation, "
			  "rotation or scale; left out: only those compile, so bake this animation into "
			  "nodes if the game needs it", pointer);
		return 0;
	}
	if (*node >= json_array_size(im->doc->nodes_json)) {
		animc_gltf_fail(im->doc, ANIMC_ERR_INVALID, NULL, "%s.pointer: '%s' names node %llu, out of range (%zu nodes)",
			  ppath, pointer, (unsigned long long)*node, json_array_size(im->doc->nodes_json));
		return -1;
	}
	*what = property;
	return 1;
}

/* The targets of an animation's channels; *count of them in *out (malloc()ed). */
static animc_status gather_targets(importer *im, json_t *anim, const char *anim_path, json_t *samplers,
				   target **out, size_t *count, uint32_t *weights, json_t *weight_samplers)
{
	char path[GLTF_PATH_BYTES];
	json_t *channels;
	size_t n, used = 0;
	target *targets;

	*out = NULL;
	*count = 0;
	if (!animc_gltf_get_array(im->doc, anim, anim_path, "channels", &channels))
		return animc_gltf_status(im->doc);
	if (!channels)
		return animc_gltf_fail(im->doc, ANIMC_ERR_PARSE, anim_path, "'channels' is missing");
	n = json_array_size(channels);
	targets = calloc(n ? n : 1, sizeof *targets);
	if (!targets)
		return animc_gltf_fail(im->doc, ANIMC_ERR_NOMEM, anim_path, "out of memory");
	for (size_t c = 0; c < n; c++) {
		char tpath[GLTF_PATH_BYTES];
		json_t *ch, *tg;
		const char *what;
		uint64_t sampler, node;
		bool ok;

		animc_gltf_path(path, "%s.channels[%zu]", anim_path, c);
		animc_gltf_path(tpath, "%s.target", path);
		ch = animc_gltf_expect_object(im->doc, json_array_get(channels, c), path);
		if (!ch || !animc_gltf_get_index(im->doc, ch, path, "sampler", true, json_array_size(samplers),
					   &sampler))
			goto fail;
		tg = animc_gltf_expect_object(im->doc, animc_gltf_member(ch, "target"), tpath);
		if (!tg)
			goto fail;
		what = animc_gltf_get_string(im->doc, tg, tpath, "path", true, &ok);
		if (!ok)
			goto fail;
		if (!animc_gltf_member(tg, "node")) {
			int found = pointer_target(im, tg, tpath, what, &node, &what);

			if (found < 0)
				goto fail;
			if (found == 0)
				continue;
		} else if (!animc_gltf_get_index(im->doc, tg, tpath, "node", true,
						 json_array_size(im->doc->nodes_json), &node))
			goto fail;
		if (strcmp(what, "weights") == 0) {
			(*weights)++;
			json_array_append_new(weight_samplers, json_integer((json_int_t)sampler));
			continue;
		}
		animc_track_kind kind;

		if (strcmp(what, "translation") == 0)
			kind = ANIMC_TRANSLATION;
		else if (strcmp(what, "rotation") == 0)
			kind = ANIMC_ROTATION;
		else if (strcmp(what, "scale") == 0)
			kind = ANIMC_SCALE;
		else {
			animc_gltf_warn(im->doc, ANIMC_WARN_UNKNOWN_TARGET_PATH, tpath, "path '%s' is not translation, rotation, scale or weights, "
				  "which glTF 2.0 requires; left out: fix the exporter or the file", what);
			continue;
		}
		targets[used++] = (target){ node, kind, sampler, c };
	}
	qsort(targets, used, sizeof *targets, compare_targets);
	/* One target used twice: the later channel wins, as in Assimp.  One
	 * warning per animation, naming the first few. */
	size_t kept = 0, again = 0, listed = 0;
	char places[256] = "";
	for (size_t i = 0; i < used; i++) {
		if (kept && targets[kept - 1].node == targets[i].node &&
		    targets[kept - 1].kind == targets[i].kind) {
			if (listed < 3) {
				size_t at = strlen(places);

				snprintf(places + at, sizeof places - at, "%sthe %s of nodes[%llu]",
					 listed ? ", " : "", animc_track_name[targets[i].kind],
					 (unsigned long long)targets[i].node);
				listed++;
			}
			again++;
			kept--;
		}
		targets[kept++] = targets[i];
	}
	if (again)
		animc_gltf_warn(im->doc, ANIMC_WARN_DUPLICATE_CHANNEL, anim_path, "%zu channel%s animate%s what an earlier channel already "
			  "animates (%s%s); kept the later of each: export one channel per node and "
			  "property (in Blender, one action per animation, NLA strips baked)", again,
			  again == 1 ? "" : "s", again == 1 ? "s" : "", places, again > listed ? ", ..." : "");
	*out = targets;
	*count = kept;
	return ANIMC_OK;
fail:
	free(targets);
	return animc_gltf_status(im->doc);
}

/* Animation `a` as a clip named `clip_name` (decided by decide_names). */
static animc_status import_animation(importer *im, size_t a, const char *clip_name, animc_clip_set *set)
{
	char anim_path[GLTF_PATH_BYTES], name_buf[GLTF_PATH_BYTES];
	json_t *anims = animc_gltf_member(im->doc->root, "animations"), *anim, *samplers;
	json_t *weight_samplers = json_array();
	target *targets = NULL;
	size_t count = 0;
	uint32_t weights = 0, dropped = 0, not_joints = 0;
	float last_time = 0;
	const char *name;
	animc_clip *clip = NULL;
	animc_status status;
	bool ok;

	animc_gltf_path(anim_path, "animations[%zu]", a);
	if (!weight_samplers)
		return animc_gltf_fail(im->doc, ANIMC_ERR_NOMEM, anim_path, "out of memory");
	anim = animc_gltf_expect_object(im->doc, json_array_get(anims, a), anim_path);
	if (!anim || !animc_gltf_get_array(im->doc, anim, anim_path, "samplers", &samplers)) {
		status = animc_gltf_status(im->doc);
		goto done;
	}
	if (!samplers) {
		status = animc_gltf_fail(im->doc, ANIMC_ERR_PARSE, anim_path, "'samplers' is missing");
		goto done;
	}
	name = animc_gltf_get_string(im->doc, anim, anim_path, "name", false, &ok);
	if (!ok) {
		status = animc_gltf_status(im->doc);
		goto done;
	}
	status = gather_targets(im, anim, anim_path, samplers, &targets, &count, &weights, weight_samplers);
	if (status != ANIMC_OK)
		goto done;
	if (count == 0) {
		/* Morph weights alone (or nothing): nothing a bone plays. */
		im->mesh_only++;
		im->no_channel += json_array_size(animc_gltf_member(anim, "channels")) == 0;
		status = ANIMC_OK;
		goto done;
	}
	(void)name;   /* checked to be a string; the clip's name is decided */
	clip = animc_clip_create(clip_name);
	if (!clip) {
		status = animc_gltf_fail(im->doc, ANIMC_ERR_NOMEM, anim_path, "out of memory");
		goto done;
	}
	im->gap_count = 0;
	im->is_baked = false;
	status = decide_shift(im, samplers, anim_path, clip_name, targets, count, weight_samplers);
	if (status != ANIMC_OK)
		goto done;
	for (size_t i = 0; i < count && status == ANIMC_OK;) {
		uint64_t node = targets[i].node;
		const char *bone;
		bool has[ANIMC_TRACK_COUNT] = { false }, has_matrix;
		rest r;
		int64_t ch;

		if (!check_node(im->doc, node)) {
			status = animc_gltf_status(im->doc);
			break;
		}
		bone = animc_gltf_node_name(im->doc, node, name_buf);
		ch = animc_clip_add_channel(clip, bone, strlen(bone));
		if (ch < 0) {
			status = animc_gltf_fail(im->doc, ANIMC_ERR_NOMEM, anim_path, "out of memory");
			break;
		}
		if (im->is_joint && !im->is_joint[node])
			not_joints++;
		for (; i < count && targets[i].node == node && status == ANIMC_OK; i++) {
			status = import_track(im, samplers, anim_path, &targets[i], clip, (uint32_t)ch,
					      &last_time, &dropped);
			has[targets[i].kind] = true;
		}
		if (status != ANIMC_OK)
			break;
		status = node_rest(im->doc, node, &r, NULL, &has_matrix);
		if (status != ANIMC_OK)
			break;
		if (has_matrix && !im->matrix_said[node]) {
			char npath[GLTF_PATH_BYTES];

			im->matrix_said[node] = true;

			animc_gltf_path(npath, "nodes[%llu]", (unsigned long long)node);
			animc_gltf_warn(im->doc, ANIMC_WARN_ANIMATED_MATRIX, npath, "is animated but has a matrix, which glTF forbids; the "
				  "tracks not animated come from the matrix: export the node's rest as "
				  "translation, rotation and scale");
		}
		/* Tracks a node's channels leave out keep the node's own value. */
		for (int k = 0; k < ANIMC_TRACK_COUNT; k++) {
			animc_track *t = &clip->channels[ch].tracks[k];
			const float *v = k == ANIMC_TRANSLATION ? r.translation :
					 k == ANIMC_ROTATION ? r.rotation : r.scale;

			if (has[k])
				continue;
			t->values = animc_clip_alloc_values(clip, (animc_track_kind)k, 1);
			if (!t->values) {
				status = animc_gltf_fail(im->doc, ANIMC_ERR_NOMEM, anim_path, "out of memory");
				break;
			}
			memcpy(t->values, v, animc_track_width[k] * sizeof *v);
			t->value_count = 1;
			t->is_present = true;
			t->is_fixed = true;
		}
	}
	for (size_t w = 0; status == ANIMC_OK && w < json_array_size(weight_samplers); w++)
		status = weights_end(im, samplers, anim_path,
				     (uint64_t)json_integer_value(json_array_get(weight_samplers, w)),
				     &last_time);
	if (status != ANIMC_OK)
		goto done;
	if (weights)
		animc_gltf_note(im->doc, anim_path, "%u channel%s animate%s morph-target weights, which "
			  "the format cannot hold; left out", weights, weights == 1 ? "" : "s",
			  weights == 1 ? "s" : "");
	if (dropped)
		animc_gltf_note(im->doc, anim_path, "%u key%s before time 0 left out; the value at 0 is "
			  "interpolated from the keys around it", dropped, dropped == 1 ? "" : "s");
	/* Cameras, props and the armature object itself are animated outside
	 * skins in ordinary files: written like any bone. */
	if (not_joints)
		animc_gltf_note(im->doc, anim_path, "%u animated node%s %s no joint of any skin (the bones "
			  "of the document's skins); written like the joints", not_joints,
			  not_joints == 1 ? "" : "s", not_joints == 1 ? "is" : "are");
	/* A pose (every key at 0) lasts 0 s here; the pipeline's playable pass
	 * lengthens it, as it gives one-key sequences their KeyInterval. */
	clip->duration_s = last_time;
	for (uint32_t c = 0; c < clip->channel_count; c++)
		clip->channels[c].duration_s = clip->duration_s;
	/* glTF states no frame rate: --split counts frames at the key spacing
	 * most keys share, the authored one where a curve was baked to more keys. */
	if (im->is_baked)
		clip->frame_rate = animc_frame_rate_of_gaps(im->gaps, im->gap_count, NULL);
	status = animc_clip_set_add(set, clip);
	clip = NULL;
done:
	animc_clip_destroy(clip);
	free(targets);
	json_decref(weight_samplers);
	return status;
}

/* A set of names (open addressing, FNV-1a), each with a number, so that
 * finding repeated names stays linear however many animations or nodes a
 * document holds.  The names are borrowed. */
typedef struct name_set {
	const char **slots;
	uint32_t *values;
	size_t capacity;
} name_set;

static size_t name_hash(const char *s)
{
	size_t h = 1469598103934665603u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return h;
}

/* Room for `expected` names at most. */
static bool name_set_init(name_set *set, size_t expected)
{
	set->capacity = 16;
	while (set->capacity < expected * 2 + 1)
		set->capacity *= 2;
	set->slots = calloc(set->capacity, sizeof *set->slots);
	set->values = calloc(set->capacity, sizeof *set->values);
	return set->slots && set->values;
}

static void name_set_release(name_set *set)
{
	free(set->slots);
	free(set->values);
}

/* The slot of `name`: where it is, or the empty one where it would go. */
static size_t name_set_slot(const name_set *set, const char *name)
{
	size_t i = name_hash(name) & (set->capacity - 1);

	while (set->slots[i] && strcmp(set->slots[i], name) != 0)
		i = (i + 1) & (set->capacity - 1);
	return i;
}

/* True when `name` was not in the set (it is now, with `value`). */
static bool name_set_add(name_set *set, const char *name, uint32_t value)
{
	size_t i = name_set_slot(set, name);

	if (set->slots[i])
		return false;
	set->slots[i] = name;
	set->values[i] = value;
	return true;
}

/* Two nodes of one name both animated in a clip: the later node wins. */
static animc_status drop_duplicate_bones(importer *im, animc_clip *clip, const char *anim_path)
{
	uint32_t kept = 0;
	name_set seen;

	if (!name_set_init(&seen, clip->channel_count)) {
		name_set_release(&seen);
		return animc_gltf_fail(im->doc, ANIMC_ERR_NOMEM, anim_path, "out of memory");
	}
	/* From the last channel back: the first seen of a name is the one kept. */
	for (uint32_t i = clip->channel_count; i-- > 0;) {
		if (name_set_add(&seen, clip->channels[i].bone, i))
			continue;
		animc_gltf_warn(im->doc, ANIMC_WARN_BONE_NAME_CLASH, anim_path, "more than one animated node is named '%s', and the "
			  "runtime finds bones by name; kept the last one: give each animated node its "
			  "own name", clip->channels[i].bone);
		clip->channels[i].bone = NULL;
	}
	for (uint32_t i = 0; i < clip->channel_count; i++)
		if (clip->channels[i].bone)
			clip->channels[kept++] = clip->channels[i];
	clip->channel_count = kept;
	name_set_release(&seen);
	return ANIMC_OK;
}

/* Mark the nodes that are joints of some skin. */
static animc_status mark_joints(importer *im)
{
	json_t *skins;
	size_t nodes = json_array_size(im->doc->nodes_json);

	if (!animc_gltf_get_array(im->doc, im->doc->root, "", "skins", &skins))
		return animc_gltf_status(im->doc);
	if (!skins || json_array_size(skins) == 0)
		return ANIMC_OK;
	im->is_joint = calloc(nodes ? nodes : 1, sizeof *im->is_joint);
	if (!im->is_joint)
		return animc_gltf_fail(im->doc, ANIMC_ERR_NOMEM, NULL, "out of memory");
	for (size_t s = 0; s < json_array_size(skins); s++) {
		char path[GLTF_PATH_BYTES];
		json_t *skin, *joints;

		animc_gltf_path(path, "skins[%zu]", s);
		skin = animc_gltf_expect_object(im->doc, json_array_get(skins, s), path);
		if (!skin || !animc_gltf_get_array(im->doc, skin, path, "joints", &joints))
			return animc_gltf_status(im->doc);
		for (size_t j = 0; joints && j < json_array_size(joints); j++) {
			json_t *v = json_array_get(joints, j);
			json_int_t node = json_is_integer(v) ? json_integer_value(v) : -1;

			if (node < 0 || (uint64_t)node >= nodes)
				return animc_gltf_fail(im->doc, ANIMC_ERR_INVALID, NULL, "%s.joints[%zu]: not a node "
						 "index (0 to %zu)", path, j, nodes ? nodes - 1 : 0);
			im->is_joint[node] = true;
		}
	}
	return ANIMC_OK;
}

/* What the animations that move no node hold: "N animations move no node
 * (...)", or that they have no channel at all. */
static void nodeless_text(const importer *im, char *buf, size_t size)
{
	uint32_t n = im->mesh_only, empty = im->no_channel, other = n - empty;
	const char *what = "morph-target weights or extension pointers only";

	if (empty == n)
		snprintf(buf, size, "%u animation%s no channel", n, n == 1 ? " has" : "s have");
	else if (empty == 0)
		snprintf(buf, size, "%u animation%s no node (%s), which the format cannot hold", n,
			 n == 1 ? " moves" : "s move", what);
	else
		snprintf(buf, size, "%u animations move no node (%u with %s, %u with no channel), which the "
			 "format cannot hold", n, other, what, empty);
}

/*
 * The clip name of each animation, decided before any is imported, in
 * document order, so that no name depends on which animations fail or
 * hold no node: an unnamed one is clipN (N its index in `animations`),
 * and of several of one name the later are NAME.1, ... (with a warning).
 * A clip that took another's name would write over the last good output
 * of the failed one, and a game loading it would play the wrong clip.
 * `names` holds one placeholder clip per animation, for its name.
 */
static animc_status decide_names(gltf_doc *doc, json_t *anims, animc_clip_set *names)
{
	for (size_t a = 0; anims && a < json_array_size(anims); a++) {
		json_t *name = animc_gltf_member(json_array_get(anims, a), "name");
		char unnamed[32];
		const char *use = name && json_is_string(name) ? json_string_value(name) : "";
		animc_clip *clip;

		if (!use[0]) {
			snprintf(unnamed, sizeof unnamed, "clip%zu", a);
			use = unnamed;
		}
		clip = animc_clip_create(use);
		if (!clip || animc_clip_set_add(names, clip) != ANIMC_OK) {
			animc_clip_destroy(clip);
			return animc_gltf_fail(doc, ANIMC_ERR_NOMEM, "animations", "out of memory");
		}
	}
	return animc_clip_set_name_unique(names, doc->sink);
}

animc_status animc_gltf_doc_import(gltf_doc *doc, const animc_import_options *options,
			     const gltf_bounds *bounds, animc_clip_set *out)
{
	importer im = { .doc = doc, .options = options, .bounds = bounds ? bounds : &animc_gltf_default_bounds };
	json_t *anims;
	animc_clip_set names = { 0 };
	animc_status status = ANIMC_OK, failed = ANIMC_OK;

	if (!animc_gltf_get_array(doc, doc->root, "", "animations", &anims))
		return animc_gltf_status(doc);
	status = decide_names(doc, anims, &names);
	/* With --skeleton the build checks bones against the model; without,
	 * the document's own skins say which nodes are bones. */
	if (status == ANIMC_OK && (!options || !options->skeleton))
		status = mark_joints(&im);
	/* A node's matrix is said once, however many animations move it. */
	im.matrix_said = calloc(json_array_size(doc->nodes_json) + 1, sizeof *im.matrix_said);
	if (status == ANIMC_OK && !im.matrix_said)
		status = animc_gltf_fail(doc, ANIMC_ERR_NOMEM, NULL, "out of memory");
	/* An animation that cannot be read fails alone (its error names it):
	 * the others are still imported, as a bad clip of an Assimp source
	 * fails alone.  The source still fails, having reported an error. */
	for (size_t a = 0; status == ANIMC_OK && anims && a < json_array_size(anims); a++) {
		uint32_t before = out->count;
		animc_status one = import_animation(&im, a, names.clips[a]->name, out);

		if (one == ANIMC_ERR_NOMEM) {
			status = one;
		} else if (one != ANIMC_OK) {
			char path[GLTF_PATH_BYTES];

			/* Its error is reported, once; where there are other
			 * clips, a note says which clip it cost. */
			animc_gltf_path(path, "animations[%zu]", a);
			if (json_array_size(anims) > 1)
				animc_gltf_note(doc, path, "clip '%s' left out; the other clips are still imported",
					  names.clips[a]->name);
			failed = failed ? failed : one;
		} else if (out->count > before) {
			char path[GLTF_PATH_BYTES];

			animc_gltf_path(path, "animations[%zu]", a);
			status = drop_duplicate_bones(&im, out->clips[before], path);
		}
	}
	if (status == ANIMC_OK && failed && out->count == 0)
		status = failed;
	animc_clip_set_release(&names);
	char nodeless[160];
	nodeless_text(&im, nodeless, sizeof nodeless);
	if (status == ANIMC_OK && im.mesh_only)
		animc_gltf_note(doc, NULL, "%s; left out", nodeless);
	free(im.is_joint);
	free(im.matrix_said);
	free(im.gaps);
	if (status != ANIMC_OK) {
		animc_clip_set_release(out);
		return status;
	}
	out->is_single_asset = false;
	/* None left: the error says why, not only a note under -v. */
	if (!out->count && im.mesh_only)
		snprintf(out->holds, sizeof out->holds, "no skeletal animation: its %s", nodeless);
	return out->count ? ANIMC_OK : ANIMC_ERR_NOT_FOUND;
}

/* --------------------------------------------------------------- skeleton */

/* At most this many nodes of a cycle are named in its message. */
#define CYCLE_NAMED 8

/* Why entry i of scene k's node list, `node`, is no root to build from:
 * not a node, a node with a parent, or one the list names twice. */
static animc_status scene_root_fail(gltf_doc *doc, unsigned long long k, size_t i, json_int_t node, size_t nodes,
				    int64_t parent)
{
	if (node < 0 || (uint64_t)node >= nodes)
		return animc_gltf_fail(doc, ANIMC_ERR_INVALID, NULL, "scenes[%llu].nodes[%zu]: not a node index "
				       "(0 to %zu)", k, i, nodes ? nodes - 1 : 0);
	if (parent >= 0)
		return animc_gltf_fail(doc, ANIMC_ERR_INVALID, NULL, "scenes[%llu].nodes[%zu]: nodes[%lld] is not a "
				       "root node: nodes[%lld] is its parent", k, i, (long long)node, (long long)parent);
	return animc_gltf_fail(doc, ANIMC_ERR_INVALID, NULL, "scenes[%llu].nodes[%zu]: nodes[%lld] is listed "
			       "twice", k, i, (long long)node);
}

/*
 * With one parent per node, the nodes are a forest unless parent links go
 * round a cycle: every node of one has a parent, so no root reaches it and
 * the walk from the roots would leave it out without a word (a model of
 * cyclic nodes alone becoming the one bone ROOT).  Found by following each
 * node's parents; `mark` and `ring` are scratch of `nodes` entries.  The
 * cycle is named from its lowest node, each node followed by its child.
 */
static animc_status check_acyclic(gltf_doc *doc, const int64_t *parent, size_t nodes, int32_t *mark,
				  size_t *ring)
{
	char list[CYCLE_NAMED * 32];
	size_t n = 0, count = 0, low = 0, len = 0;
	bool found = false;

	for (size_t i = 0; i < nodes; i++)
		mark[i] = -1;
	for (size_t i = 0; i < nodes && !found; i++) {
		/* Up from i to a root, or to a node a walk has seen. */
		for (n = i; mark[n] < 0; n = (size_t)parent[n]) {
			mark[n] = (int32_t)i;
			if (parent[n] < 0)
				break;
		}
		/* Back at a node of this very walk: n lies on a cycle. */
		found = mark[n] == (int32_t)i && parent[n] >= 0;
	}
	if (!found)
		return ANIMC_OK;
	/* The cycle in parent order, ring[k + 1] the parent of ring[k]. */
	do {
		if (count == 0 || n < ring[low])
			low = count;
		ring[count++] = n;
		n = (size_t)parent[n];
	} while (n != ring[0]);
	/* Child order is the reverse: ring[low], ring[low - 1], ... */
	for (size_t k = 0; k < count && k < CYCLE_NAMED; k++)
		len += (size_t)snprintf(list + len, sizeof list - len, "nodes[%zu] -> ",
					ring[(low + count - k) % count]);
	if (count > CYCLE_NAMED)
		snprintf(list + len, sizeof list - len, "... (%zu nodes) -> ", count);
	return animc_gltf_fail(doc, ANIMC_ERR_INVALID, NULL, "%snodes[%zu]: each node lists the next as its child, a "
			 "cycle that no root reaches; the node tree is not a tree", list, ring[low]);
}

animc_status animc_gltf_doc_skeleton(gltf_doc *doc, animc_skeleton *out)
{
	size_t nodes = json_array_size(doc->nodes_json), root_count = 0, stack_used = 0;
	int64_t *parent = NULL;
	size_t *roots = NULL, *stack = NULL;
	int32_t *bone_of = NULL;
	json_t *scenes, *scene = NULL;
	uint64_t scene_index = 0;
	animc_status status = ANIMC_OK;
	bool synthetic_root;

	memset(out, 0, sizeof *out);
	if (!animc_gltf_get_array(doc, doc->root, "", "scenes", &scenes))
		return animc_gltf_status(doc);
	if (scenes && json_array_size(scenes)) {
		if (!animc_gltf_get_index(doc, doc->root, "", "scene", false, json_array_size(scenes), &scene_index))
			return animc_gltf_status(doc);
		char path[GLTF_PATH_BYTES];

		animc_gltf_path(path, "scenes[%llu]", (unsigned long long)scene_index);
		scene = animc_gltf_expect_object(doc, json_array_get(scenes, scene_index), path);
		if (!scene)
			return animc_gltf_status(doc);
	}
	parent = malloc((nodes ? nodes : 1) * sizeof *parent);
	roots = malloc((nodes ? nodes : 1) * sizeof *roots);
	stack = malloc((nodes ? nodes : 1) * sizeof *stack);
	bone_of = malloc((nodes ? nodes : 1) * sizeof *bone_of);
	if (!parent || !roots || !stack || !bone_of) {
		status = animc_gltf_fail(doc, ANIMC_ERR_NOMEM, NULL, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < nodes; i++) {
		parent[i] = -1;
		bone_of[i] = -1;
	}
	/* Each node has at most one parent. */
	for (size_t i = 0; i < nodes; i++) {
		char path[GLTF_PATH_BYTES];
		json_t *children;

		if (!check_node(doc, i)) {
			status = animc_gltf_status(doc);
			goto done;
		}
		animc_gltf_path(path, "nodes[%zu]", i);
		if (!animc_gltf_get_array(doc, json_array_get(doc->nodes_json, i), path, "children", &children)) {
			status = animc_gltf_status(doc);
			goto done;
		}
		for (size_t c = 0; children && c < json_array_size(children); c++) {
			json_t *v = json_array_get(children, c);
			json_int_t child = json_is_integer(v) ? json_integer_value(v) : -1;

			if (child < 0 || (uint64_t)child >= nodes) {
				status = animc_gltf_fail(doc, ANIMC_ERR_INVALID, NULL, "%s.children[%zu]: not a node "
						   "index (0 to %zu)", path, c, nodes ? nodes - 1 : 0);
				goto done;
			}
			if ((size_t)child == i) {
				status = animc_gltf_fail(doc, ANIMC_ERR_INVALID, NULL, "%s.children[%zu]: the node lists "
						   "itself as its child; the node tree is not a tree", path, c);
				goto done;
			}
			if (parent[child] >= 0) {
				status = animc_gltf_fail(doc, ANIMC_ERR_INVALID, NULL, "%s.children[%zu]: nodes[%lld] "
						   "already has a parent (nodes[%lld]); the node tree is not a "
						   "tree", path, c, (long long)child, (long long)parent[child]);
				goto done;
			}
			parent[child] = (int64_t)i;
		}
	}
	status = check_acyclic(doc, parent, nodes, bone_of, stack);
	if (status != ANIMC_OK)
		goto done;
	for (size_t i = 0; i < nodes; i++)
		bone_of[i] = -1;
	if (scene) {
		json_t *list;

		char spath[GLTF_PATH_BYTES];

		animc_gltf_path(spath, "scenes[%llu]", (unsigned long long)scene_index);
		if (!animc_gltf_get_array(doc, scene, spath, "nodes", &list)) {
			status = animc_gltf_status(doc);
			goto done;
		}
		for (size_t i = 0; list && i < json_array_size(list); i++) {
			json_t *v = json_array_get(list, i);
			json_int_t node = json_is_integer(v) ? json_integer_value(v) : -1;

			if (node < 0 || (uint64_t)node >= nodes || parent[node] >= 0 || bone_of[node] != -1) {
				status = scene_root_fail(doc, scene_index, i, node, nodes, node >= 0 &&
							 (uint64_t)node < nodes ? parent[node] : -1);
				goto done;
			}
			bone_of[node] = -2;   /* listed: a second time is said */
			roots[root_count++] = (size_t)node;
		}
		for (size_t r = 0; r < root_count; r++)
			bone_of[roots[r]] = -1;
	} else {
		for (size_t i = 0; i < nodes; i++)
			if (parent[i] < 0)
				roots[root_count++] = i;
	}
	/* Several roots (or none) hang under one "ROOT", as Assimp builds it,
	 * so that bone numbers agree whichever reads the model. */
	synthetic_root = root_count != 1;
	out->bones = calloc(nodes + 1, sizeof *out->bones);
	if (!out->bones) {
		status = animc_gltf_fail(doc, ANIMC_ERR_NOMEM, NULL, "out of memory");
		goto done;
	}
	if (synthetic_root) {
		animc_bone *b = &out->bones[out->bone_count++];
		static const float identity[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };

		b->name = animc_arena_strndup(&out->arena, "ROOT", 4);
		b->parent = -1;
		memcpy(b->local, identity, sizeof identity);
		b->rotation[3] = 1;
		b->scale[0] = b->scale[1] = b->scale[2] = 1;
		if (!b->name) {
			status = animc_gltf_fail(doc, ANIMC_ERR_NOMEM, NULL, "out of memory");
			goto done;
		}
	}
	/* Depth-first pre-order without recursion (chains can be deep). */
	for (size_t r = root_count; r-- > 0;)
		stack[stack_used++] = roots[r];
	while (stack_used) {
		size_t n = stack[--stack_used];
		char name_buf[GLTF_PATH_BYTES], path[GLTF_PATH_BYTES];
		const char *name = animc_gltf_node_name(doc, n, name_buf);
		animc_bone *b;
		json_t *children;
		bool has_matrix;
		rest rt;

		if (bone_of[n] >= 0 || out->bone_count > nodes) {
			status = animc_gltf_fail(doc, ANIMC_ERR_INVALID, NULL, "nodes[%zu] is reached twice", n);
			goto done;
		}
		b = &out->bones[out->bone_count];
		bone_of[n] = (int32_t)out->bone_count++;
		b->parent = parent[n] >= 0 ? bone_of[parent[n]] : synthetic_root ? 0 : -1;
		b->name = animc_arena_strndup(&out->arena, name, strlen(name));
		if (!b->name) {
			status = animc_gltf_fail(doc, ANIMC_ERR_NOMEM, NULL, "out of memory");
			goto done;
		}
		status = node_rest(doc, n, &rt, b->local, &has_matrix);
		if (status != ANIMC_OK)
			goto done;
		memcpy(b->translation, rt.translation, sizeof rt.translation);
		memcpy(b->rotation, rt.rotation, sizeof rt.rotation);
		memcpy(b->scale, rt.scale, sizeof rt.scale);
		animc_gltf_path(path, "nodes[%zu]", n);
		animc_gltf_get_array(doc, json_array_get(doc->nodes_json, n), path, "children", &children);
		for (size_t c = children ? json_array_size(children) : 0; c-- > 0;) {
			if (stack_used >= nodes) {
				status = animc_gltf_fail(doc, ANIMC_ERR_INVALID, path, "the node tree has a cycle");
				goto done;
			}
			stack[stack_used++] = (size_t)json_integer_value(json_array_get(children, c));
		}
	}
done:
	free(parent);
	free(roots);
	free(stack);
	free(bone_of);
	if (status != ANIMC_OK)
		animc_skeleton_release(out);
	return status;
}

/* ------------------------------------------------------------ the importer */

static uint32_t head_u32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static const uint8_t *find(const uint8_t *head, size_t size, const char *needle)
{
	size_t n = strlen(needle);

	for (size_t i = 0; n <= size && i <= size - n; i++)
		if (head[i] == (uint8_t)needle[0] && memcmp(head + i, needle, n) == 0)
			return head + i;
	return NULL;
}

/*
 * The asset's major version as the first bytes show it (its first digit),
 * -1 when the head does not say (the asset object may come later in a
 * large document).
 */
static int head_version(const uint8_t *head, size_t size)
{
	const uint8_t *asset = find(head, size, "\"asset\""), *v, *end = head + size;

	if (!asset)
		return -1;
	v = find(asset, (size_t)(end - asset), "\"version\"");
	if (!v || v - asset > 512)
		return -1;
	v += 9;
	while (v < end && (*v == ' ' || *v == '\t' || *v == '\r' || *v == '\n' || *v == ':'))
		v++;
	if (end - v < 2 || v[0] != '"' || v[1] < '0' || v[1] > '9')
		return -1;
	return v[1] - '0';
}

static bool has_extension(const char *path, const char *ext)
{
	size_t n = path ? strlen(path) : 0, e = strlen(ext);
	const char *slash = path ? strrchr(path, '/') : NULL;

	return n > e && strcasecmp(path + n - e, ext) == 0 && (!slash || (size_t)(slash - path) < n - e - 1);
}

static animc_probe probe_gltf(const char *path, const uint8_t *head, size_t size)
{
	size_t skip = 0;
	int version;

	/* "glTF": a GLB container, ours whatever its version: glTF 1.0 is
	 * refused with a reason (Assimp's reader of it reads no animation,
	 * and said the file held none).  One cut before its version is ours
	 * too, to say where it ends. */
	if (size >= 4 && head_u32(head) == 0x46546C67u)
		return ANIMC_PROBE_CONTENT;
	if (size >= 3 && memcmp(head, "\xEF\xBB\xBF", 3) == 0)
		skip = 3;
	while (skip < size && (head[skip] == ' ' || head[skip] == '\t' || head[skip] == '\r' ||
			       head[skip] == '\n'))
		skip++;
	if (skip < size && head[skip] == '{') {
		version = head_version(head + skip, size - skip);
		if (version >= 0)
			return ANIMC_PROBE_CONTENT;   /* 2.x, or another one to refuse */
	}
	return has_extension(path, ".gltf") || has_extension(path, ".glb") ? ANIMC_PROBE_EXTENSION :
									      ANIMC_PROBE_NO;
}

/* The bake's bounds: the defaults (animc_gltf_default_bounds), whatever
 * the build's tolerance.  A lossy build bakes as the lossless one does, so
 * that the reduction, measured against the baked keys, keeps the output
 * within the tolerance of the lossless file: baked within a tenth of the
 * tolerance instead, a cubic fixture's reduced file played 0.0511 degrees
 * from the lossless one at the default tolerance, and 1.4e-4 units at
 * 1e-4 (NOTES.md). */
static gltf_bounds bounds_for(const animc_import_options *options)
{
	gltf_bounds b = animc_gltf_default_bounds;

	/* Bounds are in the output's units; --scale multiplies the keys
	 * after the bake. */
	if (options && options->length_scale > 0)
		b.translation /= options->length_scale;
	return b;
}

static animc_status import_gltf(const animc_import_request *req, animc_clip_set *out,
				animc_diag_sink *sink)
{
	gltf_doc doc;
	gltf_bounds bounds = bounds_for(req->options);
	animc_status status = animc_gltf_doc_parse(&doc, req->path, req->data, req->size, sink);

	if (req->options) {
		doc.on_file_read = req->options->on_file_read;
		doc.on_file_read_user = req->options->on_file_read_user;
	}

	if (status == ANIMC_OK)
		status = animc_gltf_doc_import(&doc, req->options, &bounds, out);
	animc_gltf_doc_release(&doc);
	return status;
}

/* The model's bytes, read by the caller of `path` (its buffers beside it). */
static animc_status skeleton_gltf_bytes(const char *path, const uint8_t *data, size_t size, animc_skeleton *out,
					animc_diag_sink *sink)
{
	gltf_doc doc;
	animc_status status;

	memset(out, 0, sizeof *out);
	if ((uint64_t)size > GLTF_MAX_BUFFER_BYTES) {
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "is larger than %llu bytes",
				  (unsigned long long)GLTF_MAX_BUFFER_BYTES);
		return ANIMC_ERR_IO;
	}
	status = animc_gltf_doc_parse(&doc, path, data, size, sink);
	if (status == ANIMC_OK)
		status = animc_gltf_doc_skeleton(&doc, out);
	animc_gltf_doc_release(&doc);
	return status;
}

static animc_status skeleton_gltf(const char *path, animc_skeleton *out, animc_diag_sink *sink)
{
	uint8_t *data;
	size_t size;
	char why[256];
	animc_status status;

	memset(out, 0, sizeof *out);
	if (!animc_gltf_read_file(path, GLTF_MAX_BUFFER_BYTES, &data, &size, why, sizeof why)) {
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "%s", why);
		return ANIMC_ERR_IO;
	}
	status = skeleton_gltf_bytes(path, data, size, out, sink);
	free(data);
	return status;
}

const animc_importer animc_importer_gltf = {
	.name = "gltf",
	.description = "glTF 2.0 (.gltf, .glb): STEP, LINEAR and CUBICSPLINE keys, skins",
	.probe = probe_gltf,
	.import = import_gltf,
	.load_skeleton = skeleton_gltf,
	.load_skeleton_bytes = skeleton_gltf_bytes,
};
