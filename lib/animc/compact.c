/*
 * compact.c - the compact layout's encoder (animc_pass_compact): one grid
 * for the clip, and per track the cheapest of identity, constant, or
 * quantised keys (one bit rate and range for the track, or one per segment)
 * that stays within the bound, measured with the runtime's dequantisation
 * and interpolation (lib/common/compact_layout.h, interp.h).  Pure; the
 * encoding lives in the clip's arena.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <animc/animc.h>

#include "clip_internal.h"
#include "compact_layout.h"
#include "interp.h"
#include "reduce.h"
#include "shell.h"

_Static_assert((int)ANIMC_COMPACT_ABSENT == COMPACT_ABSENT && (int)ANIMC_COMPACT_IDENTITY == COMPACT_IDENTITY &&
		       (int)ANIMC_COMPACT_CONSTANT == COMPACT_CONSTANT &&
		       (int)ANIMC_COMPACT_ANIMATED == COMPACT_ANIMATED,
	       "the public kinds are the layout's");
_Static_assert(ANIMC_TRACK_COUNT == COMPACT_TRACKS, "three tracks per bone");

/* How far from a grid sample a key time may sit and count as on it, in grid
 * steps (the float rounding of key times). */
#define GRID_SLACK 1e-3
/* How far past a grid sample the duration may end and still end there, in
 * grid steps: key intervals written with six digits make 150 steps of 1/30 s
 * end 5e-5 s short of 5 s. */
#define END_SLACK 1e-2
/* Subdivisions of the finest key spacing tried for a grid every key lies on. */
#define GRID_MAX_DIVISOR 16
/* Bit rates tried above the smallest that holds the quantisation alone.
 * Each costs a search of the keys, and a bit more per component costs 3
 * bits per key: on the corpora and on dense 120 Hz motion capture no track
 * or segment was cheapest more than one bit above (up to six gave the same
 * bytes, in twice the time). */
#define EXTRA_BITS 1
/* Halvings of the grid step tried when a track cannot stay within its bound
 * on the keys' grid. */
#define COMPACT_MAX_FINER 4
/* Doublings of a shell's local bounds tried when the grid cannot hold them. */
#define SHELL_MAX_LOOSEN 24

/* ------------------------------------------------------------------ grid */

typedef struct grid {
	double step_s;       /* 1 / rate_hz, as the runtime's rate gives it */
	float rate_hz;
	uint32_t sample_count;
	uint32_t segment_count;
	bool is_exact;       /* every source key lies on it */
} grid;

/* Is every key time of the clip a multiple of h?  A bone's last key may
 * end the clip between two samples (the end of a part --split cuts, of a
 * take cut to its range): it is checked where it lies, and the grid
 * reaches past it. */
static bool keys_on_grid(const animc_clip *clip, double h)
{
	for (uint32_t c = 0; c < clip->channel_count; c++) {
		const animc_channel *ch = &clip->channels[c];

		if (ch->key_count < 2)
			continue;
		for (uint32_t i = 0; i + (ch->has_time ? 1 : 0) < ch->key_count; i++) {
			double g = (ch->has_time ? ch->times_s[i] : (double)i * ch->key_interval_s) / h;

			if (fabs(g - floor(g + 0.5)) > GRID_SLACK)
				return false;
		}
	}
	return true;
}

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * The keys' spacing: the smallest gap between two keys of a bone (or
 * interval of evenly spaced keys), leaving out a bone's first and last gap
 * when it has more (a part --split cuts between keys starts and ends
 * there) unless no other gap is left, gaps of a float step (keys at one
 * time, which the playable pass moves apart) and gaps under
 * 1/GRID_MAX_DIVISOR of the median one (a part that ends a hair past a key
 * would otherwise hold its clip in millions of samples).  0 when no bone
 * has two keys more than a float step apart.  False when out of memory.
 */
static bool key_spacing(const animc_clip *clip, double *out)
{
	size_t count = 0, capacity = 0;
	double *gaps;

	*out = 0;
	for (uint32_t c = 0; c < clip->channel_count; c++)
		if (clip->channels[c].key_count > 1)
			capacity += clip->channels[c].has_time ? clip->channels[c].key_count - 1 : 1;
	if (!capacity)
		return true;
	gaps = malloc(capacity * sizeof *gaps);
	if (!gaps)
		return false;
	/* The first and last gaps of a part --split cuts between keys run to
	 * its boundaries: any length, none the keys' spacing.  Where no other
	 * gap is left (a step: keys at 0, 0.5, 0.5 and 1, the middle two a
	 * float step apart), they are the spacing: a clip whose keys move
	 * takes a grid of more than one sample, on which its jumps are found
	 * (find_jump). */
	for (int all = 0; all < 2 && count == 0; all++)
		for (uint32_t c = 0; c < clip->channel_count; c++) {
			const animc_channel *ch = &clip->channels[c];

			if (ch->key_count < 2)
				continue;
			if (!ch->has_time) {
				if (ch->key_interval_s > 0)
					gaps[count++] = ch->key_interval_s;
				continue;
			}
			uint32_t inner = ch->key_count >= 4 && !all ? 1 : 0;

			for (uint32_t i = 1 + inner; i + inner < ch->key_count; i++) {
				double gap = (double)ch->times_s[i] - ch->times_s[i - 1];

				if (gap > 1e-7 * fmax(1.0, ch->times_s[i]))
					gaps[count++] = gap;
			}
		}
	if (count) {
		size_t at = 0;

		qsort(gaps, count, sizeof *gaps, compare_double);
		while (gaps[at] < gaps[count / 2] / GRID_MAX_DIVISOR)
			at++;
		*out = gaps[at];
	}
	free(gaps);
	return true;
}

/* The step that fits a bone's key times best, from the spacing h: float
 * key times drift from multiples of their smallest gap (a 120 Hz take's
 * keys lie 0.0083333 s apart on average, two of them 0.0083332), so over a
 * long run of keys the mean step is the one they lie on.  Two rounds: the
 * first's fit numbers the far keys right for the second. */
static double fitted_step(const animc_clip *clip, double h)
{
	for (int round = 0; round < 2; round++) {
		double kt = 0, kk = 0;

		for (uint32_t c = 0; c < clip->channel_count; c++) {
			const animc_channel *ch = &clip->channels[c];

			for (uint32_t i = 0; ch->has_time && i + 1 < ch->key_count; i++) {
				double k = floor(ch->times_s[i] / h + 0.5);

				kt += k * ch->times_s[i];
				kk += k * k;
			}
		}
		if (kk > 0)
			h = kt / kk;
	}
	return h;
}

/* The step of the keys inside a part --split cuts between keys: a bone's
 * keys after its first (the cut) and before its last lie at k h + phase,
 * which a line through the origin, as fitted_step draws, takes for a
 * shorter step.  Fitted with each bone's phase, from the spacing h; 0 when
 * no bone has four keys. */
static double cut_step(const animc_clip *clip, double h)
{
	double kt = 0, kk = 0;

	for (uint32_t c = 0; c < clip->channel_count; c++) {
		const animc_channel *ch = &clip->channels[c];
		double n = 0, sk = 0, st = 0, skk = 0, skt = 0;

		for (uint32_t i = 1; ch->has_time && ch->key_count >= 4 && i + 1 < ch->key_count; i++) {
			double t = ch->times_s[i], k = floor((t - ch->times_s[1]) / h + 0.5);

			n++;
			sk += k;
			st += t;
			skk += k * k;
			skt += k * t;
		}
		if (n > 1) {
			kt += skt - sk * st / n;
			kk += skk - sk * sk / n;
		}
	}
	return kk > 0 ? kt / kk : 0;
}

/* The grid position of the clip's last key, on a grid of `step` seconds
 * (0 when no bone has two keys). */
static double last_key_position(const animc_clip *clip, double step)
{
	double last = 0;

	for (uint32_t c = 0; c < clip->channel_count; c++) {
		const animc_channel *ch = &clip->channels[c];
		uint32_t k = ch->key_count - 1;

		if (ch->key_count > 1)
			last = fmax(last, (ch->has_time ? ch->times_s[k] : (double)k * ch->key_interval_s) / step);
	}
	return last;
}

/* The grid: the keys' spacing, or the largest part of it (down to
 * 1/GRID_MAX_DIVISOR) that every key time is a multiple of, the spacing
 * first as the smallest gap, then as the step fitted to the keys, then as
 * the inner keys' step fitted with their phase (cut_step).  When none is
 * (a part cut between two keys, keys a pass added between the source's),
 * the fitted step, the keys off it checked where they are; a track it
 * cannot hold takes a finer grid, and animc_clip_process weighs that
 * against the original layout.  (The inner keys' step there instead gave
 * smaller files on some parts, bigger on others.) */
static animc_status find_grid(const animc_clip *clip, unsigned finer, grid *out, animc_diag_sink *sink)
{
	double h0, d = clip->duration_s;

	if (!key_spacing(clip, &h0))
		return ANIMC_ERR_NOMEM;
	memset(out, 0, sizeof *out);
	out->rate_hz = 1;
	out->step_s = 1;
	out->sample_count = 1;
	out->segment_count = 1;
	out->is_exact = true;
	if (h0 == 0 || d == 0)
		return ANIMC_OK;   /* nothing moves: one sample */
	const double spacing[3] = { h0, fitted_step(clip, h0), cut_step(clip, h0) };
	double h = spacing[1];

	out->is_exact = false;
	for (int pass = 0; pass < 3 && !out->is_exact; pass++) {
		if (spacing[pass] <= 0 || (pass > 0 && spacing[pass] == spacing[pass - 1]))
			continue;
		for (int m = 1; m <= GRID_MAX_DIVISOR && !out->is_exact; m++)
			if (keys_on_grid(clip, spacing[pass] / m)) {
				h = spacing[pass] / m;
				out->is_exact = true;
			}
	}
	/* A grid 2^finer times finer, when the first cannot hold a track
	 * (keys off it, or between keys the source moves too much). */
	h /= (double)(1u << finer);
	out->rate_hz = (float)(1.0 / h);
	out->step_s = 1.0 / out->rate_hz;
	/* The grid covers the duration, and reaches past a last key that
	 * lies between two samples (the end of a part cut between two keys):
	 * the sample after it continues the source's last span.  Keys past
	 * the duration, which the runtime never samples, reach no further
	 * than the duration does (the layout holds no more). */
	double span = d / out->step_s, last = fmin(last_key_position(clip, out->step_s), span);
	double samples = fabs(span - floor(span + 0.5)) <= END_SLACK ? floor(span + 0.5) + 1 : ceil(span) + 1;
	if (ceil(last - GRID_SLACK) + 1 > samples)
		samples = ceil(last - GRID_SLACK) + 1;
	if (samples > COMPACT_MAX_SAMPLES) {
		animc_diag_report(sink, ANIMC_ERROR, clip->line, 0,
				  "clip '%s': %.0f grid samples (%g s at %g Hz) pass the compact layout's %u",
				  clip->name, samples, d, (double)out->rate_hz, COMPACT_MAX_SAMPLES);
		return ANIMC_ERR_UNSUPPORTED;
	}
	if (samples > animc_shell_most_points(clip)) {
		animc_clip_report(sink, ANIMC_ERROR, clip, NULL,
				  "%.0f grid samples (%g s at %g Hz) pass the compact encoder's limit of %.0f "
				  "points for its keys", samples, d, (double)out->rate_hz, animc_shell_most_points(clip));
		return ANIMC_ERR_UNSUPPORTED;
	}
	out->sample_count = (uint32_t)samples;
	out->segment_count = (out->sample_count + COMPACT_SEGMENT_SAMPLES - 1) >> COMPACT_SEGMENT_SHIFT;
	return ANIMC_OK;
}

/* ------------------------------------------------------------- jumps */

/* A jump no grid holds: between two keys `apart_s` seconds apart, ending
 * at `at_s`, the value moves by `by` (the bound's unit). */
typedef struct jump {
	uint32_t channel;
	animc_track_kind kind;
	float at_s, apart_s;
	double by;
} jump;

/* The farthest a track's values lie apart (the bound's measure): the
 * diagonal of their box, its longest side for scale, a half turn for a
 * rotation. */
static double widest_swing(const animc_track *tr, animc_track_kind kind)
{
	unsigned w = animc_track_width[kind];
	double span[3] = { 0, 0, 0 };

	if (kind == ANIMC_ROTATION)
		return 180.0;
	for (unsigned c = 0; c < w; c++) {
		float lo = tr->values[c], hi = lo;

		for (uint32_t i = 1; i < tr->value_count; i++) {
			lo = fminf(lo, tr->values[(size_t)i * w + c]);
			hi = fmaxf(hi, tr->values[(size_t)i * w + c]);
		}
		span[c] = (double)hi - lo;
	}
	return kind == ANIMC_SCALE ? fmax(span[0], fmax(span[1], span[2]))
				   : sqrt(span[0] * span[0] + span[1] * span[1] + span[2] * span[2]);
}

/*
 * The first jump of the clip that no grid of step h or coarser holds.  On
 * a grid, between two samples the runtime's value moves at most as far as
 * two samples lie apart, each within the bound of the source: so over dt
 * it moves at most (D + 2 bound) dt / h, D the track's widest swing, and
 * two keys dt apart whose values differ by more than that and twice the
 * bound cannot both hold.  glTF STEP keys (and keys at one time, which the
 * playable pass moves a float step apart) are such jumps; a margin of 2
 * leaves the rest to the encoder.
 */
static bool find_jump(const animc_clip *clip, const animc_tolerance *tol, double h, jump *out)
{
	const double bounds[ANIMC_TRACK_COUNT] = { tol->translation, tol->rotation_deg, tol->scale };

	for (uint32_t i = 0; i < clip->channel_count; i++) {
		const animc_channel *ch = &clip->channels[i];

		for (unsigned k = 0; k < ANIMC_TRACK_COUNT && ch->key_count > 1; k++) {
			const animc_track *tr = &ch->tracks[k];
			unsigned w = animc_track_width[k];
			double b = bounds[k];

			if (!tr->is_present || tr->is_fixed || tr->value_count != ch->key_count)
				continue;
			double most = widest_swing(tr, (animc_track_kind)k) + 2 * b;
			for (uint32_t j = 0; j + 1 < ch->key_count; j++) {
				double t0 = ch->has_time ? ch->times_s[j] : (double)j * ch->key_interval_s;
				double t1 = ch->has_time ? ch->times_s[j + 1] : (double)(j + 1) * ch->key_interval_s;
				double by = animc_track_error((animc_track_kind)k, tr->values + (size_t)j * w,
							      tr->values + (size_t)(j + 1) * w);

				if (t1 > t0 && by - 2 * b > 2 * most * (t1 - t0) / h) {
					*out = (jump){ i, (animc_track_kind)k, (float)t1, (float)(t1 - t0), by };
					return true;
				}
			}
		}
	}
	return false;
}

/* ------------------------------------------------------------ quantiser */

/* The three components a track stores of value v: x y z, or for a rotation
 * the three other than `dropped`, of the sign that makes `dropped` >= 0. */
static void stored_components(animc_track_kind kind, unsigned dropped, const float *v, float out[3])
{
	unsigned k = 0;

	if (kind != ANIMC_ROTATION) {
		memcpy(out, v, 3 * sizeof *out);
		return;
	}
	float sign = v[dropped] < 0 ? -1.0f : 1.0f;
	for (unsigned c = 0; c < 4; c++)
		if (c != dropped)
			out[k++] = sign * v[c];
}

/* The component a rotation leaves out over samples [from, to]: the one
 * whose smallest magnitude is largest, so rebuilding it is well
 * conditioned. */
static unsigned choose_dropped(const float *values, uint32_t from, uint32_t to)
{
	unsigned best = 3;
	float best_low = -1;

	for (unsigned c = 0; c < 4; c++) {
		float low = INFINITY;

		for (uint32_t i = from; i <= to; i++)
			low = fminf(low, fabsf(values[(size_t)i * 4 + c]));
		if (low > best_low + 1e-6f) {
			best_low = low;
			best = c;
		}
	}
	return best;
}

typedef struct quantiser {
	animc_track_kind kind;
	unsigned bits;        /* 1..COMPACT_MAX_BITS, or COMPACT_RAW_BITS */
	unsigned cbits[3];    /* each component's (compact_component_bits) */
	unsigned key_bits;
	unsigned dropped;     /* rotations: the component left out */
	float min[3], step[3];
} quantiser;

/* z at `bits` in a range of min[3], extent[3] (as the runtime decodes
 * them): each component's bits, and its step. */
static void quantiser_set(quantiser *z, unsigned bits, const float *min, const float *extent)
{
	z->bits = bits;
	z->key_bits = compact_component_bits(bits, extent, z->cbits);
	for (int k = 0; k < 3 && bits != COMPACT_RAW_BITS; k++) {
		z->min[k] = min[k];
		z->step[k] = compact_step(extent[k], z->cbits[k]);
	}
}

/* The value the runtime decodes from codes q. */
static void decode(const quantiser *z, const uint32_t q[3], float *out)
{
	float kept[3];

	for (int c = 0; c < 3; c++) {
		if (z->bits == COMPACT_RAW_BITS)
			memcpy(&kept[c], &q[c], 4);
		else
			kept[c] = compact_dequantize(z->min[c], z->step[c], q[c]);
	}
	if (z->kind == ANIMC_ROTATION)
		compact_rotation_rebuild(kept, z->dropped, out);
	else
		memcpy(out, kept, sizeof kept);
}

/* A number that orders rotations b by their angle from a, as
 * animc_track_error does, without its arc tangent: tan^2 of half the angle. */
static double angle_order(const float *a, const float *b)
{
	double d[4];

	reduce_conj_product(a, b, d);
	double v = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];

	return d[3] != 0 ? v / (d[3] * d[3]) : v > 0 ? INFINITY : 0;
}

/* v as stored: codes q[3] and the value the runtime will decode; false when
 * no code keeps a rotation within unit length. */
static bool quantise(const quantiser *z, const float *v, uint32_t q[3], float *out)
{
	float s[3];

	stored_components(z->kind, z->dropped, v, s);
	if (z->bits == COMPACT_RAW_BITS) {
		memcpy(q, s, sizeof s);
		decode(z, q, out);
		return z->kind != ANIMC_ROTATION || s[0] * s[0] + s[1] * s[1] + s[2] * s[2] <= 1.0f + COMPACT_ROTATION_SLACK;
	}
	uint32_t lo[3], hi[3];
	for (int c = 0; c < 3; c++) {
		uint32_t top = (1u << z->cbits[c]) - 1;
		double r = z->step[c] > 0 ? ((double)s[c] - z->min[c]) / z->step[c] : 0;

		r = r < 0 ? 0 : r > top ? top : r;
		lo[c] = (uint32_t)r;
		hi[c] = lo[c] < top && r > lo[c] ? lo[c] + 1 : lo[c];
		q[c] = (r - lo[c]) > (hi[c] - r) ? hi[c] : lo[c];
	}
	if (z->kind != ANIMC_ROTATION) {
		decode(z, q, out);
		return true;
	}
	/* A rotation: of the 8 codes around it, the one nearest in angle whose
	 * stored components stay within unit length. */
	double best = -1;
	for (int corner = 0; corner < 8; corner++) {
		uint32_t cq[3];
		float d[4], k[3];

		for (int c = 0; c < 3; c++) {
			cq[c] = (corner >> c) & 1 ? hi[c] : lo[c];
			k[c] = compact_dequantize(z->min[c], z->step[c], cq[c]);
		}
		if (k[0] * k[0] + k[1] * k[1] + k[2] * k[2] > 1.0f + COMPACT_ROTATION_SLACK)
			continue;
		compact_rotation_rebuild(k, z->dropped, d);
		double e = angle_order(d, v);
		if (best < 0 || e < best) {
			best = e;
			memcpy(q, cq, sizeof cq);
			memcpy(out, d, sizeof d);
		}
	}
	return best >= 0;
}

/* A track's clip range as stored. */
typedef struct clip_range {
	unsigned kind;            /* COMPACT_RANGE_* */
	float min[3], extent[3];
	uint8_t codes[6];         /* COMPACT_RANGE_U8 */
} clip_range;

/* The range [lo, hi] per component as `kind` stores it, covering it in
 * float; false when the kind cannot hold it. */
static bool make_clip_range(unsigned kind, const float lo[3], const float hi[3], clip_range *r)
{
	memset(r, 0, sizeof *r);
	r->kind = kind;
	for (int c = 0; c < 3; c++) {
		if (kind == COMPACT_RANGE_NONE) {
			r->min[c] = -1.0f;
			r->extent[c] = 2.0f;
		} else if (kind == COMPACT_RANGE_U8) {
			int m = (int)floorf((lo[c] + 1.0f) * 128.0f), x;

			m = m < 0 ? 0 : m > 255 ? 255 : m;
			x = (int)ceilf((hi[c] + 1.0f) * 128.0f) - m - 1;
			x = x < 0 ? 0 : x;
			for (;;) {
				if (m + x > 255)
					return false;
				compact_unit_range((uint32_t)m, (uint32_t)x, &r->min[c], &r->extent[c]);
				if (r->min[c] <= lo[c] && r->min[c] + r->extent[c] >= hi[c])
					break;
				if (r->min[c] > lo[c] && m > 0)
					m--;
				else
					x++;
			}
			r->codes[c] = (uint8_t)m;
			r->codes[3 + c] = (uint8_t)x;
		} else if (kind == COMPACT_RANGE_F16) {
			uint16_t m16, e16;

			if (!compact_f32_to_f16(lo[c], COMPACT_ROUND_DOWN, &m16))
				return false;
			r->min[c] = compact_f16_to_f32(m16);
			if (!compact_f32_to_f16(hi[c] - r->min[c], COMPACT_ROUND_UP, &e16))
				return false;
			r->extent[c] = compact_f16_to_f32(e16);
			for (int guard = 0; r->min[c] + r->extent[c] < hi[c]; guard++) {
				if (guard > 4 || !compact_f32_to_f16(nextafterf(r->extent[c], INFINITY),
								      COMPACT_ROUND_UP, &e16))
					return false;
				r->extent[c] = compact_f16_to_f32(e16);
			}
		} else {
			r->min[c] = lo[c];
			r->extent[c] = hi[c] - lo[c];
			while (r->min[c] + r->extent[c] < hi[c])
				r->extent[c] = nextafterf(r->extent[c], INFINITY);
		}
		if (!isfinite(r->extent[c]) || !isfinite(r->min[c] + 2 * r->extent[c]))
			return false;
	}
	return true;
}

/* The part of the clip range covering [lo, hi]: codes m[3], x[3] and the
 * range as the runtime computes it. */
static void make_segment_range(const clip_range *r, const float lo[3], const float hi[3], uint8_t m[3],
			       uint8_t x[3], float min[3], float extent[3])
{
	for (int c = 0; c < 3; c++) {
		int mc = 0, xc = 255;

		if (r->extent[c] > 0) {
			mc = (int)floorf((lo[c] - r->min[c]) / r->extent[c] * 256.0f);
			mc = mc < 0 ? 0 : mc > 255 ? 255 : mc;
			xc = (int)ceilf((hi[c] - r->min[c]) / r->extent[c] * 256.0f) - mc - 1;
			xc = xc < 0 ? 0 : xc > 255 - mc ? 255 - mc : xc;
		}
		for (;;) {
			compact_subrange(r->min[c], r->extent[c], (uint32_t)mc, (uint32_t)xc, &min[c], &extent[c]);
			if ((min[c] <= lo[c] || mc == 0) && (min[c] + extent[c] >= hi[c] || mc + xc >= 255))
				break;
			if (min[c] > lo[c] && mc > 0)
				mc--;
			else
				xc++;
		}
		m[c] = (uint8_t)mc;
		x[c] = (uint8_t)xc;
	}
}

/* ------------------------------------------------------------ one track */

typedef struct extra_point {
	double pos;   /* grid position, as the runtime computes it */
	float t;      /* the time */
} extra_point;

typedef struct encoder {
	const animc_clip *clip;
	const animc_tolerance *tolerance;
	grid g;
	/* A finer grid remains to try: a track this one cannot hold fails
	 * quietly (is_grid_short) instead of with an error. */
	bool has_finer;
	bool is_grid_short;
	/* The grid is finer than the keys' spacing: the keys' searches
	 * gallop (greedy_codes). */
	bool gallops;
	uint8_t *forced;        /* sample_count: segment starts and the last sample */
	uint32_t *kept;
	uint32_t *least;        /* sample_count: least_keys of a track */
	float *value, *stored, *pos, *comps, *seg_stored;
	/* Check points between grid samples (and source keys off the grid). */
	double *check_pos;
	float *check_value, *check_t;
	float *sample_t;        /* sample_count: the source time each grid sample holds */
	size_t check_capacity;
	/* The times the bound is defined at, off the grid. */
	extra_point *extra;
	uint32_t extra_capacity;
	uint32_t *q;            /* sample_count * 3 */
	/* the choice so far, and the one being tried */
	uint8_t *is_key, *best_is_key;
	uint32_t *try_q, *best_q;
	uint8_t *seg_codes, *best_seg_codes;
	animc_clip_error error;
} encoder;

/* Room for n check points in e. */
static bool reserve_checks(encoder *e, size_t n)
{
	if (n <= e->check_capacity)
		return true;
	double *pos = realloc(e->check_pos, n * sizeof *pos);
	if (pos)
		e->check_pos = pos;
	float *value = realloc(e->check_value, n * 4 * sizeof *value);
	if (value)
		e->check_value = value;
	float *t = realloc(e->check_t, n * sizeof *t);
	if (t)
		e->check_t = t;
	if (!pos || !value || !t)
		return false;
	e->check_capacity = n;
	return true;
}

/* The source's local time at grid position p (the grid may pass the end). */
static float time_at(const encoder *e, const animc_channel *ch, double p)
{
	float t = (float)(p * e->g.step_s);

	return t < ch->duration_s ? t : ch->duration_s;
}

static int compare_extra(const void *a, const void *b)
{
	const extra_point *x = a, *y = b;

	return x->pos < y->pos ? -1 : x->pos > y->pos ? 1 : 0;
}

/* The times the bound is defined at off the grid: every key of the channel
 * and every 1/60 s (FORMAT.md section 8), each at the grid position the
 * runtime computes for it (t * r in double precision), sorted.  On a grid
 * whose float rate is not exactly the keys' (120 Hz keys written as
 * 0.0083333 s make 240.001 Hz), keys sit a little off their samples, and
 * a fast track moves between the two: both the key's time and the time of
 * the sample that holds it are measured. */
static uint32_t extra_points(const encoder *e, const animc_channel *ch, extra_point *out)
{
	uint32_t count = 0;
	double last = (double)(e->g.sample_count - 1);

#define EXTRA_AT(time)                                                           \
	do {                                                                     \
		float t_ = (time);                                               \
		double p_ = (double)t_ * e->g.rate_hz;                           \
                                                                                 \
		p_ = p_ < last ? p_ : last;                                      \
		if (t_ <= ch->duration_s && p_ != floor(p_)) {                   \
			out[count].pos = p_;                                     \
			out[count].t = t_;                                       \
			count++;                                                 \
		}                                                                \
	} while (0)
	if (ch->key_count > 1)
		for (uint32_t k = 0; k < ch->key_count; k++) {
			float t = ch->has_time ? ch->times_s[k] : (float)((double)k * ch->key_interval_s);
			double p = (double)t * e->g.rate_hz, i = floor(p + 0.5);

			EXTRA_AT(t);
			/* The sample that holds a key off its time
			 * (sample_source) plays the key's value at its own
			 * time, where the source has not reached the key yet
			 * or has passed it: across a fast turn, by more than
			 * the bound leaves. */
			if (p != i && fabs(p - i) <= GRID_SLACK && i < last + 1 && t <= ch->duration_s) {
				float ti = time_at(e, ch, i);
				double pi = fmin((double)ti * e->g.rate_hz, last);

				out[count].pos = pi;
				out[count].t = ti;
				count++;
			}
		}
	for (uint32_t i = 0; (float)(i / 60.0) <= ch->duration_s && count < e->extra_capacity - 1; i++)
		EXTRA_AT((float)(i / 60.0));
	EXTRA_AT(ch->duration_s);
#undef EXTRA_AT
	qsort(out, count, sizeof *out, compare_extra);
	return count;
}

/* The last sample, when the channel's last key lies between it and the
 * sample before (find_grid): the span from that sample to the key,
 * continued, so that the runtime, which samples no further than the
 * duration, meets the key where it lies.  Keys that run past the duration
 * end the grid where it does: the span continued is the one through the
 * source's value at the duration. */
static void continue_last_span(encoder *e, const animc_channel *ch, animc_track_kind kind)
{
	uint32_t n = e->g.sample_count, k = ch->key_count - 1;
	unsigned width = animc_track_width[kind];

	if (n < 2 || ch->key_count < 2)
		return;
	double key = fmin(ch->has_time ? ch->times_s[k] : (double)k * ch->key_interval_s, ch->duration_s);
	double before = e->sample_t[n - 2], after = (double)(n - 1) * e->g.step_s;
	float *a = e->value + (size_t)(n - 2) * width, *out = e->value + (size_t)(n - 1) * width, b[4];

	if (!(key - before > GRID_SLACK * e->g.step_s && after - key > GRID_SLACK * e->g.step_s))
		return;
	animc_reduce_channel_value(ch, kind, (float)key, b);
	float u = (float)((after - before) / (key - before));
	if (kind == ANIMC_ROTATION)
		interp_slerp(out, a, b, u);
	else
		interp_lerp3(out, a, b, u);
}

/* The source of one track at the grid samples and at the check points
 * between them: animc_reduce_check_positions', and the times the bound is
 * defined at (extra_points). */
static animc_status sample_source(encoder *e, const animc_channel *ch, animc_track_kind kind, reduce_curve *c)
{
	unsigned width = animc_track_width[kind];
	uint32_t n = e->g.sample_count;

	for (uint32_t i = 0; i < n; i++) {
		e->pos[i] = (float)i;
		e->sample_t[i] = time_at(e, ch, i);
	}
	/* A sample a key counts as on holds that key: the float rate puts
	 * sample i a little off the key's time (up to GRID_SLACK steps), and
	 * across a fast turn the source moves much in that little. */
	for (uint32_t k = 0; ch->key_count > 1 && k < ch->key_count; k++) {
		float t = ch->has_time ? ch->times_s[k] : (float)((double)k * ch->key_interval_s);
		double p = (double)t * e->g.rate_hz, i = floor(p + 0.5);

		if (t <= ch->duration_s && fabs(p - i) <= GRID_SLACK && i < n)
			e->sample_t[(uint32_t)i] = t;
	}
	for (uint32_t i = 0; i < n; i++)
		animc_reduce_channel_value(ch, kind, e->sample_t[i], e->value + (size_t)i * width);
	continue_last_span(e, ch, kind);
	/* Rotations at unit length: the source may be off by its validation
	 * tolerance, which the angle ignores and drop-one storage does not. */
	if (kind == ANIMC_ROTATION)
		for (uint32_t i = 0; i < n; i++) {
			float *q = e->value + (size_t)i * 4;
			double len = sqrt((double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] +
					  (double)q[3] * q[3]);

			for (int k = 0; k < 4; k++)
				q[k] = (float)(q[k] / (len > 0 ? len : 1));
		}
	memset(c, 0, sizeof *c);
	c->kind = kind;
	c->width = width;
	c->bound = animc_reduce_bound(e->tolerance, kind);
	c->n = n;
	c->pos = e->pos;
	c->value = e->value;
	uint32_t off = n > 1 ? extra_points(e, ch, e->extra) : 0;
	uint32_t between = animc_reduce_check_count(c);
	if (!reserve_checks(e, (size_t)between + off + 1))
		return ANIMC_ERR_NOMEM;
	/* Two sorted lists, merged in place: the grid's after room for the
	 * others. */
	animc_reduce_check_positions(c, e->check_pos + off);
	uint32_t i = off, j = 0, out = 0;
	double *merged = e->check_pos;
	while (j < off || i < off + between) {
		if (i < off + between && (j >= off || merged[i] <= e->extra[j].pos)) {
			e->check_t[out] = time_at(e, ch, merged[i]);
			merged[out++] = merged[i++];
		} else {
			e->check_t[out] = e->extra[j].t;
			merged[out++] = e->extra[j++].pos;
		}
	}
	/* The runtime samples no further than the duration. */
	while (out > 0 && merged[out - 1] > (double)ch->duration_s * e->g.rate_hz)
		out--;
	for (uint32_t k = 0; k < out; k++)
		animc_reduce_channel_value(ch, kind, e->check_t[k], e->check_value + (size_t)k * width);
	c->check_count = out;
	c->check_pos = e->check_pos;
	c->check_value = e->check_value;
	return ANIMC_OK;
}

typedef struct track_choice {
	clip_range range;
	unsigned bits;           /* COMPACT_SEGMENTED: per segment */
	uint32_t kept;
	uint64_t cost_bits;
} track_choice;

static void keep_if_better(encoder *e, const track_choice *try, track_choice *best)
{
	uint32_t n = e->g.sample_count;

	if (best->kept != 0 && try->cost_bits >= best->cost_bits)
		return;
	*best = *try;
	memcpy(e->best_is_key, e->is_key, n);
	memcpy(e->best_q, e->try_q, (size_t)n * 3 * sizeof *e->try_q);
	if (try->bits == COMPACT_SEGMENTED)
		memcpy(e->best_seg_codes, e->seg_codes, (size_t)e->g.segment_count * COMPACT_SEGMENT_CODE_SIZE);
}

/* Codes q (3 per candidate) decoded to value as z decodes them; false
 * when a rotation's stored components pass unit length. */
static bool decode_checked(const quantiser *z, const uint32_t q[3], float *value)
{
	if (z->kind == ANIMC_ROTATION) {
		float k[3];

		for (int c = 0; c < 3; c++)
			k[c] = compact_dequantize(z->min[c], z->step[c], q[c]);
		if (k[0] * k[0] + k[1] * k[1] + k[2] * k[2] > 1.0f + COMPACT_ROTATION_SLACK)
			return false;
	}
	decode(z, q, value);
	return true;
}

/* Does `got` pass c's bound against `want` by more than rounding?  As
 * animc_track_error(...) > c->bound, without its arc tangent: a rotation's
 * half angle atan2(v, |w|) passes half the bound when v > tan(half) |w|. */
static bool clearly_past(const reduce_curve *c, double tan_half, const float *got, const float *want)
{
	double b = c->bound * (1 + 1e-9);

	if (c->kind == ANIMC_TRANSLATION) {
		double dx = (double)got[0] - want[0], dy = (double)got[1] - want[1], dz = (double)got[2] - want[2];

		return dx * dx + dy * dy + dz * dz > b * b;
	}
	if (c->kind == ANIMC_SCALE) {
		for (int k = 0; k < 3; k++)
			if (fabs((double)got[k] - want[k]) > b)
				return true;
		return false;
	}
	double d[4];

	reduce_conj_product(got, want, d);
	return isfinite(tan_half) && d[0] * d[0] + d[1] * d[1] + d[2] * d[2] > tan_half * tan_half * d[3] * d[3];
}

/* tan of half c's bound (a rotation's), as clearly_past takes it: no
 * bound of half a turn or more is passed. */
static double bound_tan_half(const reduce_curve *c)
{
	double half = c->bound * (1 + 1e-9) * (3.14159265358979323846 / 360.0);

	return half < 3.14159265358979323846 / 2 ? tan(half) : INFINITY;
}

/* What the span tests of one curve take, found once: the tangents of
 * half its bound (as clearly_past takes it) and of half the part clearly
 * within it (point_class); and the point that last passed the bound (a
 * grid sample, or a check point when is_check; none when `at` is
 * UINT32_MAX), which the next span tested tries first: the spans tried
 * from one key mostly fail at the same point, after many that hold. */
typedef struct span_test {
	double tan_half, tan_lo;
	uint32_t at;
	bool is_check;
	/* point_class's limits, squared where it squares them */
	double hi, lo, hi2, lo2, tan_half2, tan_lo2;
} span_test;

static span_test span_test_of(const reduce_curve *c)
{
	double half = c->bound * (1 - 1e-6) * (3.14159265358979323846 / 360.0);
	span_test t = { bound_tan_half(c), half < 3.14159265358979323846 / 2 ? tan(half) : INFINITY, UINT32_MAX,
			false, 0, 0, 0, 0, 0, 0 };

	t.hi = c->bound * (1 + 1e-9);
	t.lo = c->bound * (1 - 1e-6);
	t.hi2 = t.hi * t.hi;
	t.lo2 = t.lo * t.lo;
	t.tan_half2 = t.tan_half * t.tan_half;
	t.tan_lo2 = t.tan_lo * t.tan_lo;
	return t;
}

/* Points measured by span_near_by on this thread: what the keys'
 * searches cost (animc_compact_span_points). */
static _Thread_local uint64_t span_points;

uint64_t animc_compact_span_points(void)
{
	return span_points;
}

/* Where `got` lies against c's bound from `want`: 2 past it by more than
 * rounding (clearly_past), 0 within it by more than rounding (a part in
 * 1e6 of the bound: the exact measure, an arc tangent a point, need not be
 * taken), 1 between.  One product for both tests. */
static int point_class(const reduce_curve *c, const span_test *t, const float *got, const float *want)
{
	if (c->kind == ANIMC_TRANSLATION) {
		double dx = (double)got[0] - want[0], dy = (double)got[1] - want[1], dz = (double)got[2] - want[2];
		double d2 = dx * dx + dy * dy + dz * dz;

		return d2 > t->hi2 ? 2 : d2 < t->lo2 ? 0 : 1;
	}
	if (c->kind == ANIMC_SCALE) {
		int worst = 0;

		for (int k = 0; k < 3; k++) {
			double d = fabs((double)got[k] - want[k]);

			if (d > t->hi)
				return 2;
			if (!(d < t->lo))
				worst = 1;
		}
		return worst;
	}
	double d[4];

	reduce_conj_product(got, want, d);
	double v2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2], w2 = d[3] * d[3];
	if (isfinite(t->tan_half) && v2 > t->tan_half2 * w2)
		return 2;
	return v2 < t->tan_lo2 * w2 ? 0 : 1;
}

/* animc_track_error(c->kind, got, want) <= c->bound, the exact measure
 * (an arc tangent, for a rotation) taken only where point_class leaves
 * it open. */
static bool within_bound(const reduce_curve *c, const span_test *t, const float *got, const float *want)
{
	int class = point_class(c, t, got, want);

	return class == 0 || (class == 1 && animc_track_error(c->kind, got, want) <= c->bound);
}

/* animc_track_error(c->kind, got, want) > c->bound, as within_bound takes
 * it (not, unlike it, where the measure is not a number). */
static bool past_bound(const reduce_curve *c, const span_test *t, const float *got, const float *want)
{
	int class = point_class(c, t, got, want);

	return class == 2 || (class == 1 && animc_track_error(c->kind, got, want) > c->bound);
}

/* The point that last passed the bound (t->at), when it lies within the
 * span a < b (as span_near_by measures it): its point_class there, or -1
 * when it does not lie within it. */
static int class_again(const reduce_curve *c, const span_test *t, const reduce_span *span, uint32_t a, uint32_t b)
{
	float v[4];

	if (t->at == UINT32_MAX)
		return -1;
	if (!t->is_check) {
		if (t->at <= a || t->at >= b)
			return -1;
		reduce_span_at(span, c->pos[t->at], v);
		span_points++;
		return point_class(c, t, v, c->value + (size_t)t->at * c->width);
	}
	if (t->at >= c->check_count || !(c->check_pos[t->at] >= c->pos[a] && c->check_pos[t->at] <= c->pos[b]))
		return -1;
	reduce_span_at(span, c->check_pos[t->at], v);
	span_points++;
	return point_class(c, t, v, c->check_value + (size_t)t->at * c->width);
}

/* Do the span's points between kept keys a and b hold the bound, by
 * clearly_past (no point passes it by more than rounding)?  With the keys'
 * own values too when with_keys.  *is_near (when not NULL) is set when a
 * point is not clearly within it either: only then does the exact measure
 * (animc_reduce_span_error, an arc tangent a point) need taking.  The
 * point that passed it last is tried first (class_again), and the one
 * that passes it now kept in t: the answer is the same in any order. */
static bool span_near_by(const reduce_curve *c, span_test *t, uint32_t a, uint32_t b, bool with_keys,
			 bool *is_near)
{
	float v[4];
	/* the point class_again measured, not measured twice */
	uint32_t seen = UINT32_MAX, seen_check = UINT32_MAX;

#define NEAR_POINT(got, want, index, check)                                            \
	do {                                                                           \
		int class = point_class(c, t, got, want);                              \
		span_points++;                                                         \
		if (class == 2) {                                                      \
			t->at = (index);                                               \
			t->is_check = (check);                                         \
			return false;                                                  \
		}                                                                      \
		if (class == 1 && is_near)                                             \
			*is_near = true;                                               \
	} while (0)
	if (with_keys) {
		NEAR_POINT(c->stored + (size_t)a * c->width, c->value + (size_t)a * c->width, t->at, t->is_check);
		NEAR_POINT(c->stored + (size_t)b * c->width, c->value + (size_t)b * c->width, t->at, t->is_check);
	}
	reduce_span span = reduce_span_of(c, a, b);
	int again = class_again(c, t, &span, a, b);
	if (again == 2)
		return false;
	if (again == 1 && is_near)
		*is_near = true;
	if (again >= 0)
		*(t->is_check ? &seen_check : &seen) = t->at;
	for (uint32_t i = a + 1; i < b; i++) {
		if (i == seen)
			continue;
		reduce_span_at(&span, c->pos[i], v);
		NEAR_POINT(v, c->value + (size_t)i * c->width, i, false);
	}
	for (uint32_t k = animc_reduce_check_from(c, c->pos[a]); k < c->check_count && c->check_pos[k] <= c->pos[b]; k++) {
		if (k == seen_check)
			continue;
		reduce_span_at(&span, c->check_pos[k], v);
		NEAR_POINT(v, c->check_value + (size_t)k * c->width, k, true);
	}
#undef NEAR_POINT
	return true;
}

static bool span_near(const reduce_curve *c, span_test *t, uint32_t a, uint32_t b, bool with_keys)
{
	return span_near_by(c, t, a, b, with_keys, NULL);
}

/* animc_reduce_span_error(c, a, b, true) >= 0, the span's points first tested
 * quickly (span_near): most spans tried fail, and fail clearly. */
static bool span_holds(const reduce_curve *c, span_test *t, uint32_t a, uint32_t b)
{
	bool is_near = false;

	return span_near_by(c, t, a, b, true, &is_near) && (!is_near || animc_reduce_span_error(c, a, b, true) >= 0);
}

/* Code d (0..26; 13 its own) around codes q: each component one step down,
 * the same or one up; false off the component's codes. */
static bool code_around(const quantiser *z, const uint32_t q[3], int d, uint32_t out[3])
{
	for (int k = 0; k < 3; k++, d /= 3) {
		int64_t code = (int64_t)q[k] + d % 3 - 1;

		if (code < 0 || code >= ((int64_t)1 << z->cbits[k]))
			return false;
		out[k] = (uint32_t)code;
	}
	return true;
}

/* What greedy_codes searches with: the curve, its candidates' values and
 * codes (writable, c->stored pointing at stored), their quantiser and
 * forced keys (NULL: none), whether the last candidate keeps its own code
 * (the next segment's first key), and the tests of c. */
typedef struct code_search {
	const reduce_curve *c;
	float *stored;
	uint32_t *q;
	const quantiser *z;
	const uint8_t *forced;
	bool is_last_fixed;
	span_test t;
} code_search;

/* How far a span reaches: to candidate `to` (0: not even the next), with
 * its nearest code or, when is_alt, code q (value v). */
typedef struct span_reach {
	uint32_t to;
	bool is_alt;
	uint32_t q[3];
	float v[4];
} span_reach;

/* Does the span from kept key a to candidate j hold the bound with j's
 * nearest code, or with one next to it (code_around) that keeps both j
 * itself and the span within it?  When it does, r reaches j (with the
 * other code).  stored[j] stays as it was. */
static bool reach_to(code_search *s, uint32_t a, uint32_t j, span_reach *r)
{
	const reduce_curve *c = s->c;
	unsigned w = c->width;
	float *sj = s->stored + (size_t)j * w, save_v[4], alt_v[4];
	uint32_t alt_q[3];
	bool ok = span_holds(c, &s->t, a, j), alt = false;

	if (!ok && s->z->bits != COMPACT_RAW_BITS && !(s->is_last_fixed && j + 1 == c->n)) {
		memcpy(save_v, sj, w * sizeof *sj);
		for (int d = 0; !ok && d < 27; d++) {
			if (d == 13 || !code_around(s->z, s->q + (size_t)j * 3, d, alt_q) ||
			    !decode_checked(s->z, alt_q, alt_v))
				continue;
			memcpy(sj, alt_v, w * sizeof *sj);
			ok = alt = span_holds(c, &s->t, a, j);
		}
		memcpy(sj, save_v, w * sizeof *sj);
	}
	if (!ok)
		return false;
	r->to = j;
	r->is_alt = alt;
	if (alt) {
		memcpy(r->q, alt_q, sizeof alt_q);
		memcpy(r->v, alt_v, w * sizeof *alt_v);
	}
	return true;
}

/* The farthest candidate after kept key a whose span holds, each tried in
 * turn up to the first that does not (or a forced one). */
static void reach_in_turn(code_search *s, uint32_t a, span_reach *r)
{
	r->to = 0;
	for (uint32_t j = a + 1; j < s->c->n; j++)
		if (!reach_to(s, a, j, r) || (s->forced && s->forced[j]))
			break;
}

/*
 * reach_in_turn in O(L log L) point tests for a reach of L candidates
 * rather than O(L^2): candidates a + 1, a + 2, a + 4, ... up to the first
 * forced one until a span does not hold, then the candidates between the
 * last that held and it by halving.  A span that holds may follow one that
 * does not (quantisation, or another code taking the bound), so the reach
 * may end elsewhere than reach_in_turn's: at a span that holds all the
 * same.  On a grid many samples finer than the keys spans reach over many
 * samples, and each tried in turn measured every sample of it again.
 */
static void reach_galloping(code_search *s, uint32_t a, span_reach *r)
{
	uint32_t last = a + 1, held = a, failed = a + 1;

	while (last + 1 < s->c->n && !(s->forced && s->forced[last]))
		last++;
	r->to = 0;
	for (uint32_t step = 2; reach_to(s, a, failed, r); step *= 2) {
		held = failed;
		if (held == last)
			return;
		failed = step < last - a ? a + step : last;
	}
	while (failed - held > 1) {
		uint32_t mid = held + (failed - held) / 2;

		if (reach_to(s, a, mid, r))
			held = mid;
		else
			failed = mid;
	}
}

/*
 * animc_reduce_greedy for one quantised curve, where a key may also take a code
 * next to its nearest one (each component one step up or down): when the
 * span to candidate j breaks the bound with j's nearest code, a neighbour
 * that keeps both j itself and the span within it lets the span reach on.
 * stored and q (c's candidates, writable) get the chosen codes of the kept
 * keys; with is_last_fixed the last candidate (the next segment's first
 * key) keeps its own.  With gallops, each reach is searched by
 * reach_galloping, else in turn.  0 also as soon as the keys reach `most`,
 * or are sure to: the last candidate is one, and least (when not NULL:
 * searched in turn only) says how many at least follow each candidate (a
 * choice already found costs no more).
 */
static uint32_t greedy_codes(const reduce_curve *c, float *stored, uint32_t *q, const quantiser *z,
			     const uint8_t *forced, bool is_last_fixed, bool gallops, const uint32_t *least,
			     uint32_t most, uint32_t *kept)
{
	code_search s = { c, stored, q, z, forced, is_last_fixed, span_test_of(c) };
	uint32_t n = c->n, a = 0, count = 1, w = c->width;

	kept[0] = 0;
	while (a + 1 < n) {
		span_reach r;

		/* keys yet to come: the last candidate at least */
		if (count + (least ? least[a] : 1) >= most)
			return 0;
		if (gallops)
			reach_galloping(&s, a, &r);
		else
			reach_in_turn(&s, a, &r);
		if (r.to == 0)
			return 0;
		if (r.is_alt) {
			memcpy(q + (size_t)r.to * 3, r.q, sizeof r.q);
			memcpy(stored + (size_t)r.to * w, r.v, w * sizeof *r.v);
		}
		kept[count++] = r.to;
		a = r.to;
		if (count >= most)
			return 0;
	}
	return count;
}

/* Candidates a segment's dynamic programming takes (its 64 samples and the
 * next segment's first key), and how far a span of it reaches. */
#define FEWEST_CANDIDATES (COMPACT_SEGMENT_SAMPLES + 1)
#define FEWEST_CODES 27
#define FEWEST_SPAN 8
#define FEWEST_NEAR 20
/* A track of more grid samples than this (2.3 minutes at 60 Hz) keeps the
 * greedy's keys in every segment: fewest_codes costs some 50 times the
 * greedy's work for a few percent fewer keys, and a long take's encode
 * would pass --import-timeout (0.25 s a second of a 31-bone 60 Hz take). */
#define FEWEST_MAX_SAMPLES 8192
/* Safety on how far a code step moves a span's points (fewest_codes). */
#define FEWEST_REACH_SLACK 1.5

/* The fewest keys fewest_codes can keep of n candidates: its spans reach
 * at most FEWEST_SPAN candidates (on a grid much finer than the keys, the
 * greedy's reach further, and fewer keys hold). */
static uint32_t fewest_at_least(uint32_t n)
{
	return 1 + (n - 1 + FEWEST_SPAN - 1) / FEWEST_SPAN;
}

/* animc_reduce_span_error(c, a, b, false) > limit, the exact measure taken
 * only for points point_class leaves open against the limit. */
static bool span_error_past(const reduce_curve *c, uint32_t a, uint32_t b, double limit)
{
	reduce_curve at = *c;
	reduce_span span = reduce_span_of(c, a, b);
	float v[4];

	if (!(limit < INFINITY))
		return false;
	at.bound = limit;
	span_test t = span_test_of(&at);
	for (uint32_t i = a; i <= b; i++) {
		const float *got = c->stored + (size_t)i * c->width;

		if (i != a && i != b) {
			reduce_span_at(&span, c->pos[i], v);
			got = v;
		}
		if (past_bound(&at, &t, got, c->value + (size_t)i * c->width))
			return true;
	}
	for (uint32_t k = animc_reduce_check_from(c, c->pos[a]); k < c->check_count && c->check_pos[k] < c->pos[b]; k++) {
		reduce_span_at(&span, c->check_pos[k], v);
		if (past_bound(&at, &t, v, c->check_value + (size_t)k * c->width))
			return true;
	}
	return false;
}

/* Does a span from candidate a, with one of its codes (mask_a), reach
 * candidate b with code db (span_near)?  The values of a's and b's codes
 * in vals; stored[a] and stored[b] left as one of them.  *first, the code
 * of a that reached last, is tried first, and set: which one does, the
 * answer does not say. */
static bool code_reached(const reduce_curve *c, span_test *t, float *stored, float (*vals)[FEWEST_CODES][4],
			 uint32_t a, uint32_t mask_a, uint32_t b, int db, int *first)
{
	unsigned w = c->width;

	memcpy(stored + (size_t)b * w, vals[b][db], w * sizeof(float));
	for (int i = 0; i <= FEWEST_CODES; i++) {
		int da = i == 0 ? *first : i - 1;

		if ((i > 0 && da == *first) || !(mask_a >> da & 1))
			continue;
		memcpy(stored + (size_t)a * w, vals[a][da], w * sizeof(float));
		if (span_near(c, t, a, b, false)) {
			*first = da;
			return true;
		}
	}
	return false;
}

/* The codes of candidate b among `want` that a span from candidate a
 * reaches (code_reached); when none does, the first of `enough` that one
 * reaches. */
static uint32_t codes_reached(const reduce_curve *c, span_test *t, float *stored, float (*vals)[FEWEST_CODES][4],
			      uint32_t a, uint32_t mask_a, uint32_t b, uint32_t want, uint32_t enough)
{
	uint32_t reached = 0;
	int first = 13;

	for (uint32_t left = want; left; left &= left - 1)
		if (code_reached(c, t, stored, vals, a, mask_a, b, __builtin_ctz(left), &first))
			reached |= left & -left;
	for (uint32_t left = enough; left && !reached; left &= left - 1)
		if (code_reached(c, t, stored, vals, a, mask_a, b, __builtin_ctz(left), &first))
			reached |= left & -left;
	return reached;
}

/*
 * greedy_codes without forced keys, by dynamic programming over the
 * candidates (at most FEWEST_CANDIDATES) for the fewest keys, each kept
 * key taking its nearest code or one next to it (code_around), the first
 * candidate's too: a candidate b keeps the set of its codes (a bit mask of
 * the 27) that a path with the fewest keys reaches, and for each code the
 * first predecessor that does.  A span reaches at most FEWEST_SPAN
 * candidates, and stops where no code of b holds.  0 when there is no
 * path, or it takes `most` keys or more (least, when not NULL: as
 * greedy_codes takes it).
 */
static uint32_t fewest_codes(const reduce_curve *c, float *stored, uint32_t *q, const quantiser *z,
			     bool is_last_fixed, const uint32_t *least, uint32_t most, uint32_t *kept)
{
	static _Thread_local float vals[FEWEST_CANDIDATES][FEWEST_CODES][4];
	static _Thread_local uint32_t codes[FEWEST_CANDIDATES][FEWEST_CODES][3];
	uint32_t valid[FEWEST_CANDIDATES], mask[FEWEST_CANDIDATES], count[FEWEST_CANDIDATES];
	uint8_t pred[FEWEST_CANDIDATES][FEWEST_CODES];
	uint32_t n = c->n, w = c->width;
	span_test t = span_test_of(c);
	float save_a[4], save_b[4];

	if (n > FEWEST_CANDIDATES || n < 2 || z->bits == COMPACT_RAW_BITS || fewest_at_least(n) >= most)
		return 0;
	for (uint32_t i = 0; i < n; i++) {
		valid[i] = 0;
		count[i] = UINT32_MAX;
		mask[i] = 0;
		for (int d = 0; d < FEWEST_CODES; d++) {
			if (is_last_fixed && i + 1 == n) {
				if (d != 13)
					continue;
				memcpy(codes[i][d], q + (size_t)i * 3, sizeof codes[i][d]);
				memcpy(vals[i][d], stored + (size_t)i * w, w * sizeof(float));
			} else if (!code_around(z, q + (size_t)i * 3, d, codes[i][d]) ||
				   !decode_checked(z, codes[i][d], vals[i][d]) ||
				   clearly_past(c, t.tan_half, vals[i][d], c->value + (size_t)i * w)) {
				continue;
			}
			valid[i] |= 1u << d;
		}
	}
	/* How far the span's points can move when its keys move one code:
	 * a span whose nearest codes pass the bound by more holds with none. */
	double box = 0, reach;
	for (int k = 0; k < 3; k++)
		box += (double)z->step[k] * z->step[k];
	box = sqrt(box);
	if (c->kind == ANIMC_ROTATION) {
		/* a step of the stored components moves the rebuilt one too, by
		 * up to 1/|rebuilt| of it; an angle is twice the move */
		float low = 1;
		for (uint32_t i = 0; i < n; i++)
			low = fminf(low, fabsf(c->value[(size_t)i * 4 + z->dropped]));
		reach = low > 0.1f ? 2 * box / low * (180.0 / 3.14159265358979323846) : INFINITY;
	} else {
		reach = box;
	}
	reach *= FEWEST_REACH_SLACK;
	count[0] = 1;
	mask[0] = valid[0];
	for (uint32_t a = 0; a + 1 < n; a++) {
		/* no path through a keeps fewer than `most`: its spans reach
		 * FEWEST_SPAN candidates at most, and least[a] keys follow */
		uint32_t after = (n - 1 - a + FEWEST_SPAN - 1) / FEWEST_SPAN;
		if (least && least[a] > after)
			after = least[a];
		if (count[a] == UINT32_MAX || count[a] + after >= most)
			continue;
		memcpy(save_a, stored + (size_t)a * w, w * sizeof(float));
		for (uint32_t b = a + 1; b < n && b <= a + FEWEST_SPAN; b++) {
			uint32_t reached = 0;

			memcpy(stored + (size_t)a * w, save_a, w * sizeof(float));
			if (b > a + 1 && span_error_past(c, a, b, c->bound + reach))
				break;
			memcpy(save_b, stored + (size_t)b * w, w * sizeof(float));
			/* Which codes a reaches matters for the codes b has no
			 * predecessor for yet with as few keys, and only where a
			 * gives b as few; else only whether it reaches any. */
			uint32_t known = count[a] + 1 > count[b] ? valid[b] : count[a] + 1 == count[b] ? mask[b] : 0;
			reached = codes_reached(c, &t, stored, vals, a, mask[a], b, valid[b] & ~known, valid[b] & known);
			memcpy(stored + (size_t)b * w, save_b, w * sizeof(float));
			if (!reached)
				break;
			/* Each code of b keeps the first predecessor that reaches it
			 * with the fewest keys. */
			if (count[a] + 1 < count[b]) {
				count[b] = count[a] + 1;
				mask[b] = 0;
			}
			if (count[a] + 1 == count[b]) {
				for (uint32_t fresh = reached & ~mask[b]; fresh; fresh &= fresh - 1)
					pred[b][__builtin_ctz(fresh)] = (uint8_t)a;
				mask[b] |= reached;
			}
		}
		memcpy(stored + (size_t)a * w, save_a, w * sizeof(float));
	}
	if (count[n - 1] >= most)
		return 0;
	/* The path back from the last candidate, each key's code one that
	 * reaches the next key's (its own first). */
	uint32_t total = count[n - 1], b = n - 1;
	int db = mask[b] >> 13 & 1 ? 13 : __builtin_ctz(mask[b]);
	for (uint32_t k = total; k-- > 0;) {
		kept[k] = b;
		memcpy(q + (size_t)b * 3, codes[b][db], 3 * sizeof *q);
		memcpy(stored + (size_t)b * w, vals[b][db], w * sizeof(float));
		if (k == 0)
			break;
		uint32_t a = pred[b][db];
		int found = -1;
		for (int i = 0; i < FEWEST_CODES && found < 0; i++) {
			int da = i == 0 ? 13 : i <= 13 ? i - 1 : i;

			if (!(mask[a] >> da & 1))
				continue;
			memcpy(stored + (size_t)a * w, vals[a][da], w * sizeof(float));
			if (span_holds(c, &t, a, b))
				found = da;
		}
		if (found < 0)
			return 0;
		b = a;
		db = found;
	}
	return total;
}

/* How many keys of key_bits each, after fixed_bits, cost no less than
 * the best choice so far (UINT32_MAX when there is none). */
static uint32_t keys_limit(const track_choice *best, uint64_t fixed_bits, unsigned key_bits)
{
	if (best->kept == 0)
		return UINT32_MAX;
	if (best->cost_bits <= fixed_bits)
		return 0;
	uint64_t most = (best->cost_bits - fixed_bits + key_bits - 1) / key_bits;

	return most < UINT32_MAX ? (uint32_t)most : UINT32_MAX;
}

/* How much wider than the bound least_keys measures the source's own
 * spans: a span whose keys each hold the bound holds it only where the
 * span between the source's values there stays within about twice it;
 * the rest leaves room for float rounding and the bend of an arc. */
#define LEAST_SLACK 2.5

/* Does the span a < b between the source's own values (raw) pass raw's
 * bound?  A rotation's arc of more than about 90 degrees is never said to. */
static bool raw_span_past(const reduce_curve *raw, span_test *t, uint32_t a, uint32_t b)
{
	const float *va = raw->value + (size_t)a * raw->width, *vb = raw->value + (size_t)b * raw->width;

	if (raw->kind == ANIMC_ROTATION && !(fabsf(interp_dot4(va, vb)) >= 0.7f))
		return false;
	return !span_near(raw, t, a, b, false);
}

/* A candidate past a (b > a + 1) that no span from a reaches, whatever
 * the keys' codes (raw_span_past), or n when none is found: from a + 2,
 * a + 4, a + 8, ... until one is, then by halving down to the first after
 * one that is not. */
static uint32_t raw_reach_end(const reduce_curve *raw, span_test *t, uint32_t a)
{
	uint32_t held = a + 1, past = a + 2;

	while (past < raw->n && !raw_span_past(raw, t, a, past)) {
		held = past;
		past = a + 2 * (past - a);
	}
	if (past >= raw->n) {
		past = raw->n - 1;
		if (past <= held || !raw_span_past(raw, t, a, past))
			return raw->n;
	}
	while (past - held > 1) {
		uint32_t mid = held + (past - held) / 2;

		if (raw_span_past(raw, t, a, mid))
			past = mid;
		else
			held = mid;
	}
	return past;
}

/*
 * The fewest keys that follow each candidate of [start, end] of c (into
 * least, end - start + 1 of them), whatever the codes a search gives
 * them: a search in turn (greedy_codes, fewest_codes) stops at the first
 * candidate no span reaches, and a span between keys each within the
 * bound holds it only where the source's own span stays within
 * LEAST_SLACK times it (and float rounding's part of the largest value).
 * A choice that would cost more than one already found is so passed over
 * before its search ends, or begins.
 */
static void least_keys(const reduce_curve *c, uint32_t start, uint32_t end, uint32_t *least)
{
	reduce_curve raw = *c;
	uint32_t n = end - start + 1;
	float largest = 0;

	raw.pos = c->pos + start;
	raw.value = c->value + (size_t)start * c->width;
	raw.stored = raw.value;
	raw.n = n;
	animc_reduce_checks_within(c, (float)start, (float)end, &raw);
	for (size_t i = 0; i < (size_t)n * c->width; i++)
		largest = fmaxf(largest, fabsf(raw.value[i]));
	raw.bound = LEAST_SLACK * c->bound +
		    (c->kind == ANIMC_ROTATION ? 1e-3 : 16 * FLT_EPSILON * ((double)largest + c->bound));
	span_test t = span_test_of(&raw);
	least[n - 1] = 0;
	for (uint32_t a = n - 1; a-- > 0;) {
		uint32_t past = raw_reach_end(&raw, &t, a), fewest = UINT32_MAX;

		for (uint32_t b = a + 1; b < n && b < past; b++)
			fewest = least[b] < fewest ? least[b] : fewest;
		least[a] = fewest + 1;
	}
}

/* least_keys of the whole track into e->least, for its keys searched in
 * turn with every segment's first sample forced (try_flat): each
 * segment's own, and after it those of the segments that follow it. */
static void track_least(encoder *e, const reduce_curve *c)
{
	uint32_t n = c->n, segs = e->g.segment_count;

	for (uint32_t s = segs; s-- > 0;) {
		uint32_t start = s << COMPACT_SEGMENT_SHIFT;
		uint32_t end = s + 1 < segs ? start + COMPACT_SEGMENT_SAMPLES : n - 1;
		uint32_t after = s + 1 < segs ? e->least[end] : 0;

		least_keys(c, start, end, e->least + start);
		for (uint32_t i = start; i <= end; i++)
			e->least[i] += after;
	}
}

/* One bit rate and range for the whole track; is_quantised when e->try_q
 * and e->stored already hold its samples as z stores them, within the
 * bound (smallest_bits); least as greedy_codes takes it. */
static void try_flat(encoder *e, reduce_curve *c, const quantiser *z, const clip_range *range, bool is_quantised,
		     const uint32_t *least, track_choice *best)
{
	uint32_t n = c->n;
	span_test test = span_test_of(c);

	for (uint32_t i = 0; !is_quantised && i < n; i++) {
		float *s = e->stored + (size_t)i * c->width;

		if (!quantise(z, c->value + (size_t)i * c->width, e->try_q + (size_t)i * 3, s) ||
		    past_bound(c, &test, s, c->value + (size_t)i * c->width))
			return;
	}
	c->stored = e->stored;
	uint32_t kept = greedy_codes(c, e->stored, e->try_q, z, e->forced, false, e->gallops, least,
				     keys_limit(best, (uint64_t)compact_range_size(range->kind) * 8, z->key_bits), e->kept);
	if (kept == 0)
		return;
	memset(e->is_key, 0, n);
	for (uint32_t i = 0; i < kept; i++)
		e->is_key[e->kept[i]] = 1;
	track_choice t = { *range, z->bits, kept,
			   (uint64_t)compact_range_size(range->kind) * 8 + (uint64_t)kept * z->key_bits };
	keep_if_better(e, &t, best);
}

/* The smallest bit rate whose quantisation of samples [from, to] alone
 * stays within the bound, or 0; the samples' codes at it into q, their
 * values into stored (indexed as c's). */
static unsigned smallest_bits(const reduce_curve *c, quantiser *z, const float *min, const float *extent,
			      uint32_t from, uint32_t to, uint32_t *q, float *stored)
{
	span_test t = span_test_of(c);

	for (unsigned bits = 1; bits <= COMPACT_MAX_BITS; bits++) {
		bool ok = true;

		quantiser_set(z, bits, min, extent);
		for (uint32_t i = from; ok && i <= to; i++) {
			float *s = stored + (size_t)i * c->width;
			const float *v = c->value + (size_t)i * c->width;

			ok = quantise(z, v, q + (size_t)i * 3, s) && within_bound(c, &t, s, v);
		}
		if (ok)
			return bits;
	}
	return 0;
}

/* One segment's choice: the keys of its samples at one bit rate, range and
 * left-out component. */
typedef struct segment_try {
	uint64_t cost;           /* bits: its code and its own keys */
	unsigned bits, dropped;
	uint8_t m[3], x[3];
} segment_try;

/* One range a segment tries: the component left out, the sub-range m, x
 * of the clip range, and what its greedy found at each bit rate. */
typedef struct range_try {
	unsigned dropped;
	uint8_t m[3], x[3];
	unsigned first;                       /* smallest_bits, 0: none */
	uint64_t greedy_cost[EXTRA_BITS + 1];
} range_try;

/* The segment [start, own_end] (end: the next segment's first key, or
 * own_end) stored as t says, at each bit rate from the smallest that holds
 * the quantisation: pass 0 its keys by greedy_codes (their costs into t,
 * the cheapest of every range tried into *greedy_best), pass 1 by
 * fewest_codes where the greedy came within 1/FEWEST_NEAR of the cheapest
 * (it keeps a few percent fewer keys, at much more work).  The cheapest
 * into *seg (and its keys into is_key, try_q, seg_stored) when cheaper
 * than *seg and within `budget` bits. */
static void try_segment_range(encoder *e, const reduce_curve *c, const clip_range *range, uint32_t start,
			      uint32_t own_end, uint32_t end, const uint32_t *least, range_try *t, int pass,
			      uint64_t *greedy_best, uint64_t budget, segment_try *seg)
{
	unsigned w = c->width;
	float min[3], extent[3];
	quantiser z;
	reduce_curve sub = *c;

	for (int k = 0; k < 3; k++)
		compact_subrange(range->min[k], range->extent[k], t->m[k], t->x[k], &min[k], &extent[k]);
	memset(&z, 0, sizeof z);
	z.kind = c->kind;
	z.dropped = t->dropped;
	if (pass == 0)
		t->first = smallest_bits(c, &z, min, extent, start, own_end, e->q, e->stored);
	unsigned first = t->first;
	sub.pos = c->pos + start;
	sub.value = c->value + (size_t)start * w;
	sub.n = end - start + 1;
	sub.stored = e->stored + (size_t)start * w;
	animc_reduce_checks_within(c, (float)start, (float)end, &sub);
	float *stored = e->stored + (size_t)start * w;
	uint32_t *q = e->q + (size_t)start * 3;
	for (unsigned bits = first; first && bits <= first + EXTRA_BITS && bits <= COMPACT_MAX_BITS; bits++) {
		bool ok = true;
		uint64_t *gc = &t->greedy_cost[bits - first];

		if (pass == 1 && (*gc == UINT64_MAX || *gc > *greedy_best + *greedy_best / FEWEST_NEAR))
			continue;
		quantiser_set(&z, bits, min, extent);
		/* no more keys than would cost the segment's best so far, or
		 * the budget */
		uint64_t limit = seg->cost < budget ? seg->cost : budget;
		if (pass == 0 && limit != UINT64_MAX)
			limit += limit / FEWEST_NEAR;
		track_choice within = { .kept = limit != UINT64_MAX, .cost_bits = limit };
		uint32_t most = keys_limit(&within, COMPACT_SEGMENT_CODE_SIZE * 8, z.key_bits);
		if (pass == 0)
			*gc = UINT64_MAX;
		if (most == 0)
			break;   /* more bits only cost more */
		if (most != UINT32_MAX && end != own_end)
			most++;
		if (pass == 1 && fewest_at_least(sub.n) >= most)
			continue;   /* fewest_codes keeps more keys */
		if (least && 1 + least[0] >= most)
			continue;   /* so does any search */
		/* smallest_bits left the samples quantised at `first` */
		for (uint32_t i = start; ok && !(pass == 0 && bits == first) && i <= own_end; i++)
			ok = quantise(&z, c->value + (size_t)i * w, e->q + (size_t)i * 3,
				      e->stored + (size_t)i * w);
		if (!ok)
			continue;
		if (end != own_end)
			memcpy(e->stored + (size_t)end * w, e->seg_stored + (size_t)end * w, w * sizeof(float));
		uint32_t kept = pass == 0 ? greedy_codes(&sub, stored, q, &z, NULL, end != own_end, e->gallops, least,
							 most, e->kept)
					  : fewest_codes(&sub, stored, q, &z, end != own_end, least, most, e->kept);
		if (kept == 0)
			continue;
		uint32_t own = end != own_end ? kept - 1 : kept;
		uint64_t cost = COMPACT_SEGMENT_CODE_SIZE * 8 + (uint64_t)own * z.key_bits;
		if (pass == 0) {
			*gc = cost;
			*greedy_best = cost < *greedy_best ? cost : *greedy_best;
		}
		if (cost >= seg->cost || cost >= budget)
			continue;
		seg->cost = cost;
		seg->bits = bits;
		seg->dropped = t->dropped;
		memcpy(seg->m, t->m, 3);
		memcpy(seg->x, t->x, 3);
		for (uint32_t i = start; i <= own_end; i++)
			e->is_key[i] = 0;
		for (uint32_t i = 0; i < own; i++) {
			uint32_t at = start + e->kept[i];

			e->is_key[at] = 1;
			memcpy(e->try_q + (size_t)at * 3, e->q + (size_t)at * 3, 3 * sizeof *e->q);
		}
		memcpy(e->seg_stored + (size_t)start * w, e->stored + (size_t)start * w,
		       (size_t)(own_end - start + 1) * w * sizeof(float));
	}
}

/* How many 256ths of the clip range a segment's largest component also
 * tries wider than its samples need, at its high end or its low end: where
 * the codes fall moves with the range's ends, and with it whether the
 * smallest bit rate holds the samples and which keys hold the bound (on
 * dense 120 Hz takes often the cheapest; each costs a greedy search of the
 * keys). */
#define SEGMENT_SHIFTS 6
/* Per component left out, the samples' range and up to two wider ones;
 * for the first, 2 x SEGMENT_SHIFTS more. */
#define SEGMENT_MAX_TRIES (4 * 3 + 2 * SEGMENT_SHIFTS)

/* The ranges segment [start, own_end] tries (into out, at most
 * SEGMENT_MAX_TRIES), for each component it may leave out, `chosen` first:
 * the part of the clip range that covers its samples, and up to two whose
 * largest component is wider: a component 2^d narrower than the largest
 * takes d fewer bits, and the largest often holds its bound at its bits
 * over a wider range.  For `chosen`, that largest component's range also a
 * few 256ths wider (SEGMENT_SHIFTS). */
static unsigned segment_ranges(const reduce_curve *c, const clip_range *range, uint32_t start, uint32_t own_end,
			       unsigned chosen, range_try *out)
{
	unsigned count = 0, w = c->width;

	for (unsigned d = 0; d < (c->kind == ANIMC_ROTATION ? 5u : 1u); d++) {
		unsigned dropped = d == 0 ? chosen : d - 1;
		float lo[3], hi[3], min[3], extent[3], comp[3];
		unsigned cbits[3];
		range_try base;

		if (d > 0 && dropped == chosen)
			continue;
		for (uint32_t i = start; i <= own_end; i++) {
			stored_components(c->kind, dropped, c->value + (size_t)i * w, comp);
			for (int k = 0; k < 3; k++) {
				lo[k] = i == start ? comp[k] : fminf(lo[k], comp[k]);
				hi[k] = i == start ? comp[k] : fmaxf(hi[k], comp[k]);
			}
		}
		memset(&base, 0, sizeof base);
		base.dropped = dropped;
		make_segment_range(range, lo, hi, base.m, base.x, min, extent);
		out[count++] = base;
		int top = extent[1] > extent[0] ? 1 : 0;
		top = extent[2] > extent[top] ? 2 : top;
		compact_component_bits(COMPACT_MAX_BITS, extent, cbits);
		float want[3] = { INFINITY, INFINITY, INFINITY };
		for (int k = 0; k < 3; k++)
			if (k != top && extent[k] > 0 && cbits[k] > 1)
				want[k] = ldexpf(extent[k], (int)(COMPACT_MAX_BITS - cbits[k]) + 1);
		for (int k = 0; k < 3; k++) {
			float wide_lo[3], wide_hi[3], wide_min[3], wide_extent[3];
			unsigned wide_bits[3];
			range_try wide = base;

			if (!isfinite(want[k]) || want[k] > 2 * extent[top] || (k > 0 && want[k] == want[k - 1]))
				continue;
			memcpy(wide_lo, lo, sizeof lo);
			memcpy(wide_hi, hi, sizeof hi);
			wide_hi[top] = lo[top] + want[k];
			if (wide_hi[top] > range->min[top] + range->extent[top]) {
				wide_hi[top] = range->min[top] + range->extent[top];
				wide_lo[top] = wide_hi[top] - want[k];
			}
			make_segment_range(range, wide_lo, wide_hi, wide.m, wide.x, wide_min, wide_extent);
			compact_component_bits(COMPACT_MAX_BITS, wide_extent, wide_bits);
			if (wide_bits[0] + wide_bits[1] + wide_bits[2] >= cbits[0] + cbits[1] + cbits[2])
				continue;
			out[count++] = wide;
		}
		for (unsigned more = 1; d == 0 && more <= SEGMENT_SHIFTS; more++) {
			for (unsigned low = 0; low < 2; low++) {
				range_try shifted = base;

				if (base.m[top] + base.x[top] + more > 255 || (low && base.m[top] < more))
					continue;
				shifted.x[top] = (uint8_t)(base.x[top] + more);
				shifted.m[top] = (uint8_t)(base.m[top] - (low ? more : 0));
				out[count++] = shifted;
			}
		}
	}
	return count;
}

/* Bits, range and (rotations) the component left out, per segment, from
 * the last segment back, so that each segment's last span knows the next
 * segment's first key as decoded.  The clip range covers every segment's
 * stored components with the component best conditioned to rebuild left
 * out (choose_dropped); a segment tries each other one too, whose stored
 * components may span less (one whose components the clip range does not
 * hold fails the bound, and is passed over), each at the ranges
 * segment_ranges gives: first the greedy for every range and bit rate, then
 * the dynamic programming where the greedy came near the cheapest of all.
 * False when range_kind cannot store that clip range. */
static bool try_segmented(encoder *e, reduce_curve *c, unsigned range_kind, track_choice *best)
{
	uint32_t n = c->n, segs = e->g.segment_count;
	unsigned w = c->width;
	uint32_t kept_total = 0;
	float clip_lo[3], clip_hi[3], comp[3];
	clip_range range;

	for (uint32_t s = 0; s < segs; s++) {
		uint32_t start = s << COMPACT_SEGMENT_SHIFT;
		uint32_t own_end = s + 1 < segs ? start + COMPACT_SEGMENT_SAMPLES - 1 : n - 1;
		unsigned chosen = c->kind == ANIMC_ROTATION ? choose_dropped(c->value, start, own_end) : 0;

		for (uint32_t i = start; i <= own_end; i++) {
			stored_components(c->kind, chosen, c->value + (size_t)i * w, comp);
			for (int k = 0; k < 3; k++) {
				clip_lo[k] = i ? fminf(clip_lo[k], comp[k]) : comp[k];
				clip_hi[k] = i ? fmaxf(clip_hi[k], comp[k]) : comp[k];
			}
		}
	}
	if (!make_clip_range(range_kind, clip_lo, clip_hi, &range))
		return false;
	uint64_t cost = (uint64_t)compact_range_size(range.kind) * 8;
	memset(e->is_key, 0, n);
	for (uint32_t s = segs; s-- > 0;) {
		uint32_t start = s << COMPACT_SEGMENT_SHIFT;
		uint32_t own_end = s + 1 < segs ? start + COMPACT_SEGMENT_SAMPLES - 1 : n - 1;
		uint32_t end = s + 1 < segs ? own_end + 1 : own_end;
		uint8_t *code = e->seg_codes + (size_t)s * COMPACT_SEGMENT_CODE_SIZE;
		unsigned chosen = c->kind == ANIMC_ROTATION ? choose_dropped(c->value, start, own_end) : 0;
		uint64_t budget = best->kept ? (best->cost_bits > cost ? best->cost_bits - cost : 0) : UINT64_MAX;
		segment_try seg = { .cost = UINT64_MAX };

		range_try tries[SEGMENT_MAX_TRIES];
		unsigned count = segment_ranges(c, &range, start, own_end, chosen, tries);
		uint64_t greedy_best = UINT64_MAX;
		/* a galloping search may pass a candidate no span reaches */
		uint32_t least[FEWEST_CANDIDATES];
		bool has_least = !e->gallops && end - start < FEWEST_CANDIDATES;

		for (uint32_t i = start; has_least && i <= end; i++)
			least[i - start] = e->least[i] - e->least[end];   /* track_least's */
		for (int pass = 0; pass < (n > FEWEST_MAX_SAMPLES ? 1 : 2); pass++)
			for (unsigned i = 0; i < count; i++)
				try_segment_range(e, c, &range, start, own_end, end, has_least ? least : NULL, &tries[i],
						  pass, &greedy_best, budget, &seg);
		if (seg.cost == UINT64_MAX)
			return true;
		code[0] = (uint8_t)(seg.bits | seg.dropped << 5);
		memcpy(code + 1, seg.m, 3);
		memcpy(code + 4, seg.x, 3);
		cost += seg.cost;
	}
	for (uint32_t i = 0; i < n; i++)
		kept_total += e->is_key[i];
	track_choice t = { range, COMPACT_SEGMENTED, kept_total, cost };
	keep_if_better(e, &t, best);
	return true;
}

/* A constant as the layout stores it: f16 (translation, scale) or 3 x 16
 * bits with the largest component left out (rotation), or float32; false
 * when the short form cannot hold it.  A translation's components within
 * zero_below of 0 become 0, which the layout stores in no bytes (as any
 * 0, always +0). */
static bool constant_store(animc_track_kind kind, const float *held, bool is_f32, float zero_below, float *out,
			   unsigned *dropped)
{
	*dropped = 0;
	if (kind == ANIMC_TRANSLATION) {
		float v[3];

		for (int c = 0; c < 3; c++)
			v[c] = fabsf(held[c]) <= zero_below ? 0.0f : held[c];
		if (is_f32) {
			memcpy(out, v, sizeof v);
		} else {
			for (int c = 0; c < 3; c++) {
				uint16_t h;

				if (!compact_f32_to_f16(v[c], COMPACT_ROUND_NEAREST, &h))
					return false;
				out[c] = compact_f16_to_f32(h);
			}
		}
		for (int c = 0; c < 3; c++)
			out[c] = out[c] == 0 ? 0.0f : out[c];
		out[3] = 0;
		return true;
	}
	if (is_f32) {
		memcpy(out, held, (kind == ANIMC_ROTATION ? 4 : 3) * sizeof *out);
		if (kind != ANIMC_ROTATION)
			out[3] = 0;
		return true;
	}
	if (kind == ANIMC_ROTATION) {
		float v[4], k[3];
		unsigned d = 0;

		for (unsigned c = 1; c < 4; c++)
			if (fabsf(held[c]) > fabsf(held[d]))
				d = c;
		for (int c = 0; c < 4; c++)
			v[c] = held[d] < 0 ? -held[c] : held[c];
		stored_components(ANIMC_ROTATION, d, v, k);
		for (int c = 0; c < 3; c++)
			k[c] = compact_u16_to_unit(compact_unit_to_u16(k[c]));
		if (k[0] * k[0] + k[1] * k[1] + k[2] * k[2] > 1.0f + COMPACT_ROTATION_SLACK)
			return false;
		compact_rotation_rebuild(k, d, out);
		*dropped = d;
		return true;
	}
	for (int c = 0; c < 3; c++) {
		uint16_t h;

		if (!compact_f32_to_f16(held[c], COMPACT_ROUND_NEAREST, &h))
			return false;
		out[c] = compact_f16_to_f32(h);
	}
	out[3] = 0;
	return true;
}

/* The value key k of an animated track decodes to, as the runtime
 * decodes it. */
static void track_key_value(const animc_compact_track *tr, animc_track_kind kind, uint32_t k, float *out)
{
	quantiser z;
	float min[3], extent[3];

	memset(&z, 0, sizeof z);
	z.kind = kind;
	z.dropped = tr->dropped;
	z.bits = tr->bits;
	memcpy(min, tr->range_values, sizeof min);
	memcpy(extent, tr->range_values + 3, sizeof extent);
	if (tr->bits == COMPACT_SEGMENTED) {
		const uint8_t *code = tr->segment_codes + (size_t)(tr->samples[k] >> COMPACT_SEGMENT_SHIFT) *
							      COMPACT_SEGMENT_CODE_SIZE;

		z.bits = code[0] & 31u;
		z.dropped = code[0] >> 5;
		for (int j = 0; j < 3; j++)
			compact_subrange(tr->range_values[j], tr->range_values[3 + j], code[1 + j], code[4 + j],
					 &min[j], &extent[j]);
	}
	quantiser_set(&z, z.bits, min, extent);
	decode(&z, tr->q + (size_t)k * 3, out);
}

/* The compact encoding (ctx) of a channel's track at clip time t, as the
 * runtime samples it: a shell_value_fn. */
static void encoded_value(const void *ctx, uint32_t channel, animc_track_kind kind, float t, float *out)
{
	const animc_compact *cp = ctx;
	const animc_compact_track *tr = &cp->tracks[channel][kind];
	unsigned w = animc_track_width[kind];

	if (tr->kind == ANIMC_COMPACT_ABSENT || tr->kind == ANIMC_COMPACT_IDENTITY) {
		memcpy(out, animc_reduce_identity(kind), w * sizeof *out);
		return;
	}
	if (tr->kind == ANIMC_COMPACT_CONSTANT) {
		memcpy(out, tr->value, w * sizeof *out);
		return;
	}
	double p = (double)t * cp->rate_hz, last = (double)(cp->sample_count - 1);
	p = p > 0 ? (p < last ? p : last) : 0;
	uint32_t lo = 0, hi = tr->key_count - 1;
	while (lo < hi) {   /* the last key at or before p */
		uint32_t mid = lo + (hi - lo + 1) / 2;

		if ((double)tr->samples[mid] <= p)
			lo = mid;
		else
			hi = mid - 1;
	}
	track_key_value(tr, kind, lo, out);
	if (lo + 1 >= tr->key_count || (double)tr->samples[lo] >= p)
		return;
	float b[4], u = (float)((p - tr->samples[lo]) / (double)(tr->samples[lo + 1] - tr->samples[lo]));
	track_key_value(tr, kind, lo + 1, b);
	if (kind == ANIMC_ROTATION)
		interp_slerp(out, out, b, u);
	else
		interp_lerp3(out, out, b, u);
}

/*
 * What the runtime's float position within a segment moves a track by,
 * beyond the rounding of its values: the position counts grid samples from
 * the segment's first in a float, below 64 in steps of up to 2^-18 of a
 * sample, which it rounds by up to half a step; the encoder measures at
 * positions in double precision.  So the track's largest change between
 * neighbouring grid samples (a translation's distance, a scale's largest
 * component) over 2^-19 of a sample: a scale changing by 26 a sample moved
 * 0.00005, half its bound of 0.0001.  Into *steepest that change.  A
 * rotation's none: its bound's margin covers it.
 */
#define POSITION_ROUNDING 0x1p-19
static double position_margin(const reduce_curve *c, double *steepest)
{
	*steepest = 0;
	if (c->kind == ANIMC_ROTATION)
		return 0;
	for (uint32_t i = 0; i + 1 < c->n; i++) {
		const float *a = c->value + (size_t)i * c->width;

		*steepest = fmax(*steepest, animc_track_error(c->kind, a, a + c->width));
	}
	return POSITION_ROUNDING * *steepest;
}

/* Keys, held within what float rounding leaves of the bound (c->bound
 * lowered so).  Where nothing is left a finer grid is tried, when its
 * samples would change less and one remains (e->is_grid_short); else no
 * grid holds them (the clip goes to the original layout), an error for ch. */
static animc_status keyed_bound(encoder *e, reduce_curve *c, const animc_channel *ch, animc_diag_sink *sink)
{
	double full = c->kind == ANIMC_TRANSLATION ? e->tolerance->translation : e->tolerance->scale, most;
	double steepest, position = position_margin(c, &steepest);

	c->bound = animc_reduce_keyed_bound(c, full, position, &most);
	if (c->bound > 0)
		return ANIMC_OK;
	bool is_steep = full - REDUCE_FLOAT_STEPS * FLT_EPSILON * most > 0;
	if (is_steep && e->has_finer) {
		/* A finer grid changes less a sample. */
		e->is_grid_short = true;
		return ANIMC_ERR_UNSUPPORTED;
	}
	if (is_steep)
		animc_clip_report(sink, ANIMC_ERROR, e->clip, ch,
				  "%s: values change by up to %g a grid sample, where the runtime's float "
				  "position (%g) leaves nothing of the tolerance's %g between keys",
				  animc_track_name[c->kind], steepest, position, full);
	else
		animc_clip_report(sink, ANIMC_ERROR, e->clip, ch,
				  "%s: values reach %g, where float32 steps (%g) leave nothing of the "
				  "tolerance's %g between keys", animc_track_name[c->kind], most,
				  REDUCE_FLOAT_STEPS * FLT_EPSILON * most, full);
	return ANIMC_ERR_UNSUPPORTED;
}

/*
 * Segments, at the clip range with the smallest header that stores it:
 * U8 for rotations, then f16, then f32.  Segments in the whole [-1, 1] (no
 * clip range) are U8's widest clip range, which a rotation's U8 range only
 * narrows (finer parts of it): 6 bytes more, a search less.  The other
 * kinds would only move where the segments' sub-ranges fall (on the Assimp
 * corpus, 89 bytes of 165,031 for all three, at 2.3 times the encoding
 * time).  True when segments are cheaper than the best choice so far.
 */
static bool try_segments(encoder *e, reduce_curve *c, track_choice *best)
{
	static const unsigned kinds[] = { COMPACT_RANGE_U8, COMPACT_RANGE_F16, COMPACT_RANGE_F32 };
	uint64_t before = best->kept ? best->cost_bits : UINT64_MAX;

	for (size_t i = c->kind == ANIMC_ROTATION ? 0 : 1; i < sizeof kinds / sizeof kinds[0]; i++)
		if (try_segmented(e, c, kinds[i], best))
			break;
	return best->kept && best->cost_bits < before;
}

static animc_status encode_track(encoder *e, animc_clip *clip, const animc_channel *ch, animc_track_kind kind,
				 animc_compact_track *out, animc_diag_sink *sink)
{
	const animc_track *t = &ch->tracks[kind];
	uint32_t n = e->g.sample_count;
	unsigned w = animc_track_width[kind];
	reduce_curve c;

	memset(out, 0, sizeof *out);
	if (!t->is_present) {
		out->kind = ANIMC_COMPACT_ABSENT;
		return ANIMC_OK;
	}
	animc_status status = sample_source(e, ch, kind, &c);
	if (status != ANIMC_OK)
		return status;
	if (t->value_count > 1 && ch->key_count > 1)
		e->error.keys_before += ch->key_count;

	/* Identity, then one value (short forms first), within the bound. */
	double err = animc_reduce_constant_error(&c, animc_reduce_identity(kind));
	if (err <= c.bound) {
		out->kind = ANIMC_COMPACT_IDENTITY;
		animc_reduce_note_error(&e->error, kind, err);
		e->error.tracks_identity++;
		return ANIMC_OK;
	}
	float held[4];
	animc_reduce_constant_candidate(&c, held);
	/* Short forms first; a translation first with its components near 0
	 * left out. */
	for (int pass = 0; pass < 4; pass++) {
		float v[4];
		unsigned dropped;
		bool is_zeroing = pass % 2 == 0;

		if (is_zeroing && kind != ANIMC_TRANSLATION)
			continue;
		if (!constant_store(kind, held, pass >= 2, is_zeroing ? 0.5f * (float)c.bound : 0.0f, v, &dropped))
			continue;
		err = animc_reduce_constant_error(&c, v);
		if (err <= c.bound) {
			out->kind = ANIMC_COMPACT_CONSTANT;
			e->error.tracks_constant++;
			out->is_f32 = pass >= 2;
			out->dropped = (uint8_t)dropped;
			memcpy(out->value, v, sizeof v);
			animc_reduce_note_error(&e->error, kind, err);
			return ANIMC_OK;
		}
	}

	status = keyed_bound(e, &c, ch, sink);
	if (status != ANIMC_OK)
		return status;

	/* Keys.  Rotations leave out one component: first the largest, then
	 * each other one whose range makes the keys cheaper. */
	unsigned dropped = kind == ANIMC_ROTATION ? choose_dropped(e->value, 0, n - 1) : 0, first_dropped = dropped;
	track_choice best;
	memset(&best, 0, sizeof best);
	/* a galloping search may pass a candidate no span reaches */
	const uint32_t *least = e->gallops ? NULL : e->least;
	if (least)
		track_least(e, &c);
	for (unsigned d = 0; d < (kind == ANIMC_ROTATION ? 5u : 1u); d++) {
		unsigned drop = d == 0 ? first_dropped : d - 1;
		float lo[3], hi[3];

		if (d > 0 && drop == first_dropped)
			continue;
		for (uint32_t i = 0; i < n; i++) {
			stored_components(kind, drop, e->value + (size_t)i * w, e->comps + (size_t)i * 3);
			for (int k = 0; k < 3; k++) {
				float v = e->comps[(size_t)i * 3 + k];

				lo[k] = i ? fminf(lo[k], v) : v;
				hi[k] = i ? fmaxf(hi[k], v) : v;
			}
		}
		for (unsigned kind_r = COMPACT_RANGE_NONE; kind_r <= COMPACT_RANGE_U8; kind_r++) {
			clip_range range;
			quantiser z;
			uint64_t before = best.kept ? best.cost_bits : UINT64_MAX;

			if ((kind_r == COMPACT_RANGE_NONE || kind_r == COMPACT_RANGE_U8) && kind != ANIMC_ROTATION)
				continue;
			if (!make_clip_range(kind_r, lo, hi, &range))
				continue;
			memset(&z, 0, sizeof z);
			z.kind = kind;
			z.dropped = drop;
			unsigned first = smallest_bits(&c, &z, range.min, range.extent, 0, n - 1, e->try_q, e->stored);
			for (unsigned bits = first; first && bits <= first + EXTRA_BITS && bits <= COMPACT_MAX_BITS;
			     bits++) {
				quantiser_set(&z, bits, range.min, range.extent);
				try_flat(e, &c, &z, &range, bits == first, least, &best);
			}
			if (best.kept && best.cost_bits < before)
				dropped = drop;
		}
		if (d == 0 && e->g.segment_count > 1 && try_segments(e, &c, &best))
			dropped = drop;
	}
	if (best.kept == 0) {
		clip_range none;
		quantiser z;

		memset(&none, 0, sizeof none);
		memset(&z, 0, sizeof z);
		z.kind = kind;
		quantiser_set(&z, COMPACT_RAW_BITS, none.min, none.extent);
		z.dropped = dropped;
		try_flat(e, &c, &z, &none, false, least, &best);
		if (best.kept == 0 && e->has_finer) {
			e->is_grid_short = true;
			return ANIMC_ERR_UNSUPPORTED;
		}
		if (best.kept == 0) {
			animc_clip_report(sink, ANIMC_ERROR, e->clip, ch,
					  "%s: the compact layout's grid (%g Hz) cannot hold the keys within "
					  "the tolerance", animc_track_name[kind],
					  (double)e->g.rate_hz);
			return ANIMC_ERR_UNSUPPORTED;
		}
	}

	/* The choice, stored. */
	out->kind = ANIMC_COMPACT_ANIMATED;
	if (best.bits == COMPACT_SEGMENTED)
		e->error.tracks_segmented++;
	else
		e->error.tracks_keyed++;
	out->dropped = (uint8_t)dropped;
	out->bits = (uint8_t)best.bits;
	out->range = (uint8_t)best.range.kind;
	for (int k = 0; k < 3; k++) {
		out->range_values[k] = best.range.min[k];
		out->range_values[3 + k] = best.range.extent[k];
	}
	memcpy(out->range_codes, best.range.codes, sizeof out->range_codes);
	out->key_count = best.kept;
	out->samples = animc_arena_alloc(&clip->arena, best.kept, sizeof *out->samples);
	out->q = animc_arena_alloc(&clip->arena, best.kept, 3 * sizeof *out->q);
	if (!out->samples || !out->q)
		return ANIMC_ERR_NOMEM;
	if (best.bits == COMPACT_SEGMENTED) {
		out->segment_codes = animc_arena_alloc(&clip->arena, e->g.segment_count, COMPACT_SEGMENT_CODE_SIZE);
		if (!out->segment_codes)
			return ANIMC_ERR_NOMEM;
		memcpy(out->segment_codes, e->best_seg_codes, (size_t)e->g.segment_count * COMPACT_SEGMENT_CODE_SIZE);
	}
	for (uint32_t i = 0, k = 0; i < n; i++) {
		if (!e->best_is_key[i])
			continue;
		out->samples[k] = i;
		memcpy(out->q + (size_t)k * 3, e->best_q + (size_t)i * 3, 3 * sizeof *out->q);
		k++;
	}

	/* Its error, measured again from the stored codes, as the runtime
	 * decodes them. */
	for (uint32_t k = 0; k < out->key_count; k++)
		track_key_value(out, kind, k, e->stored + (size_t)out->samples[k] * w);
	c.stored = e->stored;
	for (uint32_t k = 0; k + 1 < out->key_count; k++)
		animc_reduce_note_error(&e->error, kind,
				  animc_reduce_span_error(&c, out->samples[k], out->samples[k + 1], false));
	e->error.keys_after += out->key_count;
	return ANIMC_OK;
}

/* ------------------------------------------------------------------ pass */

static void encoder_release(encoder *e)
{
	free(e->forced);
	free(e->kept);
	free(e->least);
	free(e->value);
	free(e->stored);
	free(e->pos);
	free(e->check_pos);
	free(e->check_value);
	free(e->check_t);
	free(e->sample_t);
	free(e->extra);
	free(e->comps);
	free(e->seg_stored);
	free(e->q);
	free(e->is_key);
	free(e->best_is_key);
	free(e->try_q);
	free(e->best_q);
	free(e->seg_codes);
	free(e->best_seg_codes);
}

static animc_status encode_channel(encoder *e, animc_clip *clip, uint32_t i, animc_compact *out,
				   animc_diag_sink *sink)
{
	animc_status status = ANIMC_OK;

	for (int k = 0; status == ANIMC_OK && k < ANIMC_TRACK_COUNT; k++)
		status = encode_track(e, clip, &clip->channels[i], (animc_track_kind)k, &out->tracks[i][k], sink);
	return status;
}

/* With a skeleton: each channel within local bounds from the shell, then
 * rounds of measuring the model-space error and encoding again the chains
 * that pass it (shell.h). */
static animc_status encode_with_shell(encoder *e, animc_clip *clip, const animc_reduce_options *options,
				      animc_compact *out, animc_diag_sink *sink)
{
	uint32_t n = clip->channel_count;
	animc_tolerance *bounds = malloc((n ? n : 1) * sizeof *bounds);
	animc_clip_error *errors = calloc(n ? n : 1, sizeof *errors);
	uint8_t *dirty = malloc(n ? n : 1), *held = calloc(n ? n : 1, 1);
	animc_status status = bounds && errors && dirty && held ? ANIMC_OK : ANIMC_ERR_NOMEM;
	animc_reduce_options used = *options;
	shell s;
	int rounds = 0;
	double worst = 0;

	used.tolerance = *e->tolerance;   /* the defaults, when unset */
	memset(&s, 0, sizeof s);
	if (status == ANIMC_OK)
		status = animc_shell_init(&s, clip, &used, animc_reduce_channels_value, clip->channels, e->g.rate_hz);
	for (uint32_t i = 0; status == ANIMC_OK && i < n; i++) {
		animc_shell_local_tolerance(&s, i, &used.tolerance, &bounds[i]);
		dirty[i] = 1;
	}
	while (status == ANIMC_OK) {
		for (uint32_t i = 0; status == ANIMC_OK && i < n; i++) {
			if (!dirty[i])
				continue;
			/* Bounds this grid cannot hold take a finer grid first,
			 * as without a skeleton (compact_on_grid); the finest
			 * one tried loosens them until it can, and holds them
			 * there. */
			for (int loosen = 0;; loosen++) {
				memset(&e->error, 0, sizeof e->error);
				e->tolerance = &bounds[i];
				status = encode_channel(e, clip, i, out, loosen < SHELL_MAX_LOOSEN ? NULL : sink);
				if (status != ANIMC_ERR_UNSUPPORTED || e->is_grid_short || loosen == SHELL_MAX_LOOSEN)
					break;
				bounds[i].translation *= 2;
				bounds[i].rotation_deg *= 2;
				bounds[i].scale *= 2;
				held[i] = 1;
			}
			errors[i] = e->error;
		}
		if (status != ANIMC_OK)
			break;
		out->rate_hz = e->g.rate_hz;
		out->sample_count = e->g.sample_count;
		worst = animc_shell_measure(&s, animc_reduce_channels_value, clip->channels, encoded_value, out);
		memset(dirty, 0, n ? n : 1);
		if (++rounds == SHELL_MAX_ROUNDS || animc_shell_tighten(&s, bounds, held, dirty) == 0)
			break;
	}
	memset(&e->error, 0, sizeof e->error);
	if (status == ANIMC_OK) {
		for (uint32_t i = 0; i < n; i++)
			animc_reduce_merge_error(&e->error, &errors[i]);
		e->error.shell = worst;
		animc_shell_report(&s, clip, worst, rounds, sink);
	}
	e->tolerance = NULL;
	animc_shell_release(&s);
	free(bounds);
	free(errors);
	free(dirty);
	free(held);
	return status;
}

static animc_status compact_on_grid(animc_clip *clip, const animc_reduce_options *options,
				    const animc_tolerance *tolerance, unsigned finer, bool has_finer,
				    uint32_t most_keys, animc_diag_sink *sink, animc_pass_stats *stats, bool *is_short);

/* Whether no one value holds the track within `bound`: two of its keys lie
 * more than twice the bound apart (in a component, or in angle), and a
 * value within the bound of both would be nearer. */
static bool moves_past(const animc_track *tr, int kind, double bound)
{
	const unsigned width = animc_track_width[kind];
	const float *v = tr->values;

	if (!tr->is_present || tr->is_fixed)
		return false;
	for (uint32_t i = 1; i < tr->value_count; i++) {
		const float *w = v + (size_t)i * width;

		if (kind == ANIMC_ROTATION) {
			double dot = 0, na = 0, nb = 0;

			for (unsigned c = 0; c < 4; c++)
				dot += (double)v[c] * w[c], na += (double)v[c] * v[c], nb += (double)w[c] * w[c];
			double cosine = na > 0 && nb > 0 ? fabs(dot) / sqrt(na * nb) : 1;
			if (2 * acos(fmin(cosine, 1.0)) * 57.29577951308232 > 2.001 * bound)
				return true;
			continue;
		}
		for (unsigned c = 0; c < width; c++)
			if (fabs((double)w[c] - v[c]) > 2.001 * bound)
				return true;
	}
	return false;
}

/* The fewest payload bytes any encoding on a grid of `samples` samples
 * takes: every track no one value holds has a mask bit per sample and a
 * key of at least 3 bits at each segment's first sample and the last. */
static uint64_t least_payload_bytes(const animc_clip *clip, const animc_tolerance *tolerance, uint64_t samples)
{
	const double bounds[ANIMC_TRACK_COUNT] = { tolerance->translation, tolerance->rotation_deg,
						   tolerance->scale };
	uint64_t animated = 0, segments = (samples + COMPACT_SEGMENT_SAMPLES - 1) / COMPACT_SEGMENT_SAMPLES;

	for (uint32_t c = 0; c < clip->channel_count; c++)
		for (int k = 0; k < ANIMC_TRACK_COUNT; k++)
			animated += moves_past(&clip->channels[c].tracks[k], k, bounds[k]);
	return (animated * samples + 7) / 8 + (animated * (segments + 1) * 3) / 8;
}

animc_status animc_pass_compact(animc_clip *clip, const animc_reduce_options *options, animc_diag_sink *sink,
				animc_pass_stats *stats)
{
	int untried;

	if (animc_tolerance_check(options, sink) != ANIMC_OK)
		return ANIMC_ERR_ARGUMENT;
	return animc_compact_encode(clip, options, UINT64_MAX, &untried, sink, stats);
}

animc_status animc_compact_encode(animc_clip *clip, const animc_reduce_options *options, uint64_t most_bytes,
				  int *untried, animc_diag_sink *sink, animc_pass_stats *stats)
{
	static const animc_tolerance defaults = { ANIMC_TOLERANCE_TRANSLATION, ANIMC_TOLERANCE_ROTATION_DEG,
						  ANIMC_TOLERANCE_SCALE };
	const animc_tolerance *tolerance =
		options && animc_tolerance_is_set(&options->tolerance) ? &options->tolerance : &defaults;
	uint32_t most_keys = 0;

	for (uint32_t i = 0; i < clip->channel_count; i++) {
		const animc_channel *ch = &clip->channels[i];

		if (ch->duration_s != clip->duration_s) {
			animc_clip_report(sink, ANIMC_ERROR, clip, ch,
					  "its duration %g s is not the clip's %g s; the compact layout keeps "
					  "one duration per clip",
					  (double)ch->duration_s, (double)clip->duration_s);
			return ANIMC_ERR_UNSUPPORTED;
		}
		if (ch->key_count > most_keys)
			most_keys = ch->key_count;
	}
	/* The bound is measured every 1/60 s (FORMAT.md section 8). */
	if ((double)clip->duration_s * 60.0 > animc_shell_most_points(clip)) {
		animc_clip_report(sink, ANIMC_ERROR, clip, NULL,
				  "lasts %g s: measuring it every 1/60 s passes the compact encoder's limit of "
				  "%.0f points for its keys", (double)clip->duration_s, animc_shell_most_points(clip));
		return ANIMC_ERR_UNSUPPORTED;
	}
	/* The keys' grid, or a finer one where it cannot hold a track: never
	 * an error the original layout would not give.  Keys off the grid
	 * may need it down to a part as fine as GRID_MAX_DIVISOR allows, and
	 * as much finer again. */
	grid first;
	unsigned most_finer = COMPACT_MAX_FINER;

	if (find_grid(clip, 0, &first, NULL) == ANIMC_OK && !first.is_exact)
		for (unsigned d = GRID_MAX_DIVISOR; d > 1; d >>= 1)
			most_finer++;
	/* A jump the finest grid tried cannot hold fails at once, rather than
	 * after encoding on every grid up to it (minutes on a long clip).
	 * With a skeleton, the encoder loosens a bone's local bounds where its
	 * grid falls short, and the shell measure decides.  A grid of one
	 * sample over a duration holds no motion: where the keys move, they
	 * do so a float step apart (key_spacing), a jump. */
	jump j;
	bool has_shell = options && options->skeleton && options->shell_distance > 0 && tolerance->translation > 0;
	if (!has_shell && (first.sample_count > 1 || clip->duration_s > 0) &&
	    find_jump(clip, tolerance, first.step_s / (double)(1u << most_finer), &j)) {
		static const char *const units[ANIMC_TRACK_COUNT] = { "units", "degrees", "" };

		animc_clip_report(sink, ANIMC_ERROR, clip, &clip->channels[j.channel],
				  "%s: jumps by %g%s%s between two keys %g s apart (at %g s), which no compact grid "
				  "holds within the tolerance", animc_track_name[j.kind], j.by, *units[j.kind] ? " " : "",
				  units[j.kind], (double)j.apart_s, (double)j.at_s);
		return ANIMC_ERR_UNSUPPORTED;
	}
	*untried = -1;
	for (unsigned finer = 0;; finer++) {
		grid next, this;
		bool has_finer = finer < most_finer && find_grid(clip, finer + 1, &next, NULL) == ANIMC_OK;
		bool is_short = false;

		/* With no bytes given, a grid finer than the keys' spacing, or
		 * the keys' own when it is much finer than they are (uneven
		 * times), is left to the caller to weigh against the original
		 * layout.  With bytes, the grids from here on that cannot come
		 * under them need not be tried (a part cut between keys tried
		 * grids up to 256 times finer, minutes on a long one, to lose
		 * to the original layout; a glTF take's uneven keys on a grid
		 * of 40 kHz as long). */
		if (find_grid(clip, finer, &this, NULL) == ANIMC_OK &&
		    (most_bytes == 0 ? finer > 0 || this.sample_count > 2 * (uint64_t)most_keys :
		     !has_shell && least_payload_bytes(clip, tolerance, this.sample_count) > most_bytes)) {
			*untried = (int)finer;
			return ANIMC_ERR_UNSUPPORTED;
		}
		animc_status status =
			compact_on_grid(clip, options, tolerance, finer, has_finer, most_keys, sink, stats, &is_short);

		if (!is_short)
			return status;
	}
}

/* The compact encoding on the grid 2^finer times finer than the keys'; with
 * has_finer, *is_short (and nothing reported) when this one cannot hold a
 * track. */
static animc_status compact_on_grid(animc_clip *clip, const animc_reduce_options *options,
				    const animc_tolerance *tolerance, unsigned finer, bool has_finer,
				    uint32_t most_keys, animc_diag_sink *sink, animc_pass_stats *stats, bool *is_short)
{
	encoder e;
	animc_compact *out;
	animc_status status;

	memset(&e, 0, sizeof e);
	e.clip = clip;
	e.tolerance = tolerance;
	e.has_finer = has_finer;
	e.gallops = finer > 0;
	status = find_grid(clip, finer, &e.g, sink);
	if (status != ANIMC_OK)
		return status;
	size_t n = e.g.sample_count, segs = e.g.segment_count;
	e.forced = calloc(n, 1);
	e.kept = malloc(n * sizeof *e.kept);
	e.least = malloc(n * sizeof *e.least);
	e.value = malloc(n * 4 * sizeof *e.value);
	e.stored = malloc(n * 4 * sizeof *e.stored);
	e.seg_stored = malloc(n * 4 * sizeof *e.seg_stored);
	e.comps = malloc(n * 3 * sizeof *e.comps);
	e.pos = malloc(n * sizeof *e.pos);
	e.sample_t = malloc(n * sizeof *e.sample_t);
	e.extra_capacity = 2 * most_keys + (uint32_t)fmin(clip->duration_s * 60.0, (double)COMPACT_MAX_SAMPLES) + 3;
	e.extra = malloc((size_t)e.extra_capacity * sizeof *e.extra);
	e.q = malloc(n * 3 * sizeof *e.q);
	e.is_key = malloc(n);
	e.best_is_key = malloc(n);
	e.try_q = calloc(n * 3, sizeof *e.try_q);
	e.best_q = malloc(n * 3 * sizeof *e.best_q);
	e.seg_codes = malloc(segs * COMPACT_SEGMENT_CODE_SIZE);
	e.best_seg_codes = malloc(segs * COMPACT_SEGMENT_CODE_SIZE);
	out = animc_arena_alloc(&clip->arena, 1, sizeof *out);
	if (out) {
		out->bones = animc_arena_alloc(&clip->arena, clip->channel_count ? clip->channel_count : 1,
					       sizeof *out->bones);
		out->tracks = animc_arena_alloc(&clip->arena, clip->channel_count ? clip->channel_count : 1,
						sizeof *out->tracks);
	}
	if (!e.forced || !e.kept || !e.least || !e.value || !e.stored || !e.seg_stored || !e.comps || !e.pos || !e.sample_t ||
	    !e.extra || !e.q || !e.is_key || !e.best_is_key || !e.try_q || !e.best_q ||
	    !e.seg_codes || !e.best_seg_codes || !out || !out->bones || !out->tracks) {
		encoder_release(&e);
		return ANIMC_ERR_NOMEM;
	}
	for (size_t i = 0; i < n; i++)
		e.forced[i] = i % COMPACT_SEGMENT_SAMPLES == 0 || i + 1 == n;
	out->duration_s = clip->duration_s;
	out->rate_hz = e.g.rate_hz;
	out->sample_count = e.g.sample_count;
	out->segment_count = e.g.segment_count;
	out->bone_count = clip->channel_count;
	for (uint32_t i = 0; i < clip->channel_count; i++)
		out->bones[i] = clip->channels[i].bone;
	if (options && options->skeleton && options->shell_distance > 0 && e.tolerance->translation > 0)
		status = encode_with_shell(&e, clip, options, out, sink);
	else
		for (uint32_t i = 0; status == ANIMC_OK && i < clip->channel_count; i++)
			status = encode_channel(&e, clip, i, out, sink);
	e.error.grid_finer = finer;
	out->error = e.error;
	out->grid_finer = (uint8_t)finer;
	*is_short = status == ANIMC_ERR_UNSUPPORTED && e.is_grid_short;
	encoder_release(&e);
	if (status != ANIMC_OK)
		return status;
	if (finer)
		animc_clip_report(sink, ANIMC_NOTE, clip, NULL,
				  "the compact grid is %u times finer than the keys' spacing (%g Hz): at the "
				  "keys' own rate a track could not stay within the tolerance",
				  1u << finer, (double)out->rate_hz);
	clip->compact = out;
	if (stats) {
		stats->is_reduced = true;
		stats->error = out->error;
	}
	return ANIMC_OK;
}
