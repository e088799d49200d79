/*
 * lws_envelopes.c - a LightWave scene's motions read from its own bytes,
 * to find those Assimp 5.2 reads wrongly (see lws.h).
 *
 * Assimp's AnimResolver::GetKeys (code/AssetLib/LWO/LWOAnimation.cpp)
 * walks the three envelopes of a position, rotation or scale with one
 * cursor each, taking the earliest key time left; where their keys lie
 * at different times its cursors step twice or wrongly (InterpolateTrack
 * ends x's walk for z, the `cur_z <= cur_y` branch takes y's time), so
 * keys are lost and values extrapolated past them.  replay() below is that
 * walk, step for step, with every span read as linear (as the importer
 * reads them); a motion whose walk gives other values than its envelopes
 * fails the source, at the envelope it gets wrong.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lws.h"

/* One envelope: its keys (time, value, and the span type of the curve
 * into each: 0 TCB, 1 Hermite, 2 1D Bezier, 3 linear, 4 stepped, 5 2D
 * Bezier; -1 unread) in the file's order. */
typedef struct lws_env {
	double *time, *value;
	int *span;
	uint32_t count, capacity;
	uint32_t line;          /* its `Channel N` line */
	int pre, post;          /* behaviours: 1 Constant (the default), 0 Reset */
	bool is_replayable;     /* behaviours replay() knows, keys read */
	bool is_set;
} lws_env;

/* The nine envelopes of one motion (position XYZ, heading, pitch, bank,
 * scale XYZ), as `Channel N` numbers them. */
typedef struct lws_motion {
	lws_env env[9];
	int channel;            /* the `Channel N` open, or -1 */
	bool in_envelope;
	uint32_t failures;      /* envelope groups read wrongly so far */
	uint32_t bone_line;     /* the first `AddBone` line, or 0 */
	uint32_t turns;         /* rotations slerped off their envelopes' turn */
	uint32_t turn_line;     /* the first one's heading `Channel` line */
	double turn_degrees, turn_time;
} lws_motion;

/* A key Assimp gives: its time and the three values. */
typedef struct lws_key {
	double time, v[3];
	uint32_t order;         /* its place in Assimp's list */
} lws_key;

/* The walk's cursors, as GetKeys keeps them. */
typedef struct lws_walk {
	const lws_env *env[3];
	uint32_t cur[3];
	bool end[3];
	lws_key *out;
	uint32_t count, capacity;
} lws_walk;

static const char *const what[3] = { "position", "rotation", "scale" };

static const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

static bool is_word(const char *p, const char *end, const char *word)
{
	size_t n = strlen(word);

	return (size_t)(end - p) > n && memcmp(p, word, n) == 0 && (p[n] == ' ' || p[n] == '\t');
}

/* A line of `word` alone, or `word` and more (an item's number). */
static bool is_keyword(const char *p, const char *end, const char *word)
{
	const char *q = end;

	while (q > p && (q[-1] == ' ' || q[-1] == '\t'))
		q--;
	return ((size_t)(q - p) == strlen(word) && memcmp(p, word, strlen(word)) == 0) || is_word(p, end, word);
}

/* The number at `*p` (to `end`), `*p` moved past it; false for none. */
static bool read_number(const char **p, const char *end, double *x)
{
	char buf[64], *stop;
	size_t n = 0;

	*p = skip_blanks(*p, end);
	while (*p + n < end && n < sizeof buf - 1 && (*p)[n] != ' ' && (*p)[n] != '\t')
		n++;
	memcpy(buf, *p, n);
	buf[n] = '\0';
	*x = strtod(buf, &stop);
	*p += n;
	return n > 0 && stop != buf && isfinite(*x);
}

static void env_clear(lws_env *e)
{
	free(e->time), free(e->value), free(e->span);
	memset(e, 0, sizeof *e);
}

static bool env_add(lws_env *e, double time, double value, int span)
{
	if (e->count == e->capacity) {
		uint32_t cap = e->capacity ? e->capacity * 2 : 8;
		double *t, *v;
		int *s;

		if (cap > (1u << 24) || !(t = realloc(e->time, cap * sizeof *t)))
			return false;
		e->time = t;
		if (!(v = realloc(e->value, cap * sizeof *v)))
			return false;
		e->value = v;
		if (!(s = realloc(e->span, cap * sizeof *s)))
			return false;
		e->span = s, e->capacity = cap;
	}
	e->time[e->count] = time;
	e->span[e->count] = span;
	e->value[e->count++] = value;
	return true;
}

/* The envelope's value at `time`, read as linear between its keys, and
 * before and after them held (Constant) or 0 (Reset). */
static double env_at(const lws_env *e, double time)
{
	uint32_t lo = 0, hi = e->count - 1;

	if (time < e->time[0] && e->count > 1)
		return e->pre == 0 ? 0 : e->value[0];
	if (time > e->time[hi] && e->count > 1)
		return e->post == 0 ? 0 : e->value[hi];
	if (time <= e->time[0])
		return e->value[0];
	if (time >= e->time[hi])
		return e->value[hi];
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (e->time[mid] <= time)
			lo = mid;
		else
			hi = mid;
	}
	return e->value[lo] + (e->value[hi] - e->value[lo]) * ((time - e->time[lo]) / (e->time[hi] - e->time[lo]));
}

/* The span type of the curve envelope `e` plays at `time` (the span into
 * the key after it), or -2 where it plays none: at a key, before the
 * first or past the last, where every span type gives one value. */
static int span_at(const lws_env *e, double time)
{
	if (e->count < 2 || !e->span || time <= e->time[0] || time >= e->time[e->count - 1])
		return -2;
	for (uint32_t i = 1; i < e->count; i++) {
		if (time == e->time[i])
			return -2;
		if (time < e->time[i])
			return e->span[i];
	}
	return -2;
}

/* Envelope `e`'s value at `time` as LightWave plays it, into *v: known
 * where it plays a linear span, a stepped one (the key before held) or
 * none; false on a curve (TCB, Hermite, Bezier), which LightWave bends
 * where Assimp joins the keys by a straight line. */
static bool own_value(const lws_env *e, double time, double *v)
{
	int span = span_at(e, time);
	uint32_t i = 1;

	*v = env_at(e, time);
	if (span != 4)
		return span == -2 || span == 3;
	while (e->time[i] <= time)
		i++;
	*v = e->value[i - 1];
	return true;
}

/* Into `out`, what envelope `e` gives at `time` (whose straight reading is
 * `straight`), as said of a value Assimp misreads. */
static void say_envelope_value(const lws_env *e, double time, double straight, char *out, size_t size)
{
	static const char *const curves[6] = { "TCB", "Hermite", "Bezier", NULL, NULL, "Bezier" };
	int span = span_at(e, time);
	double own;

	if (own_value(e, time, &own))
		snprintf(out, size, "where the envelope gives %.6g", own);
	else if (span >= 0 && curves[span])
		snprintf(out, size, "where its keys joined by straight lines, as Assimp joins them, give %.6g, on a span "
			 "LightWave bends as a %s curve", straight, curves[span]);
	else
		snprintf(out, size, "where its keys joined by straight lines, as Assimp joins them, give %.6g",
			 straight);
}

/* DoInterpolation: the value of envelope `c` at `time`, its cursor taken
 * for the key after `time`, as Assimp takes it. */
static double walk_interpolate(const lws_walk *w, int c, double time)
{
	const lws_env *e = w->env[c];
	uint32_t i = w->cur[c];
	double d;

	if (e->count == 1)
		return e->value[0];
	if (i == 0)
		return e->pre == 0 ? 0 : e->value[0];
	if (i == e->count - 1 && time > e->time[i])
		return e->post == 0 ? 0 : e->value[i];
	d = e->time[i] - e->time[i - 1];
	return d > 0 ? e->value[i - 1] + (e->value[i] - e->value[i - 1]) * ((time - e->time[i - 1]) / d) : e->value[i - 1];
}

/* InterpolateTrack: the key at `time`; a component keyed there moves its
 * cursor on (z's last key ends x's walk, as Assimp writes it). */
static void walk_track(lws_walk *w, double time, lws_key *k)
{
	k->time = time;
	for (int c = 0; c < 3; c++) {
		const lws_env *e = w->env[c];

		if (e->time[w->cur[c]] == time) {
			k->v[c] = e->value[w->cur[c]];
			if (w->cur[c] != e->count - 1)
				w->cur[c]++;
			else
				w->end[c == 2 ? 0 : c] = true;
		} else {
			k->v[c] = walk_interpolate(w, c, time);
		}
	}
}

/* GetKeys' choice of the next key, from the three cursors. */
static void walk_next(lws_walk *w, lws_key *k)
{
	double tx = w->env[0]->time[w->cur[0]], ty = w->env[1]->time[w->cur[1]], tz = w->env[2]->time[w->cur[2]];

	if (tx == ty && tx == tz) {
		k->time = tx;
		for (int c = 0; c < 3; c++)
			k->v[c] = w->env[c]->value[w->cur[c]];
	} else if (tx <= ty && !w->end[0]) {
		walk_track(w, tz <= tx && !w->end[2] ? tz : tx, k);
	} else if (tz <= ty && !w->end[1]) {
		walk_track(w, ty, k);
	} else if (!w->end[1]) {
		walk_track(w, ty, k);
	} else {
		walk_track(w, w->end[0] ? tz : tx, k);
	}
}

/* The keys Assimp makes of three envelopes; false when the walk does not
 * end (the file is not one Assimp reads: nothing to say) or no memory. */
static bool replay(lws_walk *w)
{
	uint32_t limit = 2 * (w->env[0]->count + w->env[1]->count + w->env[2]->count) + 8;

	while (w->count < limit) {
		lws_key k;

		if (w->count == w->capacity) {
			uint32_t cap = w->capacity ? w->capacity * 2 : 16;
			lws_key *out = realloc(w->out, cap * sizeof *out);

			if (!out)
				return false;
			w->out = out, w->capacity = cap;
		}
		walk_next(w, &k);
		w->out[w->count++] = k;
		for (int c = 0; c < 3; c++)
			if (k.time >= w->env[c]->time[w->cur[c]]) {
				if (w->cur[c] != w->env[c]->count - 1)
					w->cur[c]++;
				else
					w->end[c] = true;
			}
		if (w->end[0] && w->end[1] && w->end[2])
			return true;
	}
	return false;
}

/* qsort order of the keys Assimp made: by time, then as made. */
static int key_order(const void *a, const void *b)
{
	const lws_key *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

/* The keys Assimp made as the runtime takes them: in time order, the
 * later of one time kept (the passes' rule). */
static void sort_keys(lws_walk *w)
{
	uint32_t kept = 0;

	for (uint32_t i = 0; i < w->count; i++)
		w->out[i].order = i;
	qsort(w->out, w->count, sizeof *w->out, key_order);
	for (uint32_t i = 0; i < w->count; i++) {
		if (kept && w->out[kept - 1].time == w->out[i].time)
			kept--;
		w->out[kept++] = w->out[i];
	}
	w->count = kept;
}

/* Component `c` of the sorted keys at `time`, as the runtime plays them:
 * linear between keys, held before and after them. */
static double played_at(const lws_walk *w, int c, double time)
{
	uint32_t lo = 0, hi = w->count - 1;

	if (time <= w->out[0].time)
		return w->out[0].v[c];
	if (time >= w->out[hi].time)
		return w->out[hi].v[c];
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (w->out[mid].time <= time)
			lo = mid;
		else
			hi = mid;
	}
	return w->out[lo].v[c] + (w->out[hi].v[c] - w->out[lo].v[c]) *
				 ((time - w->out[lo].time) / (w->out[hi].time - w->out[lo].time));
}

/* Whether the walk's keys play envelope `c` at `time` (within float
 * rounding); *got and *want the two values. */
static bool plays_right(const lws_walk *w, int c, double time, double *got, double *want)
{
	*got = played_at(w, c, time);
	*want = env_at(w->env[c], time);
	return fabs(*got - *want) <= 1e-4 * fmax(1.0, fabs(*want));
}

/* Whether the walk's keys play every envelope right at `time`; when not,
 * *c the first envelope they leave and *got and *want the two values. */
static bool plays_all_right(const lws_walk *w, double time, int *c, double *got, double *want)
{
	for (*c = 0; *c < 3; (*c)++)
		if (!plays_right(w, *c, time, got, want))
			return false;
	return true;
}

/* The first time (a key of any of the three envelopes, or halfway to its
 * envelope's next key) where the walk's keys leave an envelope: false
 * when there is none. */
static bool first_wrong(const lws_walk *w, int *c, double *time, double *got, double *want)
{
	for (int e = 0; e < 3; e++) {
		const lws_env *env = w->env[e];

		for (uint32_t i = 0; i < env->count; i++) {
			*time = env->time[i];
			if (!plays_all_right(w, *time, c, got, want))
				return true;
			*time = i + 1 < env->count ? (env->time[i] + env->time[i + 1]) / 2 : env->time[i];
			if (!plays_all_right(w, *time, c, got, want))
				return true;
		}
	}
	return false;
}

/* Quaternions are (x, y, z, w). */
static void quat_mul(const double a[4], const double b[4], double out[4])
{
	out[0] = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
	out[1] = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
	out[2] = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
	out[3] = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
}

/* The turn of heading `h`, pitch `p` and bank `b` (radians), as Assimp
 * makes it of them: about Y by h, then X by p, then Z by b. */
static void hpb_quat(double h, double p, double b, double q[4])
{
	const double qy[4] = { 0, sin(h / 2), 0, cos(h / 2) }, qx[4] = { sin(p / 2), 0, 0, cos(p / 2) };
	const double qz[4] = { 0, 0, sin(b / 2), cos(b / 2) };
	double yx[4];

	quat_mul(qy, qx, yx);
	quat_mul(yx, qz, q);
}

/* The angle between two turns, in degrees. */
static double quat_degrees(const double a[4], const double b[4])
{
	double d = fabs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]);

	return 2 * acos(fmin(1.0, d)) * 180 / M_PI;
}

/* The runtime's slerp (the shorter arc) from `a` to `b` at `u`. */
static void quat_slerp(const double a[4], const double b[4], double u, double out[4])
{
	double d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3], sign = d < 0 ? -1 : 1, wa, wb;
	double angle = acos(fmin(1.0, fabs(d)));

	if (sin(angle) < 1e-9) {
		wa = 1 - u, wb = u;
	} else {
		wa = sin((1 - u) * angle) / sin(angle), wb = sin(u * angle) / sin(angle);
	}
	for (int i = 0; i < 4; i++)
		out[i] = wa * a[i] + sign * wb * b[i];
}

/* How far (degrees) the runtime's slerp between the rotation keys Assimp
 * made strays from the envelopes' own turn, angle by angle, at most;
 * *at the time of the most, measured at eighths of each span. */
static double turn_off(const lws_walk *w, double *at)
{
	double most = 0;

	for (uint32_t i = 0; i + 1 < w->count; i++) {
		const lws_key *k0 = &w->out[i], *k1 = &w->out[i + 1];
		double q0[4], q1[4];

		hpb_quat(k0->v[0], k0->v[1], k0->v[2], q0);
		hpb_quat(k1->v[0], k1->v[1], k1->v[2], q1);
		for (int e = 1; e < 8; e++) {
			double t = k0->time + (k1->time - k0->time) * e / 8, slerped[4], turn[4], off;

			quat_slerp(q0, q1, e / 8.0, slerped);
			hpb_quat(env_at(w->env[0], t), env_at(w->env[1], t), env_at(w->env[2], t), turn);
			if ((off = quat_degrees(slerped, turn)) > most)
				most = off, *at = t;
		}
	}
	return most;
}

/* A rotation Assimp reads right, whose slerped keys leave the envelopes'
 * turn by more than half a degree (two or three angles moving at once,
 * or one by 180 degrees or more), counted for the one warning at the end,
 * which names the largest. */
static void check_turn(lws_motion *m, const lws_walk *w)
{
	double at = 0, off = turn_off(w, &at);

	if (off <= 0.5)
		return;
	if (m->turns++ == 0 || off > m->turn_degrees) {
		m->turn_line = w->env[0]->line ? w->env[0]->line : w->env[1]->line ? w->env[1]->line : w->env[2]->line;
		m->turn_degrees = off, m->turn_time = at;
	}
}

/* Whether the replay walks these envelopes as Assimp does: every one's
 * keys in time order, its behaviours Constant or Reset (others Assimp
 * turns into more keys first, or reads otherwise). */
static bool replayable(const lws_env *const env[3], bool *is_animated)
{
	*is_animated = false;
	for (int c = 0; c < 3; c++) {
		if (!env[c]->is_replayable)
			return false;
		for (uint32_t i = 1; i < env[c]->count; i++)
			if (!(env[c]->time[i] > env[c]->time[i - 1]))
				return false;
		*is_animated |= env[c]->count > 1;
	}
	return true;
}

/* Check one of a motion's three envelope groups (0 position, 1 rotation,
 * 2 scale), saying the first it reads wrongly. */
static void check_group(lws_motion *m, int group, animc_diag_sink *sink)
{
	lws_env dummy[3] = { { 0 } };
	double zero = 0, one = 1, t, got, want;
	lws_walk w = { 0 };
	bool is_animated;
	int c;

	for (c = 0; c < 3; c++) {
		/* An envelope the motion leaves out is one key at 0 (Assimp's). */
		dummy[c] = (lws_env){ .time = &zero, .value = group == 2 ? &one : &zero, .count = 1, .pre = 1, .post = 1,
				    .is_replayable = true };
		w.env[c] = m->env[group * 3 + c].is_set && m->env[group * 3 + c].count ? &m->env[group * 3 + c] : &dummy[c];
	}
	if (!replayable(w.env, &is_animated) || !is_animated || !replay(&w)) {
		free(w.out);
		return;
	}
	sort_keys(&w);
	if (!first_wrong(&w, &c, &t, &got, &want)) {
		if (group == 1)
			check_turn(m, &w);
		free(w.out);
		return;
	}
	if (m->failures++ == 0) {
		char gives[256];

		say_envelope_value(w.env[c], t, want, gives, sizeof gives);
		animc_diag_report(sink, ANIMC_ERROR, w.env[c]->line, 0,
				  "Assimp reads this %s envelope wrongly: keyed at other times than the other %s "
				  "envelopes of its motion, it comes out %.6g at %.6g s %s (Assimp 5.2 loses keys and "
				  "runs values on past them when the three envelopes of a position, rotation or scale "
				  "are keyed at different times); key the three channels at the same frames, or bake "
				  "the motion (a key every frame)", what[group], what[group], got, t, gives);
	}
	free(w.out);
}

/* The motion read so far checked, and cleared for the next.  Once a bone
 * is added, Assimp mixes its envelopes into the object before it: no
 * motion is checked (the bones fail the scene). */
static void end_motion(lws_motion *m, animc_diag_sink *sink)
{
	for (int group = 0; !m->bone_line && group < 3; group++)
		check_group(m, group, sink);
	for (int c = 0; c < 9; c++)
		env_clear(&m->env[c]);
	m->channel = -1;
}

/* A line inside an envelope: a key, its behaviours or its end. */
static void envelope_line(lws_motion *m, const char *p, const char *end)
{
	lws_env *e = m->channel >= 0 ? &m->env[m->channel] : NULL;
	double value, time, span, pre, post;

	if (p < end && *p == '}') {
		/* An envelope of no `Channel N` after it (a light's intensity)
		 * is none of the motion's. */
		m->in_envelope = false;
		m->channel = -1;
	} else if (e && is_word(p, end, "Key")) {
		p += 3;
		/* A key of no number, or no memory for it: not replayed. */
		if (!read_number(&p, end, &value) || !read_number(&p, end, &time) ||
		    !env_add(e, time, value, read_number(&p, end, &span) && span >= 0 && span <= 5 ? (int)span : -1))
			e->is_replayable = false;
	} else if (e && is_word(p, end, "Behaviors")) {
		p += 9;
		if (read_number(&p, end, &pre) && read_number(&p, end, &post) && (pre == 0 || pre == 1) &&
		    (post == 0 || post == 1))
			e->pre = (int)pre, e->post = (int)post;
		else
			e->is_replayable = false;
	}
}

/* One line, the `number`th, `p` to `end`. */
static void take_line(lws_motion *m, const char *p, const char *end, uint32_t number, animc_diag_sink *sink)
{
	double n;

	p = skip_blanks(p, end);
	if (m->in_envelope) {
		envelope_line(m, p, end);
	} else if (is_word(p, end, "NumChannels")) {
		end_motion(m, sink);
	} else if (is_keyword(p, end, "AddBone")) {
		if (!m->bone_line)
			m->bone_line = number;
	} else if (is_word(p, end, "Channel")) {
		p += 7;
		m->channel = read_number(&p, end, &n) && n >= 0 && n < 9 && n == floor(n) ? (int)n : -1;
		if (m->channel >= 0) {
			env_clear(&m->env[m->channel]);
			m->env[m->channel] = (lws_env){ .line = number, .pre = 1, .post = 1, .is_replayable = true, .is_set = true };
		}
	} else if ((size_t)(end - p) >= 10 && memcmp(p, "{ Envelope", 10) == 0) {
		m->in_envelope = true;
	}
}

bool animc_lws_check_envelopes(const uint8_t *data, size_t size, animc_diag_sink *sink)
{
	const char *p = (const char *)data, *end = p + size;
	lws_motion m = { .channel = -1 };
	uint32_t number = 1;

	if (!data)
		return true;
	while (p < end) {
		const char *line = p;

		while (p < end && *p != '\n' && *p != '\r')
			p++;
		take_line(&m, line, p, number++, sink);
		if (p < end && *p == '\r' && ++p < end && *p == '\n')
			p++;
		else if (p < end && *p == '\n')
			p++;
	}
	end_motion(&m, sink);
	if (m.bone_line)
		animc_diag_report(sink, ANIMC_ERROR, m.bone_line, 0,
				  "LightWave bones are not read: Assimp 5.2 reads no AddBone and gives each bone's "
				  "envelopes to the object before it, whose motion they replace (the last bone's "
				  "wins), so the clip would move that object as one bone and the skeleton not at all; "
				  "export the skeleton's animation as FBX, COLLADA or glTF");
	if (m.turns)
		animc_diag_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_EULER_BETWEEN_KEYS, m.turn_line, 0,
				       "LightWave turns heading, pitch and bank angle by angle, but Assimp keeps one "
				       "quaternion a key, which the runtime slerps: where two or three angles move at once "
				       "between keys, or one turns 180 degrees or more, that leaves the turn the angles make "
				       "joined by straight lines between their keys, here by up to %.3g degrees (at %.6g s)%s; "
				       "bake the motion (a key every frame)",
				       m.turn_degrees, m.turn_time, m.turns > 1 ? " (and more like it)" : "");
	return m.failures == 0 && !m.bone_line;
}
