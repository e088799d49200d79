/*
 * shell.c - the rigid-shell error (shell.h): each bone's model transform
 * through the skeleton, source against reduced, and the displacement of the
 * points at the shell distance around it.  For model matrices A and B
 * (row vectors, XNA's convention) and a point p of the bone's local space,
 * |p A - p B| <= |o_A - o_B| + |p| * ||L_A - L_B||, o the origins and L the
 * 3x3 linear parts; with |p| = the shell distance this bounds every point
 * of the shell, and is what is measured.  Pure.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <animc/animc.h>
#include <animc/animc_xform.h>

#include "reduce.h"
#include "shell.h"

#define PI 3.14159265358979323846

double animc_shell_stretch(const double a[16], const double b[16])
{
	double d[3][3], m[3][3];

	for (int r = 0; r < 3; r++)
		for (int c = 0; c < 3; c++)
			d[r][c] = a[r * 4 + c] - (b ? b[r * 4 + c] : 0);
	/* The spectral norm: the square root of the largest eigenvalue of
	 * D^T D (symmetric, positive semi-definite), in closed form. */
	for (int r = 0; r < 3; r++)
		for (int c = 0; c < 3; c++)
			m[r][c] = d[0][r] * d[0][c] + d[1][r] * d[1][c] + d[2][r] * d[2][c];
	double diag = fmax(m[0][0], fmax(m[1][1], m[2][2]));
	double p1 = m[0][1] * m[0][1] + m[0][2] * m[0][2] + m[1][2] * m[1][2];
	if (p1 == 0)
		return sqrt(diag);
	double q = (m[0][0] + m[1][1] + m[2][2]) / 3;
	double p2 = (m[0][0] - q) * (m[0][0] - q) + (m[1][1] - q) * (m[1][1] - q) + (m[2][2] - q) * (m[2][2] - q) +
		    2 * p1;
	double p = sqrt(p2 / 6), bm[3][3];
	for (int r = 0; r < 3; r++)
		for (int c = 0; c < 3; c++)
			bm[r][c] = (m[r][c] - (r == c ? q : 0)) / p;
	double det = bm[0][0] * (bm[1][1] * bm[2][2] - bm[1][2] * bm[2][1]) -
		     bm[0][1] * (bm[1][0] * bm[2][2] - bm[1][2] * bm[2][0]) +
		     bm[0][2] * (bm[1][0] * bm[2][1] - bm[1][1] * bm[2][0]);
	double r = det / 2;
	r = r < -1 ? -1 : r > 1 ? 1 : r;
	double largest = q + 2 * p * cos(acos(r) / 3);
	/* Never below a diagonal element (rounding), never negative. */
	return sqrt(fmax(largest, diag));
}

double animc_shell_most_points(const animc_clip *clip)
{
	double keys = 0;

	for (uint32_t c = 0; c < clip->channel_count; c++)
		keys += clip->channels[c].key_count;
	return fmax((double)SHELL_MOST_POINTS_FLOOR, keys * SHELL_MOST_POINTS_PER_KEY);
}

static int compare_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return (x > y) - (x < y);
}

/* A time list: 60 Hz, each channel's keys and halfway between, and the
 * grid's samples and halfway between. */
static animc_status make_times(shell *s, const animc_clip *clip, double grid_rate_hz)
{
	double d = clip->duration_s > 0 ? clip->duration_s : 0;
	size_t n = (size_t)(d * SHELL_PLAYBACK_HZ) + 2;

	if (grid_rate_hz > 0)
		n += 2 * ((size_t)(d * grid_rate_hz) + 2);
	for (uint32_t i = 0; i < clip->channel_count; i++)
		n += 2 * (size_t)clip->channels[i].key_count;
	s->times = malloc(n * sizeof *s->times);
	if (!s->times)
		return ANIMC_ERR_NOMEM;
	size_t k = 0;
	for (size_t i = 0; (double)i / SHELL_PLAYBACK_HZ < d; i++)
		s->times[k++] = (float)((double)i / SHELL_PLAYBACK_HZ);
	s->times[k++] = (float)d;
	if (grid_rate_hz > 0)
		for (size_t i = 0; (double)i / grid_rate_hz <= d; i++) {
			s->times[k++] = (float)((double)i / grid_rate_hz);
			if ((i + 0.5) / grid_rate_hz <= d)
				s->times[k++] = (float)((i + 0.5) / grid_rate_hz);
		}
	for (uint32_t i = 0; i < clip->channel_count; i++) {
		const animc_channel *ch = &clip->channels[i];

		for (uint32_t j = 0; j < ch->key_count; j++) {
			double t = ch->has_time ? ch->times_s[j] : (double)j * ch->key_interval_s;

			if (!(t >= 0 && t <= d))
				continue;
			s->times[k++] = (float)t;
			if (j + 1 < ch->key_count) {
				double t1 = ch->has_time ? ch->times_s[j + 1] : (double)(j + 1) * ch->key_interval_s;

				if (t1 <= d)
					s->times[k++] = (float)((t + t1) / 2);
			}
		}
	}
	qsort(s->times, k, sizeof *s->times, compare_float);
	size_t u = 0;
	for (size_t i = 0; i < k; i++)
		if (u == 0 || s->times[i] != s->times[u - 1])
			s->times[u++] = s->times[i];
	s->time_count = (uint32_t)u;
	return ANIMC_OK;
}

/* The pose an additive layer's values stand for: added onto the reference
 * as animrt_pose_add adds them (translation and scale - 1 added, the
 * rotation reference * layer).  A layer's bone 10 units from a turning
 * root holds a translation difference of 0; measured on the differences,
 * the root would see no lever arm and drift ten times the bound. */
static void add_reference(const float ref[ANIMC_TRACK_COUNT][4], double t[3], double r[4], double s[3])
{
	const float *q = ref[ANIMC_ROTATION];
	double l[4] = { r[0], r[1], r[2], r[3] };

	for (int c = 0; c < 3; c++) {
		t[c] += ref[ANIMC_TRANSLATION][c];
		s[c] += ref[ANIMC_SCALE][c] - 1.0;
	}
	r[0] = q[3] * l[0] + q[0] * l[3] + q[1] * l[2] - q[2] * l[1];
	r[1] = q[3] * l[1] - q[0] * l[2] + q[1] * l[3] + q[2] * l[0];
	r[2] = q[3] * l[2] + q[0] * l[1] - q[1] * l[0] + q[2] * l[3];
	r[3] = q[3] * l[3] - q[0] * l[0] - q[1] * l[1] - q[2] * l[2];
}

/* Every bone's model matrix at clip time t: animated bones from `fn` (on
 * their reference, for an additive clip), the others at rest. */
static void pose(const shell *s, shell_value_fn fn, const void *ctx, float t, double *world)
{
	const animc_clip *clip = s->clip;

	for (uint32_t b = 0; b < s->bone_count; b++) {
		const animc_bone *bone = &s->skeleton->bones[b];
		double local[16], *m = world + (size_t)b * 16;
		int32_t ch = s->channel_of_bone[b];

		if (ch >= 0) {
			float tv[3], rv[4], sv[3];
			double td[3], rd[4], sd[3];

			fn(ctx, (uint32_t)ch, ANIMC_TRANSLATION, t, tv);
			fn(ctx, (uint32_t)ch, ANIMC_ROTATION, t, rv);
			fn(ctx, (uint32_t)ch, ANIMC_SCALE, t, sv);
			for (int c = 0; c < 3; c++) {
				td[c] = tv[c];
				sd[c] = sv[c];
			}
			for (int c = 0; c < 4; c++)
				rd[c] = rv[c];
			if (clip->is_additive && clip->additive_reference)
				add_reference(clip->additive_reference[ch], td, rd, sd);
			animc_mat4_compose(td, rd, sd, local);
		} else {
			for (int c = 0; c < 16; c++)
				local[c] = bone->local[c];
		}
		if (bone->parent >= 0 && (uint32_t)bone->parent < b)
			animc_mat4_multiply(local, world + (size_t)bone->parent * 16, m);
		else
			memcpy(m, local, sizeof local);
	}
}

static double distance3(const double *a, const double *b)
{
	double x = a[0] - b[0], y = a[1] - b[1], z = a[2] - b[2];

	return sqrt(x * x + y * y + z * z);
}

static int32_t parent_of(const shell *s, uint32_t b)
{
	int32_t p = s->skeleton->bones[b].parent;

	return p >= 0 && (uint32_t)p < b ? p : -1;
}

animc_status animc_shell_init(shell *s, const animc_clip *clip, const animc_reduce_options *options,
			shell_value_fn source, const void *source_ctx, double grid_rate_hz)
{
	const animc_skeleton *skel = options->skeleton;
	uint32_t nb = skel->bone_count;

	memset(s, 0, sizeof *s);
	s->clip = clip;
	s->skeleton = skel;
	s->distance = options->shell_distance;
	s->bound = options->tolerance.translation * (1.0 - REDUCE_MARGIN);
	s->bone_count = nb;
	s->channel_of_bone = malloc((nb ? nb : 1) * sizeof *s->channel_of_bone);
	s->bone_of_channel = malloc((clip->channel_count ? clip->channel_count : 1) * sizeof *s->bone_of_channel);
	s->reach = calloc(nb ? nb : 1, sizeof *s->reach);
	s->parent_scale = malloc((nb ? nb : 1) * sizeof *s->parent_scale);
	s->error = calloc(nb ? nb : 1, sizeof *s->error);
	s->work = malloc((nb ? nb : 1) * 2 * 16 * sizeof *s->work);
	if (!s->channel_of_bone || !s->bone_of_channel || !s->reach || !s->parent_scale || !s->error ||
	    !s->work || make_times(s, clip, grid_rate_hz) != ANIMC_OK) {
		animc_shell_release(s);
		return ANIMC_ERR_NOMEM;
	}
	for (uint32_t b = 0; b < nb; b++) {
		s->channel_of_bone[b] = -1;
		s->parent_scale[b] = 1;
	}
	for (uint32_t i = 0; i < clip->channel_count; i++) {
		int64_t b = animc_skeleton_find(skel, clip->channels[i].bone);

		s->bone_of_channel[i] = (int32_t)b;
		if (b >= 0 && s->channel_of_bone[b] < 0)
			s->channel_of_bone[b] = (int32_t)i;
	}

	/* Reach and stretch over the source's motion. */
	for (uint32_t i = 0; i < s->time_count; i++) {
		double *world = s->work;

		pose(s, source, source_ctx, s->times[i], world);
		for (uint32_t d = 0; d < nb; d++) {
			const double *md = world + (size_t)d * 16;
			double shell_reach = s->distance * animc_shell_stretch(md, NULL);
			int32_t p = parent_of(s, d);

			if (p >= 0)
				s->parent_scale[d] = fmax(s->parent_scale[d], animc_shell_stretch(world + (size_t)p * 16, NULL));
			for (int32_t k = (int32_t)d; k >= 0; k = parent_of(s, (uint32_t)k)) {
				double r = distance3(md + 12, world + (size_t)k * 16 + 12) + shell_reach;

				if (r > s->reach[k])
					s->reach[k] = r;
			}
		}
	}
	return ANIMC_OK;
}

void animc_shell_release(shell *s)
{
	free(s->channel_of_bone);
	free(s->bone_of_channel);
	free(s->reach);
	free(s->parent_scale);
	free(s->error);
	free(s->times);
	free(s->work);
	memset(s, 0, sizeof *s);
}

void animc_shell_local_tolerance(const shell *s, uint32_t channel, const animc_tolerance *options, animc_tolerance *out)
{
	int32_t b = s->bone_of_channel[channel];
	double t = s->bound / (1.0 - REDUCE_MARGIN);

	if (b < 0 || s->channel_of_bone[b] != (int32_t)channel) {
		*out = *options;
		out->translation = (float)t;
		return;
	}
	double reach = s->reach[b] > 0 ? s->reach[b] : s->distance;
	out->translation = (float)(t / (s->parent_scale[b] > 0 ? s->parent_scale[b] : 1));
	out->rotation_deg = (float)(t / reach * (180.0 / PI));
	out->scale = (float)(t / reach);
}

double animc_shell_measure(shell *s, shell_value_fn source, const void *source_ctx, shell_value_fn reduced,
		     const void *reduced_ctx)
{
	double worst = 0;
	double *a = s->work, *b = s->work + (size_t)s->bone_count * 16;

	memset(s->error, 0, (s->bone_count ? s->bone_count : 1) * sizeof *s->error);
	for (uint32_t i = 0; i < s->time_count; i++) {
		pose(s, source, source_ctx, s->times[i], a);
		pose(s, reduced, reduced_ctx, s->times[i], b);
		for (uint32_t d = 0; d < s->bone_count; d++) {
			const double *ma = a + (size_t)d * 16, *mb = b + (size_t)d * 16;
			double e = distance3(ma + 12, mb + 12) + s->distance * animc_shell_stretch(ma, mb);

			if (e > s->error[d])
				s->error[d] = e;
			if (e > worst)
				worst = e;
		}
	}
	return worst;
}

uint32_t animc_shell_tighten(const shell *s, animc_tolerance *per_channel, const uint8_t *held, uint8_t *dirty)
{
	uint32_t changed = 0;

	for (uint32_t d = 0; d < s->bone_count; d++) {
		if (!(s->error[d] > s->bound))
			continue;
		for (int32_t k = (int32_t)d; k >= 0; k = parent_of(s, (uint32_t)k)) {
			int32_t ch = s->channel_of_bone[k];

			if (ch < 0 || dirty[ch] || (held && held[ch]))
				continue;
			per_channel[ch].translation *= 0.5f;
			per_channel[ch].rotation_deg *= 0.5f;
			per_channel[ch].scale *= 0.5f;
			dirty[ch] = 1;
			changed++;
		}
	}
	return changed;
}

void animc_shell_report(const shell *s, const animc_clip *clip, double worst, int rounds, animc_diag_sink *sink)
{
	double t = s->bound / (1.0 - REDUCE_MARGIN);
	uint32_t at = 0;

	if (!(worst > t))
		return;
	for (uint32_t b = 1; b < s->bone_count; b++)
		if (s->error[b] > s->error[at])
			at = b;
	animc_clip_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_TOLERANCE_NOT_MET, clip, NULL,
			  "model-space shell error %g passes the bound %g after %d rounds of "
			  "tightening (worst at bone '%s'): raise the translation tolerance or "
			  "lower --shell-distance", worst, t, rounds, s->skeleton->bones[at].name);
}
