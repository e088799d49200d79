/*
 * motion.c - root motion at run time: the motion between two play times of
 * a clip's motion track (CLIP.motion.xnb), whole loops composed in Repeat
 * mode.  Standard C and libm only; allocates nothing.
 *
 * The motion track at local time t is a placement of the character: C(t),
 * a turn R(t) then a travel T(t), both in the frame the clip started in.
 * One loop moves the character by M = C(d) C(0)^-1 (C(0) is the rest a
 * motion track starts at, or within a lossy bound of it), so play time
 * n d + t places it at M^n C(t): loop i travels M's travel turned by the
 * turn of the i loops before it, and the partial loop is turned by all n.
 * Work is in double: a turn compounded over thousands of loops keeps its
 * length and its angle.
 */
#include <math.h>
#include <string.h>

#include <animc/animrt.h>
#include "sample.h"

/* A placement: turn r (unit quaternion x y z w), then travel t. */
typedef struct placement {
	double r[4];
	double t[3];
} placement;

/* out = a * b (b's turn first); out may be a or b. */
static void qmul(double out[4], const double a[4], const double b[4])
{
	double x = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
	double y = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
	double z = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
	double w = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];

	out[0] = x, out[1] = y, out[2] = z, out[3] = w;
}

/* out = v turned by unit quaternion q; out may be v. */
static void qrotate(const double q[4], const double v[3], double out[3])
{
	/* v + 2w (u x v) + 2 u x (u x v), u the axis part. */
	double cx = q[1] * v[2] - q[2] * v[1], cy = q[2] * v[0] - q[0] * v[2], cz = q[0] * v[1] - q[1] * v[0];
	double x = v[0] + 2 * (q[3] * cx + q[1] * cz - q[2] * cy);
	double y = v[1] + 2 * (q[3] * cy + q[2] * cx - q[0] * cz);
	double z = v[2] + 2 * (q[3] * cz + q[0] * cy - q[1] * cx);

	out[0] = x, out[1] = y, out[2] = z;
}

/* The motion clip at local time t (within [0, duration]), its turn made
 * unit length (a slerp's is only to float precision). */
static void sample_at(const animrt_clip *clip, float t, placement *out)
{
	_Alignas(16) unsigned char memory[256];
	animrt_pose pose;
	double len = 0;

	animrt_pose_init(&pose, memory, 1);
	animrt_clip_sample(clip, t, ANIMRT_PLAY_ONCE, NULL, &pose);
	for (int k = 0; k < 4; k++)
		len += (double)pose.rotation[k] * pose.rotation[k];
	len = sqrt(len);
	for (int k = 0; k < 4; k++)
		out->r[k] = len > 0 ? pose.rotation[k] / len : k == 3;
	for (int k = 0; k < 3; k++)
		out->t[k] = pose.translation[k];
}

/*
 * *p = M^n *p for whole n (either sign), M one loop's placement.  The turn
 * is M's axis u and half angle h raised to n: the axis part's length and
 * w through atan2 (acos of w loses the small turns of root motion, 0.02
 * degrees a loop, and a thousand loops multiplied the error).  The travel
 * is the sum over loops i < n of M's travel D turned i times: along u, n D;
 * across u, a geometric series of turns, sin(n h) / sin(h) times D turned
 * by (n - 1) h (for n < 0 too: the series' sum, (z^n - 1) / (z - 1), holds
 * for every whole n).  Closed form: as exact after a million loops as
 * after one, and as fast.
 */
static void apply_loops(const placement *m, double n, placement *p)
{
	double len = sqrt(m->r[0] * m->r[0] + m->r[1] * m->r[1] + m->r[2] * m->r[2]);
	placement whole;

	if (!(len > 0)) {
		/* No turn (or a whole one): n times the travel; q^n is q's
		 * sign to the n. */
		whole.r[0] = whole.r[1] = whole.r[2] = 0;
		whole.r[3] = m->r[3] < 0 && fmod(n, 2) != 0 ? -1 : 1;
		for (int k = 0; k < 3; k++)
			whole.t[k] = n * m->t[k];
	} else {
		double u[3] = { m->r[0] / len, m->r[1] / len, m->r[2] / len };
		double h = atan2(len, m->r[3]), along = 0, across[3], cross[3];
		double s = sin(h) != 0 ? sin(n * h) / sin(h) : n, turn = (n - 1) * h;

		for (int k = 0; k < 3; k++)
			along += u[k] * m->t[k];
		for (int k = 0; k < 3; k++)
			across[k] = m->t[k] - along * u[k];
		cross[0] = u[1] * across[2] - u[2] * across[1];
		cross[1] = u[2] * across[0] - u[0] * across[2];
		cross[2] = u[0] * across[1] - u[1] * across[0];
		for (int k = 0; k < 3; k++) {
			whole.r[k] = u[k] * sin(n * h);
			whole.t[k] = n * along * u[k] + s * (cos(turn) * across[k] + sin(turn) * cross[k]);
		}
		whole.r[3] = cos(n * h);
	}
	qrotate(whole.r, p->t, p->t);
	for (int k = 0; k < 3; k++)
		p->t[k] += whole.t[k];
	qmul(p->r, whole.r, p->r);
}

/* Where the motion places the character at play time t, loops included
 * (Repeat), in the frame the clip started in. */
static void motion_to(const animrt_clip *clip, double t, animrt_play_mode mode, placement *out)
{
	double d = clip->duration_s, loops = 0;
	float local;

	if (mode == ANIMRT_PLAY_REPEAT && d > 0) {
		loops = floor(t / d);
		local = (float)(t - loops * d);
		if (local > (float)d)
			local = (float)d;
	} else {
		local = (float)(t < 0 ? 0 : t > d ? d : t);
	}
	if (local < 0)
		local = 0;
	sample_at(clip, local, out);
	if (loops != 0) {
		/* M = C(d) C(0)^-1: the end's placement less the start's.  A
		 * motion track starts at rest, but a lossy one only within its
		 * bound, and that offset would add up loop after loop. */
		placement start, loop;
		double inv[4], back[3];

		sample_at(clip, 0, &start);
		sample_at(clip, (float)d, &loop);
		inv[0] = -start.r[0], inv[1] = -start.r[1], inv[2] = -start.r[2], inv[3] = start.r[3];
		qmul(loop.r, loop.r, inv);
		qrotate(loop.r, start.t, back);
		for (int k = 0; k < 3; k++)
			loop.t[k] -= back[k];
		apply_loops(&loop, loops, out);
	}
}

animrt_status animrt_motion_between(const animrt_clip *motion, float from_s, float to_s,
				    animrt_play_mode mode, animrt_motion *out)
{
	placement a, b;
	double inv[4], r[4], t[3];

	if (!motion || !out)
		return ANIMRT_ERR_ARGUMENT;
	if (!isfinite(from_s) || !isfinite(to_s))
		return ANIMRT_ERR_TIME;
	if (!rt_mode_ok(mode))
		return ANIMRT_ERR_PLAY_MODE;
	if (motion->sequence_count != 1)
		return ANIMRT_ERR_NOT_MOTION;
	motion_to(motion, from_s, mode, &a);
	motion_to(motion, to_s, mode, &b);
	/* A(from)^-1 A(to): the travel and turn in the frame at from_s. */
	inv[0] = -a.r[0], inv[1] = -a.r[1], inv[2] = -a.r[2], inv[3] = a.r[3];
	for (int k = 0; k < 3; k++)
		t[k] = b.t[k] - a.t[k];
	qrotate(inv, t, t);
	qmul(r, inv, b.r);
	for (int k = 0; k < 3; k++)
		out->translation[k] = (float)t[k];
	for (int k = 0; k < 4; k++)
		out->rotation[k] = (float)r[k];
	return ANIMRT_OK;
}
