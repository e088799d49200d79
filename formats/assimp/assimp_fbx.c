/*
 * assimp_fbx.c - FBX curves and properties Assimp 5.2.5 gets wrong or
 * leaves out, mended or said from the file's own bytes (assimp_fbx.h).
 */
#include "assimp_fbx.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Assimp applies a PostRotation whose squared length passes this. */
#define POST_EPSILON 1e-6

static bool is_turn(const double deg[3])
{
	return deg[0] * deg[0] + deg[1] * deg[1] + deg[2] * deg[2] > POST_EPSILON;
}

/* The inverse of the turn of Euler angles `deg` (XYZ), w x y z. */
static void inverse_turn(const double deg[3], double q[4])
{
	animc_fbx_euler_quat(deg, 0, q);   /* Pre- and PostRotation are always XYZ */
	q[1] = -q[1], q[2] = -q[2], q[3] = -q[3];
}

/*
 * The quaternions (w x y z) a rotation Assimp gives for `model` is to be
 * multiplied by, `left` on the left and `right` on the right.  Assimp
 * gives Rpre * R * Rpost whatever the model's RotationActive; the FBX
 * transform is Rpre * R * Rpost^-1 (right: Rpost^-2), or, RotationActive
 * 0, R alone (left Rpre^-1, right Rpost^-1; R in XYZ order, which this
 * does not mend: see check_rotation_order).  False when there is nothing
 * to mend.
 */
static bool rotation_mend(const fbx_model *model, double left[4], double right[4])
{
	bool has_pre = !model->is_rotation_active && is_turn(model->pre_rotation);
	bool has_post = is_turn(model->post_rotation);

	left[0] = right[0] = 1;
	left[1] = left[2] = left[3] = right[1] = right[2] = right[3] = 0;
	if (has_pre)
		inverse_turn(model->pre_rotation, left);
	if (has_post)
		inverse_turn(model->post_rotation, right);
	if (has_post && model->is_rotation_active)
		animc_fbx_quat_mul(right, right, right);
	return has_pre || has_post;
}

static void mend_rotation(const fbx_model *model, animc_track *t)
{
	double left[4], right[4];

	if (!t->is_present || !rotation_mend(model, left, right))
		return;
	for (uint32_t i = 0; i < t->value_count; i++) {
		float *v = &t->values[(size_t)i * 4];
		double q[4] = { v[3], v[0], v[1], v[2] };

		animc_fbx_quat_mul(left, q, q);
		animc_fbx_quat_mul(q, right, q);
		v[0] = (float)q[1], v[1] = (float)q[2], v[2] = (float)q[3], v[3] = (float)q[0];
	}
}

static bool is_zero(const float *s)
{
	return fabsf(s[0]) < ANIMC_FBX_ZERO_SCALE || fabsf(s[1]) < ANIMC_FBX_ZERO_SCALE ||
	       fabsf(s[2]) < ANIMC_FBX_ZERO_SCALE;
}

/* The key nearest `i` whose scale is not 0 on an axis, the earlier one
 * first; `i` itself when there is none. */
static uint32_t neighbour(const animc_track *s, uint32_t i)
{
	for (uint32_t d = 1; d < s->value_count; d++) {
		if (i >= d && !is_zero(&s->values[(size_t)(i - d) * 3]))
			return i - d;
		if (i + d < s->value_count && !is_zero(&s->values[(size_t)(i + d) * 3]))
			return i + d;
	}
	return i;
}

/*
 * Assimp turns each FBX (and COLLADA) key into a matrix and reads rotation
 * and scale back from it: at a scale of 0 on an axis the matrix holds no
 * rotation, and what Assimp reads there (a half turn, for a scale of 0 on
 * every axis) turned the bone on its way to 0.  Such a key takes its
 * neighbour's rotation.
 */
void animc_assimp_mend_zero_scale(animc_clip *clip, uint32_t ch, animc_diag_sink *sink)
{
	animc_channel *c = &clip->channels[ch];
	const animc_track *s = &c->tracks[ANIMC_SCALE];
	animc_track *r = &c->tracks[ANIMC_ROTATION];
	uint32_t count = 0;
	float first = 0;

	if (!s->is_present || !r->is_present || s->value_count != r->value_count || !s->times_s || !r->times_s)
		return;
	for (uint32_t i = 0; i < s->value_count; i++) {
		if (!is_zero(&s->values[(size_t)i * 3]) || s->times_s[i] != r->times_s[i])
			continue;
		if (count++ == 0)
			first = s->times_s[i];
		memcpy(&r->values[(size_t)i * 4], &r->values[(size_t)neighbour(s, i) * 4], 4 * sizeof *r->values);
	}
	if (count)
		animc_clip_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_ZERO_SCALE_KEY, clip, c,
				       "%u scale key%s 0 on an axis (the first at %g s): Assimp reads a key's rotation "
				       "back from its matrix, which holds none at a scale of 0; took the rotation of "
				       "the neighbouring key: to keep the file's own rotation there, key the scale to "
				       "a small value (0.001) rather than 0 in the exporter",
				       count, count == 1 ? " is" : "s are", (double)first);
}

void animc_fbx_mend_channel(const fbx_doc *doc, animc_clip *clip, uint32_t ch)
{
	animc_channel *c = &clip->channels[ch];
	const fbx_model *model = animc_fbx_doc_model(doc, c->bone);

	if (model)
		mend_rotation(model, &c->tracks[ANIMC_ROTATION]);
}

/* Whether a channel's scale (as Assimp gives it) is 0 on an axis at a key,
 * or below 0 (Assimp's rotation there another than the curves', which the
 * PostRotation mend does not take into account). */
static bool has_odd_scale(const animc_channel *c, bool *has_zero)
{
	const animc_track *s = &c->tracks[ANIMC_SCALE];
	bool is_negative = false;

	*has_zero = false;
	for (uint32_t i = 0; s->is_present && i < s->value_count; i++) {
		*has_zero |= is_zero(&s->values[(size_t)i * 3]);
		is_negative |= s->values[(size_t)i * 3] < 0 || s->values[(size_t)i * 3 + 1] < 0 ||
			       s->values[(size_t)i * 3 + 2] < 0;
	}
	return *has_zero || is_negative;
}

/* ------------------------------------------------------------ a take */

/* Past this, a slerp between keys is said to leave the Euler curves. */
#define EULER_TOLERANCE_DEG 0.5
#define PI_ 3.14159265358979323846

/* Assimp's margin around a take's range, in KTime. */
#define TAKE_MARGIN 10000.0

static const char *const lcl[3] = { "Lcl Translation", "Lcl Rotation", "Lcl Scaling" };

/* 0, 1, 2 for a curve node of Lcl Translation, Rotation, Scaling; -1 else. */
static int lcl_kind(const fbx_curve_node *n)
{
	for (int k = 0; k < 3; k++)
		if (strcmp(n->property, lcl[k]) == 0)
			return k;
	return -1;
}

static bool is_take_node(const fbx_doc *doc, const fbx_curve_node *n, uint32_t stack);
static int compare_doubles(const void *pa, const void *pb);

/* The curve node of curve `c` when it keys a component of a model's Lcl
 * transform in stack `stack`, else NULL. */
static const fbx_curve_node *take_curve(const fbx_doc *doc, const fbx_curve *c, uint32_t stack)
{
	const fbx_curve_node *n = c->node < doc->node_count ? &doc->nodes[c->node] : NULL;

	if (!n || n->layer >= doc->layer_count || doc->layers[n->layer].stack != stack || n->model >= doc->model_count ||
	    c->axis < 0 || !c->is_read || !c->key_count || lcl_kind(n) < 0)
		return NULL;
	return n;
}

/* The value Assimp gives curve `c` at KTime `t` of a take of range
 * [start, stop]: keys outside it (and its margin) left out but for a
 * rotation's first; the model's own value when none is left. */
static double assimp_value(const fbx_doc *doc, const fbx_curve *c, const fbx_curve_node *n, double t,
			   double start, double stop)
{
	const fbx_model *m = &doc->models[n->model];
	int kind = lcl_kind(n);
	const double *own = kind == 0 ? m->translation : kind == 1 ? m->rotation : m->scaling;
	double v;

	return animc_fbx_curve_value(c, t, start - TAKE_MARGIN, stop + TAKE_MARGIN, kind == 1, &v) ? v : own[c->axis];
}

static bool differs(double a, double b)
{
	return !(fabs(a - b) <= 1e-4 * fmax(1, fabs(a)));
}

/* ------------------------------------------- a take's range, rebuilt */

/* A model's curves in one take, by kind (translation, rotation, scale)
 * and axis, and how its key times become the clip's seconds. */
typedef struct take_model {
	const fbx_doc *doc;
	const fbx_model *model;
	const fbx_curve *curves[3][3];
	double start, stop;      /* the take's range, KTime; `start` is the clip's 0 */
	bool has_range;          /* false: no range, every key read, `start` the first */
	double seconds_per_kt;   /* 0: the clip's seconds are not the file's */
} take_model;

/* The model's curves in stack `stack`; false when they cannot be read
 * exactly (an array missing, curves of one component in two layers). */
static bool gather_curves(take_model *tm, uint32_t m, uint32_t stack)
{
	const fbx_doc *doc = tm->doc;

	memset(tm->curves, 0, sizeof tm->curves);
	for (uint32_t i = 0; i < doc->curve_count; i++) {
		const fbx_curve *c = &doc->curves[i];
		const fbx_curve_node *n = c->node < doc->node_count ? &doc->nodes[c->node] : NULL;

		if (!n || n->model != m || !is_take_node(doc, n, stack) || c->axis < 0)
			continue;
		if (!c->is_read || !c->key_count || tm->curves[lcl_kind(n)][c->axis])
			return false;
		tm->curves[lcl_kind(n)][c->axis] = c;
	}
	return !tm->model->is_rotation_active || (tm->model->rotation_order >= 0 && tm->model->rotation_order < 6);
}

/* The curves' value of kind `kind` at KTime `t` (`side` < 0 just before
 * it, > 0 just after it: animc_fbx_curve_exact), every key read. */
static void exact_value(const take_model *tm, int kind, double t, int side, double out[3])
{
	const double *own = kind == 0 ? tm->model->translation : kind == 1 ? tm->model->rotation : tm->model->scaling;

	for (int a = 0; a < 3; a++)
		if (!tm->curves[kind][a] || !animc_fbx_curve_exact(tm->curves[kind][a], t, side, &out[a]))
			out[a] = own[a];
}

static bool push_time(double **times, size_t *n, size_t *cap, double t)
{
	if (*n == *cap) {
		double *more = realloc(*times, (*cap = *cap ? 2 * *cap : 64) * sizeof **times);

		if (!more)
			return false;
		*times = more;
	}
	(*times)[(*n)++] = t;
	return true;
}

/* The take's range ends and every key of the model's curves inside it
 * (without a range, every key), sorted, each once: between them each
 * curve is a straight line. */
static double *take_times(const take_model *tm, size_t *count)
{
	double *times = NULL;
	size_t n = 0, cap = 0, kept = 1;
	bool ok = !tm->has_range || (push_time(&times, &n, &cap, tm->start) && push_time(&times, &n, &cap, tm->stop));

	for (int k = 0; k < 3 && ok; k++)
		for (int a = 0; a < 3 && ok; a++)
			for (uint32_t i = 0; tm->curves[k][a] && i < tm->curves[k][a]->key_count && ok; i++) {
				double t = tm->curves[k][a]->times[i];

				if (!tm->has_range || (t > tm->start && t < tm->stop))
					ok = push_time(&times, &n, &cap, t);
			}
	if (ok && n == 0)
		ok = push_time(&times, &n, &cap, tm->start);
	if (!ok) {
		free(times);
		return NULL;
	}
	qsort(times, n, sizeof *times, compare_doubles);
	for (size_t i = 1; i < n; i++)
		if (times[i] != times[kept - 1])
			times[kept++] = times[i];
	*count = kept;
	return times;
}

/* Each step of `times` split in the equal parts `parts_of` gives it;
 * `times` is freed.  NULL when out of memory. */
static double *split_steps(const take_model *tm, double *times, size_t *count,
			   double (*parts_of)(const take_model *tm, double a, double b))
{
	double *out = NULL;
	size_t n = 0, cap = 0;
	bool ok = push_time(&out, &n, &cap, times[0]);

	for (size_t i = 1; i < *count && ok; i++) {
		double parts = parts_of(tm, times[i - 1], times[i]);

		for (double k = 1; k < parts && ok; k++)
			ok = push_time(&out, &n, &cap, times[i - 1] + (times[i] - times[i - 1]) * k / parts);
		ok = ok && push_time(&out, &n, &cap, times[i]);
	}
	free(times);
	if (!ok) {
		free(out);
		return NULL;
	}
	*count = n;
	return out;
}

/* A step cut where an Euler angle turns 180 degrees or more (a slerp
 * would take the short way round), as Assimp cuts it. */
static double turn_parts(const take_model *tm, double a, double b)
{
	double step = 0, a0[3], a1[3];

	exact_value(tm, 1, a, 1, a0);
	exact_value(tm, 1, b, -1, a1);
	for (int k = 0; k < 3; k++)
		step = fmax(step, fabs(a1[k] - a0[k]));
	return ceil(step / 179);
}

/* The quaternion w x y z of the model's rotation at KTime `t` (`side`:
 * exact_value's): Rpre * R * Rpost^-1, R of the curves in the model's
 * rotation order; R alone, in XYZ order, for a RotationActive of 0. */
static void exact_quat(const take_model *tm, double t, int side, double r[4])
{
	const fbx_model *m = tm->model;
	double angles[3], pre[4], post[4];

	exact_value(tm, 1, t, side, angles);
	animc_fbx_euler_quat(angles, m->is_rotation_active ? m->rotation_order : 0, r);
	if (!m->is_rotation_active)
		return;
	animc_fbx_euler_quat(m->pre_rotation, 0, pre);
	inverse_turn(m->post_rotation, post);
	animc_fbx_quat_mul(pre, r, r);
	animc_fbx_quat_mul(r, post, r);
}

static void exact_rotation(const take_model *tm, double t, int side, float out[4])
{
	double r[4];

	exact_quat(tm, t, side, r);
	out[0] = (float)r[1], out[1] = (float)r[2], out[2] = (float)r[3], out[3] = (float)r[0];
}

static double halfway_error(const double q0[4], const double q1[4], const double mid[4]);

/* The largest error of slerping the model's rotation over `parts` equal
 * steps from KTime a to b (from just after a to just before b, where a
 * constant key holds), halfway along each. */
static double steps_error(const take_model *tm, double a, double b, double parts)
{
	double worst = 0, q0[4], q1[4], mid[4];

	exact_quat(tm, a, 1, q0);
	for (double k = 1; k <= parts; k++) {
		double t0 = a + (b - a) * (k - 1) / parts, t1 = a + (b - a) * k / parts;

		exact_quat(tm, t1, k == parts ? -1 : 0, q1);
		exact_quat(tm, (t0 + t1) / 2, 0, mid);
		worst = fmax(worst, halfway_error(q0, q1, mid));
		memcpy(q0, q1, sizeof q0);
	}
	return worst;
}

/* A step cut in equal parts until the slerp keeps within
 * EULER_TOLERANCE_DEG of the Euler curves halfway along each (at most 64
 * parts). */
static double slerp_parts(const take_model *tm, double a, double b)
{
	double parts = 1;

	while (parts < 64 && steps_error(tm, a, b, parts) > EULER_TOLERANCE_DEG)
		parts *= 2;
	return parts;
}

/* Whether the curves of kind `kind` change value just before (`side` <
 * 0) or just after (> 0) KTime `t`: a constant key's held value ends. */
static bool jumps(const take_model *tm, int kind, double t, int side)
{
	double at[3], near[3];

	exact_value(tm, kind, t, 0, at);
	exact_value(tm, kind, t, side, near);
	return at[0] != near[0] || at[1] != near[1] || at[2] != near[2];
}

/* The clip's time of `times[i]`, or (`side`) the float just before or
 * after it; NaN when that is no float strictly between its neighbours. */
static float key_time(const take_model *tm, const double *times, size_t i, size_t n, int side)
{
	float s = (float)((times[i] - tm->start) * tm->seconds_per_kt), next;

	if (!side)
		return s;
	next = nextafterf(s, side * INFINITY);
	if (side < 0 ? i == 0 || !(next > (float)((times[i - 1] - tm->start) * tm->seconds_per_kt)) :
		       i + 1 == n || !(next < (float)((times[i + 1] - tm->start) * tm->seconds_per_kt)))
		return NAN;
	return next;
}

/*
 * Track `kind` of channel `ch` made of the curves at `times`.  Where a
 * constant key's held value changes (at a key, or just after one for
 * FBX_CONSTANT_NEXT), a key one float before or after it holds the value
 * on that side: the runtime, which interpolates between keys, finds no
 * time between the two, so the value holds up to the change.
 */
static bool write_track(const take_model *tm, animc_clip *clip, uint32_t ch, animc_track_kind kind,
			const double *times, size_t n)
{
	animc_track *t = &clip->channels[ch].tracks[kind];
	float *at = animc_clip_alloc_floats(clip, 3 * n), *values = animc_clip_alloc_values(clip, kind, 3 * n);
	int width = kind == ANIMC_ROTATION ? 4 : 3, k = kind == ANIMC_TRANSLATION ? 0 : kind == ANIMC_ROTATION ? 1 : 2;
	size_t count = 0;
	double v[3];

	if (!at || !values)
		return false;
	for (size_t i = 0; i < n; i++)
		for (int side = -1; side <= 1; side++) {
			float s = key_time(tm, times, i, n, side);

			if (side && (isnan(s) || !jumps(tm, k, times[i], side)))
				continue;
			at[count] = s;
			if (kind == ANIMC_ROTATION) {
				exact_rotation(tm, times[i], side, &values[count++ * 4]);
				continue;
			}
			exact_value(tm, k, times[i], side, v);
			for (int a = 0; a < width; a++)
				values[count * 3 + (size_t)a] = (float)v[a];
			count++;
		}
	*t = (animc_track){ .is_present = true, .value_count = (uint32_t)count, .values = values, .times_s = at };
	return true;
}

/*
 * Rebuild channel `ch` (model `m`) from the file's curves over the take:
 * all three tracks (Assimp's rotation and scale go together: it reads
 * them back from one matrix), the rotation with keys added where a slerp
 * would leave the curves.  False when they cannot be read exactly (the
 * channel is left as it is).
 */
static bool rebuild_channel(take_model *tm, uint32_t m, uint32_t stack, animc_clip *clip, uint32_t ch)
{
	size_t n, nr;
	double *times, *turns;
	bool ok;

	tm->model = &tm->doc->models[m];
	if (!tm->seconds_per_kt || !gather_curves(tm, m, stack) || !(times = take_times(tm, &n)))
		return false;
	turns = malloc(n * sizeof *turns);
	if (turns) {
		memcpy(turns, times, n * sizeof *turns);
		nr = n;
		turns = split_steps(tm, turns, &nr, turn_parts);
		turns = turns ? split_steps(tm, turns, &nr, slerp_parts) : NULL;
	}
	ok = turns && write_track(tm, clip, ch, ANIMC_TRANSLATION, times, n) &&
	     write_track(tm, clip, ch, ANIMC_ROTATION, turns, nr) && write_track(tm, clip, ch, ANIMC_SCALE, times, n);
	free(times);
	free(turns);
	return ok;
}

static int64_t channel_of(const animc_clip *clip, const char *bone)
{
	for (uint32_t c = 0; c < clip->channel_count; c++)
		if (strcmp(clip->channels[c].bone, bone) == 0)
			return c;
	return -1;
}

/*
 * Whether the first of curve `c`'s values at the take's ends that Assimp
 * gets wrong: into `got` and `want`, and `at` (0 start, 1 end).
 */
static bool end_differs(const fbx_doc *doc, const fbx_curve *c, const fbx_curve_node *n, const fbx_stack *st,
			double *got, double *want, int *at)
{
	double ends[2] = { st->local_start, st->local_stop };

	for (int e = 0; e < 2; e++) {
		*got = assimp_value(doc, c, n, ends[e], ends[0], ends[1]);
		animc_fbx_curve_exact(c, ends[e], 0, want);
		*at = e;
		if (differs(*want, *got))
			return true;
	}
	return false;
}

/* What a message naming the first of `count` things adds for the others:
 * " (and 2 more curves)", or "" when the first is alone. */
static void and_more(char *out, size_t size, uint32_t count, const char *noun)
{
	out[0] = '\0';
	if (count > 1)
		snprintf(out, size, " (and %u more %s%s)", count - 1, noun, count > 2 ? "s" : "");
}

static void say_take_range(const fbx_doc *doc, const fbx_stack *st, const animc_clip *clip, const fbx_curve *first,
			   uint32_t count, const double got_want[2], int at, animc_diag_sink *sink)
{
	const fbx_curve_node *n = &doc->nodes[first->node];
	char more[64];

	and_more(more, sizeof more, count, "curve");
	animc_clip_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_KEYS_OUTSIDE_TAKE, clip, NULL,
			       "bone '%s': its %s %c curve has keys outside the take (%g s to %g s of the "
			       "timeline: LocalStart, LocalStop), which Assimp leaves out: at the take's %s the "
			       "clip gives %g where the curve gives %g%s; in the exporter, set the take's range "
			       "to start and end on keys, or bake the animation over the take (a key at each "
			       "frame)",
			       doc->models[n->model].name, n->property, "XYZ"[first->axis],
			       st->local_start / FBX_KTIME_PER_SECOND, st->local_stop / FBX_KTIME_PER_SECOND,
			       at ? "end" : "start", got_want[0], got_want[1], more);
}

/*
 * Assimp 5.2.5 leaves out every key of a take's curves outside its range
 * (LocalStart, LocalStop) but a rotation's first, and holds the first and
 * last key left: a take that starts or ends between keys (a range cut out
 * of a longer timeline) starts and ends in another pose than the curves'.
 * A bone whose curves the file gives exactly is rebuilt from them over the
 * take (a note); else said once per clip, naming the first such curve.
 */
static void check_take_range(const fbx_doc *doc, const fbx_stack *st, animc_clip *clip, take_model *tm,
			     uint8_t *tried, animc_diag_sink *sink)
{
	uint32_t stack = (uint32_t)(st - doc->stacks), count = 0, rebuilt = 0;
	const fbx_curve *first = NULL;
	double got_want[2] = { 0, 0 }, got, want;
	int at = 0, end;

	if (!tm->has_range)
		return;   /* no range: Assimp takes every key */
	for (uint32_t i = 0; i < doc->curve_count; i++) {
		const fbx_curve *c = &doc->curves[i];
		const fbx_curve_node *n = take_curve(doc, c, stack);

		if (!n || tried[n->model] == 1 || !end_differs(doc, c, n, st, &got, &want, &end))
			continue;
		int64_t ch = tried[n->model] ? -1 : channel_of(clip, doc->models[n->model].name);
		if (ch >= 0 && rebuild_channel(tm, n->model, stack, clip, (uint32_t)ch)) {
			tried[n->model] = 1, rebuilt++;
			continue;
		}
		tried[n->model] = 2;
		if (count++ == 0)
			first = c, got_want[0] = got, got_want[1] = want, at = end;
	}
	if (rebuilt)
		animc_clip_report(sink, ANIMC_NOTE, clip, NULL, "%u bone%s keyed outside the take's range, whose keys "
				  "there Assimp leaves out: rebuilt from the file's curves over the take", rebuilt,
				  rebuilt == 1 ? "" : "s");
	if (count)
		say_take_range(doc, st, clip, first, count, got_want, at, sink);
}

/* Whether curve node `n` keys a model's Lcl transform in stack `stack`. */
static bool is_take_node(const fbx_doc *doc, const fbx_curve_node *n, uint32_t stack)
{
	return n->layer < doc->layer_count && doc->layers[n->layer].stack == stack && n->model < doc->model_count &&
	       lcl_kind(n) >= 0;
}

/*
 * Assimp 5.2.5 puts the curves of every layer of a take in one list and
 * takes each component's value from the last curve for it: it reads no
 * BlendMode, Weight or Mute.  A take whose Lcl curves lie in more than one
 * layer (a correction layer on mocap) plays no sum of them.  Said once per
 * clip, naming the layers and the first property keyed past the first.
 */
static void check_layers(const fbx_doc *doc, const fbx_stack *st, const animc_clip *clip, animc_diag_sink *sink)
{
	uint32_t stack = (uint32_t)(st - doc->stacks), base = FBX_NONE, layers = 0;
	const fbx_curve_node *other = NULL;

	for (uint32_t l = 0; l < doc->layer_count; l++) {
		bool is_keyed = false;

		for (uint32_t i = 0; i < doc->node_count && !is_keyed; i++)
			is_keyed = doc->nodes[i].layer == l && is_take_node(doc, &doc->nodes[i], stack);
		if (!is_keyed)
			continue;
		layers++;
		if (base == FBX_NONE)
			base = l;
		for (uint32_t i = 0; i < doc->node_count && !other && l != base; i++)
			if (doc->nodes[i].layer == l && is_take_node(doc, &doc->nodes[i], stack))
				other = &doc->nodes[i];
	}
	if (layers < 2 || !other)
		return;
	animc_clip_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_ANIMATION_LAYERS, clip, NULL,
			       "the take keys %u animation layers ('%s' and '%s'%s, which keys bone '%s''s %s): "
			       "Assimp does not blend layers (it reads no BlendMode, Weight or Mute) but takes "
			       "each component from the last curve for it, so the clip plays neither the layers' "
			       "sum nor the base layer; merge the layers into one in the exporter (bake the take "
			       "to its base layer)",
			       layers, doc->layers[base].name, doc->layers[other->layer].name,
			       layers > 2 ? " among them" : "", doc->models[other->model].name, other->property);
}

static bool not_one(double v)
{
	return !(fabs(v - 1) <= 1e-6);
}

/* Whether model `m`'s scale is other than 1 in stack `stack`: at rest on
 * an axis no curve keys, or at a key of a curve. */
static bool has_scale(const fbx_doc *doc, uint32_t m, uint32_t stack)
{
	bool is_keyed[3] = { false, false, false }, found = false;

	for (uint32_t i = 0; i < doc->curve_count && !found; i++) {
		const fbx_curve *c = &doc->curves[i];
		const fbx_curve_node *n = take_curve(doc, c, stack);

		if (!n || n->model != m || lcl_kind(n) != 2)
			continue;
		is_keyed[c->axis] = true;
		for (uint32_t k = 0; k < c->key_count && !found; k++)
			found = not_one(c->values[k]);
	}
	for (int a = 0; a < 3 && !found; a++)
		found = !is_keyed[a] && not_one(doc->models[m].scaling[a]);
	return found;
}

/*
 * A bone of InheritType 2 (Rrs: Maya's Segment Scale Compensate) does not
 * take its parent's scale; Assimp (and the runtime) compose parent and
 * child whole, so such a bone is scaled with its parent, animated by the
 * clip or not.  Said once per clip, where a parent's scale is other than 1.
 */
static void check_inherit_type(const fbx_doc *doc, const fbx_stack *st, const animc_clip *clip, animc_diag_sink *sink)
{
	uint32_t stack = (uint32_t)(st - doc->stacks), count = 0;
	const fbx_model *first = NULL;

	for (uint32_t i = 0; i < doc->model_count; i++) {
		const fbx_model *m = &doc->models[i];

		if (m->inherit_type != 2 || m->parent == FBX_NONE || !has_scale(doc, m->parent, stack))
			continue;
		if (count++ == 0)
			first = m;
	}
	if (!count)
		return;
	char more[64];
	and_more(more, sizeof more, count, "bone");
	animc_clip_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_INHERIT_TYPE, clip, NULL,
			       "bone '%s'%s has InheritType 2 (Rrs, segment scale compensate: it does not take "
			       "its parent's scale), and its parent '%s' is scaled: Assimp ignores the inherit "
			       "type, so the clip scales the bone with its parent; in the exporter, turn segment "
			       "scale compensate off (or keep the parent's scale at 1) and bake the animation",
			       first->name, more, doc->models[first->parent].name);
}

/* The take's window of KTime Assimp keeps keys in. */
static void take_window(const fbx_stack *st, double *from, double *to)
{
	bool has_range = st->local_start != 0 || st->local_stop != 0;

	*from = has_range ? st->local_start - TAKE_MARGIN : -INFINITY;
	*to = has_range ? st->local_stop + TAKE_MARGIN : INFINITY;
}

static int compare_doubles(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

/* The key times Assimp gives model `m` in the take (every Lcl curve's
 * keys in its window, sorted; a rotation's first key too), and its
 * rotation curves by axis.  NULL when it has none, or rotation curves of
 * fewer than two axes (between whose keys a slerp is the curve's turn). */
static double *rotation_times(const fbx_doc *doc, uint32_t m, uint32_t stack, double from, double to,
			      const fbx_curve *rot[3], size_t *count)
{
	size_t n = 0, cap = 0, axes = 0;
	double *times = NULL;

	rot[0] = rot[1] = rot[2] = NULL;
	for (uint32_t i = 0; i < doc->curve_count; i++) {
		const fbx_curve *c = &doc->curves[i];
		const fbx_curve_node *node = take_curve(doc, c, stack);

		if (!node || node->model != m)
			continue;
		if (lcl_kind(node) == 1 && !rot[c->axis])
			rot[c->axis] = c, axes++;
		for (uint32_t k = 0; k < c->key_count; k++) {
			if ((c->times[k] < from || c->times[k] > to) && !(k == 0 && lcl_kind(node) == 1))
				continue;
			if (!push_time(&times, &n, &cap, c->times[k])) {
				free(times);
				return NULL;
			}
		}
	}
	if (axes < 2 || n < 2) {
		free(times);
		return NULL;
	}
	qsort(times, n, sizeof *times, compare_doubles);
	*count = n;
	return times;
}

/* Model `m`'s rotation (w x y z) at KTime `t` of its curves `rot`, as
 * Assimp keeps their keys; and whether every angle moves less than 180
 * degrees from `before` (Assimp adds keys across a larger step). */
static bool euler_at(const fbx_model *m, const fbx_curve *const rot[3], double t, double from, double to,
		     double angles[3], double q[4])
{
	double before[3];
	bool is_small = true;

	memcpy(before, angles, sizeof before);
	for (int a = 0; a < 3; a++) {
		if (!rot[a] || !animc_fbx_curve_value(rot[a], t, from, to, true, &angles[a]))
			angles[a] = m->rotation[a];
		is_small &= fabs(angles[a] - before[a]) < 180;
	}
	animc_fbx_euler_quat(angles, m->rotation_order, q);
	return is_small;
}

/* The angle in degrees between the curves' turn halfway between two keys
 * and the slerp of the keys' quaternions there. */
static double halfway_error(const double q0[4], const double q1[4], const double mid[4])
{
	double sign = q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3] < 0 ? -1 : 1, h[4], len = 0, dot = 0;

	for (int i = 0; i < 4; i++)
		h[i] = q0[i] + sign * q1[i], len += h[i] * h[i];
	for (int i = 0; i < 4; i++)
		dot += h[i] / sqrt(len) * mid[i];
	return 2 * acos(fmin(1, fabs(dot))) * 180 / PI_;
}

/* The largest error of slerping model `m`'s keys, and where (s of the
 * take). */
static double slerp_error(const fbx_doc *doc, uint32_t m, const fbx_stack *st, double *at_s)
{
	const fbx_curve *rot[3];
	size_t n;
	double from, to, worst = 0, angles[3] = { 0, 0, 0 }, q0[4], q1[4], mid[4], ignored[3];
	double *times;

	take_window(st, &from, &to);
	times = rotation_times(doc, m, (uint32_t)(st - doc->stacks), from, to, rot, &n);
	if (!times)
		return 0;
	euler_at(&doc->models[m], rot, times[0], from, to, angles, q0);
	for (size_t i = 1; i < n; i++) {
		if (times[i] == times[i - 1])
			continue;
		bool is_small = euler_at(&doc->models[m], rot, times[i], from, to, angles, q1);
		memcpy(ignored, angles, sizeof ignored);
		euler_at(&doc->models[m], rot, (times[i - 1] + times[i]) / 2, from, to, ignored, mid);
		double error = is_small ? halfway_error(q0, q1, mid) : 0;
		if (error > worst) {
			worst = error;
			*at_s = ((times[i - 1] + times[i]) / 2 - (isfinite(from) ? st->local_start : times[0])) /
				FBX_KTIME_PER_SECOND;
		}
		memcpy(q0, q1, sizeof q0);
	}
	free(times);
	return worst;
}

/*
 * Assimp 5.2.5 turns Euler curves into one quaternion a key, and the
 * runtime slerps between them: where two or three angles move at once
 * between keys, that leaves the curves' path (19.5 degrees halfway
 * between keys 0 and 90 on X and Y).  Past half a degree, the bone is
 * rebuilt from its curves with keys added where the slerp would leave
 * them (a note); where they cannot be read exactly, said once per clip,
 * naming the bone of the largest error.
 */
static void check_euler_slerp(const fbx_doc *doc, const fbx_stack *st, animc_clip *clip, take_model *tm,
			      uint8_t *tried, animc_diag_sink *sink)
{
	double worst = 0, at = 0;
	uint32_t bone = FBX_NONE, rebuilt = 0, stack = (uint32_t)(st - doc->stacks);

	for (uint32_t c = 0; c < clip->channel_count; c++) {
		const fbx_model *m = animc_fbx_doc_model(doc, clip->channels[c].bone);
		uint32_t i = m ? (uint32_t)(m - doc->models) : FBX_NONE;
		double where = 0, error = m && !tried[i] && m->rotation_order < 6 ? slerp_error(doc, i, st, &where) : 0;

		if (error <= EULER_TOLERANCE_DEG)
			continue;
		if (rebuild_channel(tm, i, stack, clip, c)) {
			tried[i] = 1, rebuilt++;
			continue;
		}
		if (error > worst)
			worst = error, at = where, bone = i;
	}
	if (rebuilt)
		animc_clip_report(sink, ANIMC_NOTE, clip, NULL, "%u bone%s whose Euler curves turn about several axes "
				  "at once between keys: keys added from the file's curves where a slerp would leave "
				  "them by more than %g degrees", rebuilt, rebuilt == 1 ? "" : "s", EULER_TOLERANCE_DEG);
	if (bone == FBX_NONE)
		return;
	animc_clip_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_EULER_BETWEEN_KEYS, clip, NULL,
			       "bone '%s': between keys its Lcl Rotation curves turn about more than one axis at "
			       "once, and Assimp keeps one quaternion a key, which the runtime slerps: up to %.1f "
			       "degrees off the curves' turn (at %g s); bake the animation (a key every frame) "
			       "in the exporter",
			       doc->models[bone].name, worst, at);
}

/* Whether model `m` has a Lcl Rotation curve in stack `stack` (read or
 * not). */
static bool has_rotation_curve(const fbx_doc *doc, uint32_t m, uint32_t stack)
{
	for (uint32_t i = 0; i < doc->node_count; i++)
		if (doc->nodes[i].model == m && is_take_node(doc, &doc->nodes[i], stack) && lcl_kind(&doc->nodes[i]) == 1)
			return true;
	return false;
}

/* Every key of rotation track `t` made model `m`'s Lcl Rotation, in XYZ
 * order. */
static void hold_rotation(const fbx_model *m, animc_track *t)
{
	double q[4];

	animc_fbx_euler_quat(m->rotation, 0, q);
	for (uint32_t i = 0; t->is_present && i < t->value_count; i++) {
		float *v = &t->values[(size_t)i * 4];

		v[0] = (float)q[1], v[1] = (float)q[2], v[2] = (float)q[3], v[3] = (float)q[0];
	}
}

/*
 * A bone of RotationActive 0 turns in XYZ order in the FBX SDK, whatever
 * its RotationOrder; Assimp 5.2.5 reads no RotationActive and turns its
 * angles in the RotationOrder.  Such a bone is rebuilt from its curves (a
 * note), its rotation held at its Lcl Rotation where no curve keys it;
 * where the curves cannot be read exactly, said once per clip.
 */
static void check_rotation_order(const fbx_doc *doc, const fbx_stack *st, animc_clip *clip, take_model *tm,
				 uint8_t *tried, animc_diag_sink *sink)
{
	static const char *const orders[] = { "XYZ", "XZY", "YZX", "YXZ", "ZXY", "ZYX", "SphericXYZ" };
	uint32_t stack = (uint32_t)(st - doc->stacks), rebuilt = 0, count = 0;
	const fbx_model *first = NULL;

	for (uint32_t c = 0; c < clip->channel_count; c++) {
		const fbx_model *m = animc_fbx_doc_model(doc, clip->channels[c].bone);
		uint32_t i = m ? (uint32_t)(m - doc->models) : FBX_NONE;

		if (!m || m->is_rotation_active || m->rotation_order == 0 || tried[i] == 1)
			continue;
		if (!has_rotation_curve(doc, i, stack)) {
			hold_rotation(m, &clip->channels[c].tracks[ANIMC_ROTATION]);
		} else if (rebuild_channel(tm, i, stack, clip, c)) {
			tried[i] = 1, rebuilt++;
		} else {
			tried[i] = 2;
			if (count++ == 0)
				first = m;
		}
	}
	if (rebuilt)
		animc_clip_report(sink, ANIMC_NOTE, clip, NULL, "%u bone%s of RotationActive 0, which Assimp turns in "
				  "their RotationOrder: rebuilt from the file's curves in XYZ order", rebuilt,
				  rebuilt == 1 ? "" : "s");
	if (!count)
		return;
	char more[64];
	and_more(more, sizeof more, count, "bone");
	animc_clip_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_ROTATION_ACTIVE, clip, NULL,
			       "bone '%s'%s has RotationActive 0, so the FBX SDK turns it in XYZ order and ignores "
			       "its RotationOrder (%s); Assimp turns it in that order, and its curves cannot be read "
			       "here to mend it (one component keyed in two layers, or a scale of 0 or below): in "
			       "the exporter, set the rotation order to XYZ, or turn RotationActive on",
			       first->name, more, orders[first->rotation_order >= 0 && first->rotation_order < 7 ?
							  first->rotation_order : 0]);
}

/* Why key k of curve c (of property `property`) is past what Assimp's
 * float arithmetic holds, or NULL: a scale it squares (past 1.8e19, the
 * square past FLT_MAX: an infinite scale), or a key whose difference from
 * the one before passes FLT_MAX (the interpolation of the two: NaN at
 * every key of the bone). */
static const char *past_float(const fbx_curve *c, const char *property, uint32_t k)
{
	if (strcmp(property, "Lcl Scaling") == 0 && fabs(c->values[k]) > sqrt(FLT_MAX))
		return "past 1.8e19, whose square Assimp takes in a float";
	if (k > 0 && !isfinite((float)(c->values[k] - c->values[k - 1])))
		return "farther from the key before than a float holds (Assimp interpolates the two in floats)";
	return NULL;
}

bool animc_fbx_say_bad_keys(const fbx_doc *doc, const animc_clip *clip, animc_diag_sink *sink)
{
	const fbx_stack *st = animc_fbx_doc_stack(doc, clip->name);
	uint32_t stack = st ? (uint32_t)(st - doc->stacks) : FBX_NONE;

	for (uint32_t i = 0; st && i < doc->curve_count; i++) {
		const fbx_curve *c = &doc->curves[i];
		const fbx_curve_node *n = take_curve(doc, c, stack);

		for (uint32_t k = 0; n && k < c->key_count; k++) {
			const char *past = isfinite(c->values[k]) ? past_float(c, n->property, k) : NULL;
			char what[128];

			if (isfinite(c->values[k]) && !past)
				continue;
			if (past)
				snprintf(what, sizeof what, "%g, %s", c->values[k], past);
			else
				snprintf(what, sizeof what, "%s", isnan(c->values[k]) ? "NaN" : "infinite");
			animc_diag_report(sink, ANIMC_ERROR, c->values_line, 0,
					  "clip '%s': bone '%s': its %s %c curve's key %u (at %g s of the timeline) "
					  "is %s: Assimp spreads it into every track of the bone; fix the value in "
					  "the exporter",
					  clip->name, doc->models[n->model].name, n->property, "XYZ"[c->axis], k,
					  c->times[k] / FBX_KTIME_PER_SECOND, what);
			return true;
		}
	}
	return false;
}

bool animc_fbx_say_damage(const fbx_doc *doc, animc_diag_sink *sink)
{
	for (uint32_t i = 0; i < doc->curve_count; i++) {
		const fbx_curve *c = &doc->curves[i];
		const fbx_curve_node *n = c->node < doc->node_count ? &doc->nodes[c->node] : NULL;
		char what[FBX_NAME_BYTES + 64] = "a curve of no bone";

		if (!c->damage[0])
			continue;
		if (n && n->model < doc->model_count)
			snprintf(what, sizeof what, "bone '%s': its %s %c curve", doc->models[n->model].name, n->property,
				 c->axis >= 0 ? "XYZ"[c->axis] : '?');
		animc_diag_report(sink, ANIMC_ERROR, 0, 0,
				  "%s (AnimationCurve %lld): %s: the file is damaged (Assimp reads other values for "
				  "the curve, or none); export it again", what, (long long)c->id, c->damage);
		return true;
	}
	return false;
}

/* Keys Assimp may make of one Lcl Rotation curve (it keys the turn every
 * half turn an angle moves), as many as animc takes of a glTF curve: a
 * curve keyed to 1e30 degrees ran the import out of its memory limit with
 * a message blaming a damaged count. */
#define FBX_MAX_TURN_KEYS ((double)(1u << 20))

bool animc_fbx_say_endless_turns(const fbx_doc *doc, animc_diag_sink *sink)
{
	for (uint32_t i = 0; i < doc->curve_count; i++) {
		const fbx_curve *c = &doc->curves[i];
		const fbx_curve_node *n = c->node < doc->node_count ? &doc->nodes[c->node] : NULL;
		double halves = 0;
		uint32_t k = 1;

		if (!n || !c->is_read || strcmp(n->property, "Lcl Rotation") != 0)
			continue;
		for (; k < c->key_count && halves <= FBX_MAX_TURN_KEYS; k++)
			halves += fabs(c->values[k] - c->values[k - 1]) / 180;
		if (halves <= FBX_MAX_TURN_KEYS)
			continue;
		animc_diag_report(sink, ANIMC_ERROR, c->values_line, 0,
				  "bone '%s': its Lcl Rotation %c curve has turned more than %.0f half turns by key %u "
				  "(%g degrees), and Assimp keys a rotation every half turn: more keys than animc takes "
				  "of a curve (%.0f); check the curve's values in the exporter (FBX angles are degrees)",
				  n->model < doc->model_count ? doc->models[n->model].name : "", c->axis >= 0 ? "XYZ"[c->axis] : '?',
				  FBX_MAX_TURN_KEYS, k - 1, c->values[k - 1], FBX_MAX_TURN_KEYS);
		return true;
	}
	return false;
}

/* The first key time of the take's curves: Assimp's 0 of a take of no
 * range. */
static double first_key(const fbx_doc *doc, uint32_t stack)
{
	double first = INFINITY;

	for (uint32_t i = 0; i < doc->curve_count; i++)
		for (uint32_t k = 0; take_curve(doc, &doc->curves[i], stack) && k < doc->curves[i].key_count; k++)
			first = fmin(first, doc->curves[i].times[k]);
	return first;
}

/*
 * A bone whose scale is 0 on an axis at a key, or below 0, and which no
 * check rebuilt: rebuilt from its curves, its rotation there the curves'
 * (a note); else a key of scale 0 takes its neighbour's rotation, with a
 * warning.
 */
static void check_scale_keys(const fbx_doc *doc, const fbx_stack *st, animc_clip *clip, take_model *tm,
			     const uint8_t *tried, animc_diag_sink *sink)
{
	uint32_t rebuilt = 0;

	for (uint32_t c = 0; c < clip->channel_count; c++) {
		const fbx_model *m = animc_fbx_doc_model(doc, clip->channels[c].bone);
		uint32_t i = m ? (uint32_t)(m - doc->models) : FBX_NONE;
		bool has_zero;

		if ((m && tried[i] == 1) || !has_odd_scale(&clip->channels[c], &has_zero))
			continue;
		if (st && m && rebuild_channel(tm, i, (uint32_t)(st - doc->stacks), clip, c))
			rebuilt++;
		else if (has_zero)
			animc_assimp_mend_zero_scale(clip, c, sink);
	}
	if (rebuilt)
		animc_clip_report(sink, ANIMC_NOTE, clip, NULL, "%u bone%s scaled to 0 or below 0, whose rotation Assimp "
				  "reads back from a matrix: rebuilt from the file's curves", rebuilt,
				  rebuilt == 1 ? "" : "s");
}

/* Whether curve `c` holds a value the take shows: a constant key whose
 * value changes at the next key, the span between them in the take's
 * range (any, without a range). */
static bool has_step(const take_model *tm, const fbx_curve *c)
{
	for (uint32_t k = 0; k + 1 < c->key_count; k++)
		if (c->steps[k] != FBX_LINEAR && c->values[k] != c->values[k + 1] &&
		    (!tm->has_range || (c->times[k] < tm->stop && c->times[k + 1] > tm->start)))
			return true;
	return false;
}

/* Whether model `m` has a curve in the take whose constant keys are not
 * read key by key (animc_fbx_curve_exact reads it as linear). */
static bool has_unread_steps(const fbx_doc *doc, uint32_t m, uint32_t stack)
{
	for (uint32_t i = 0; i < doc->curve_count; i++) {
		const fbx_curve *c = &doc->curves[i];
		const fbx_curve_node *n = c->node < doc->node_count ? &doc->nodes[c->node] : NULL;

		if (n && n->model == m && is_take_node(doc, n, stack) && c->axis >= 0 && c->has_constant && !c->steps)
			return true;
	}
	return false;
}

static void say_steps(const fbx_doc *doc, const animc_clip *clip, const fbx_curve *first, uint32_t count,
		      animc_diag_sink *sink)
{
	const fbx_curve_node *n = &doc->nodes[first->node];
	char more[64];

	and_more(more, sizeof more, count, "curve");
	animc_diag_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_STEPPED_KEYS, first->flags_line, 0,
			       "clip '%s': bone '%s': its %s %c curve has constant (stepped) keys%s, which are "
			       "read as linear: %s, so the output moves between keys where the source holds each "
			       "one; bake the animation (a key every frame) when exporting",
			       clip->name, doc->models[n->model].name, n->property, "XYZ"[first->axis], more,
			       !first->is_read ? "its key arrays are damaged" :
			       !first->steps ? "its KeyAttrFlags and KeyAttrRefCount do not give each key one" :
					       "the bone is not rebuilt from its curves (a component keyed in two "
					       "layers, or a spheric rotation order)");
}

/*
 * Assimp 5.2.5 reads no key's interpolation: a constant (stepped) key, as
 * Maya and MotionBuilder write blocking passes, played as linear.  A bone
 * holding such a key in the take is rebuilt from its curves, each held
 * value kept up to the float before its change (a note); what cannot be
 * read exactly is said once per clip, at the first such curve's flags.
 */
static void check_stepped_keys(const fbx_doc *doc, const fbx_stack *st, animc_clip *clip, take_model *tm,
			       uint8_t *tried, animc_diag_sink *sink)
{
	uint32_t stack = st ? (uint32_t)(st - doc->stacks) : FBX_NONE, count = 0, rebuilt = 0;
	const fbx_curve *first = NULL;

	for (uint32_t i = 0; i < doc->curve_count; i++) {
		const fbx_curve *c = &doc->curves[i];
		const fbx_curve_node *n = c->node < doc->node_count ? &doc->nodes[c->node] : NULL;

		if (!n || c->axis < 0 || !c->has_constant || (c->steps && !has_step(tm, c)) ||
		    !(st ? is_take_node(doc, n, stack) : n->model < doc->model_count && lcl_kind(n) >= 0) ||
		    tried[n->model] == 1)
			continue;
		int64_t ch = c->steps && !tried[n->model] && !has_unread_steps(doc, n->model, stack) ?
				     channel_of(clip, doc->models[n->model].name) : -1;
		if (ch >= 0 && rebuild_channel(tm, n->model, stack, clip, (uint32_t)ch)) {
			tried[n->model] = 1, rebuilt++;
			continue;
		}
		tried[n->model] = ch >= 0 ? 2 : tried[n->model];
		if (count++ == 0)
			first = c;
	}
	if (rebuilt)
		animc_clip_report(sink, ANIMC_NOTE, clip, NULL, "%u bone%s with constant (stepped) keys, which Assimp "
				  "reads as linear: rebuilt from the file's curves, each value held up to its next "
				  "key", rebuilt, rebuilt == 1 ? "" : "s");
	if (count)
		say_steps(doc, clip, first, count, sink);
}

void animc_fbx_check_clip(const fbx_doc *doc, animc_clip *clip, double seconds_per_kt, animc_diag_sink *sink)
{
	const fbx_stack *st = animc_fbx_doc_stack(doc, clip->name);
	uint8_t *tried = calloc(doc->model_count + 1, 1);   /* by model: 1 rebuilt, 2 not */
	take_model tm = { .doc = doc };

	if (!tried)
		return;
	if (!st) {
		check_stepped_keys(doc, NULL, clip, &tm, tried, sink);
		check_scale_keys(doc, NULL, clip, &tm, tried, sink);
		free(tried);
		return;
	}
	tm = (take_model){ .doc = doc, .start = st->local_start, .stop = st->local_stop,
			   .has_range = st->local_start != 0 || st->local_stop != 0, .seconds_per_kt = seconds_per_kt };
	if (!tm.has_range)
		tm.start = first_key(doc, (uint32_t)(st - doc->stacks));
	if (!isfinite(tm.start))
		tm.seconds_per_kt = 0;
	check_stepped_keys(doc, st, clip, &tm, tried, sink);
	check_take_range(doc, st, clip, &tm, tried, sink);
	check_rotation_order(doc, st, clip, &tm, tried, sink);
	check_layers(doc, st, clip, sink);
	check_inherit_type(doc, st, clip, sink);
	check_euler_slerp(doc, st, clip, &tm, tried, sink);
	check_scale_keys(doc, st, clip, &tm, tried, sink);
	free(tried);
}

/*
 * Assimp 5.2.5 leaves out a take whose layers key no model's Lcl
 * transform ("ignoring empty AnimationStack", at its information level): a
 * bind-pose take ("TPose") vanished without a word.
 */
void animc_fbx_check_takes(const fbx_doc *doc, const animc_clip_set *set, uint32_t first, animc_diag_sink *sink)
{
	for (uint32_t s = 0; s < doc->stack_count; s++) {
		bool is_keyed = false, has_clip = false;

		for (uint32_t i = 0; i < doc->node_count && !is_keyed; i++)
			is_keyed = is_take_node(doc, &doc->nodes[i], s);
		for (uint32_t c = first; c < set->count && !has_clip; c++)
			has_clip = strcmp(set->clips[c]->name, doc->stacks[s].name) == 0;
		if (is_keyed || has_clip)
			continue;
		animc_diag_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_EMPTY_TAKE, 0, 0,
				       "take '%s' keys no bone (no Lcl Translation, Rotation or Scaling curve): "
				       "Assimp leaves such a take out, and no clip is written for it; to keep it as "
				       "a pose (a bind pose), key each bone once in it in the exporter",
				       doc->stacks[s].name);
	}
}

/* The rotation matrix of quaternion `q` (w x y z). */
static void quat_matrix(const double q[4], double r[3][3])
{
	double w = q[0], x = q[1], y = q[2], z = q[3], m[3][3] = {
		{ 1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y) },
		{ 2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x) },
		{ 2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y) } };

	memcpy(r, m, sizeof m);
}

/* The upper 3x3 of `m` times S^-1 * R * S (S the scale `s`, R the
 * rotation of quaternion `q`, w x y z): M * S^-1 * Rpost^-2 * S mends
 * T * R * Rpost * S into T * R * Rpost^-1 * S. */
static void mend_matrix(struct aiMatrix4x4 *m, const double q[4], const double s[3])
{
	double r[3][3];
	float *rows[3] = { &m->a1, &m->b1, &m->c1 }, out[3][3];

	quat_matrix(q, r);
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++) {
			double sum = 0;

			for (int k = 0; k < 3; k++)
				sum += rows[i][k] * r[k][j] * s[j] / s[k];
			out[i][j] = (float)sum;
		}
	for (int i = 0; i < 3; i++)
		memcpy(rows[i], out[i], sizeof out[i]);
}

/* The upper 3x3 of `m` made R * S of `model`'s Lcl Rotation (in XYZ
 * order) and Lcl Scaling: the rest pose of a RotationActive of 0, where
 * Assimp gave Rpre * R * Rpost * S, R in the model's rotation order. */
static void rest_without_rotation_space(struct aiMatrix4x4 *m, const fbx_model *model)
{
	double q[4], r[3][3];
	float *rows[3] = { &m->a1, &m->b1, &m->c1 };

	animc_fbx_euler_quat(model->rotation, 0, q);
	quat_matrix(q, r);
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			rows[i][j] = (float)(r[i][j] * model->scaling[j]);
}

static void mend_node(const fbx_doc *doc, struct aiNode *node, unsigned depth)
{
	char name[FBX_NAME_BYTES];
	const fbx_model *model;
	double left[4], right[4];

	if (depth > 1000)
		return;
	snprintf(name, sizeof name, "%.*s", (int)(node->mName.length < sizeof name ? node->mName.length : sizeof name - 1),
		 node->mName.data);
	model = animc_fbx_doc_model(doc, name);
	if (model && !model->is_rotation_active && (rotation_mend(model, left, right) || model->rotation_order != 0))
		rest_without_rotation_space(&node->mTransformation, model);
	else if (model && rotation_mend(model, left, right) && model->scaling[0] != 0 && model->scaling[1] != 0 &&
		 model->scaling[2] != 0)
		mend_matrix(&node->mTransformation, right, model->scaling);
	for (unsigned i = 0; node->mChildren && i < node->mNumChildren; i++)
		if (node->mChildren[i])
			mend_node(doc, node->mChildren[i], depth + 1);
}

void animc_fbx_mend_rest(const fbx_doc *doc, const struct aiScene *scene)
{
	if (scene && scene->mRootNode)
		mend_node(doc, scene->mRootNode, 0);
}

