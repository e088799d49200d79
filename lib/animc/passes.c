/*
 * passes.c - the processor passes (sort, fixed, merge, uniform) and the
 * default pipeline that chains them.  Each pass takes a clip and leaves a
 * clip; none reads a clock or a global, so the same input gives the same
 * output.  New arrays come from the clip's arena.
 */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <animc/animc.h>
#include "clip_internal.h"
#include "compact_layout.h"
#include "xnb_layout.h"

/* ------------------------------------------------------------ interpolation */

void animc_vec_lerp(const float *a, const float *b, unsigned width, double u, float *out)
{
	for (unsigned i = 0; i < width; i++)
		out[i] = (float)(a[i] + ((double)b[i] - a[i]) * u);
}

void animc_quat_slerp(const float a[4], const float b[4], double u, float out[4])
{
	double dot = 0, sign = 1, w0, w1;

	for (int i = 0; i < 4; i++)
		dot += (double)a[i] * b[i];
	if (dot < 0) {
		dot = -dot;
		sign = -1;
	}
	if (dot > 0.999999) {
		w0 = 1.0 - u;
		w1 = u;
	} else {
		double angle = acos(dot), inv = 1.0 / sin(angle);

		w0 = sin((1.0 - u) * angle) * inv;
		w1 = sin(u * angle) * inv;
	}
	for (int i = 0; i < 4; i++)
		out[i] = (float)(w0 * a[i] + sign * w1 * b[i]);
}

/* -------------------------------------------------------------- utilities */

static bool is_sorted(const float *t, uint32_t n, bool strictly)
{
	for (uint32_t i = 1; i < n; i++)
		if (strictly ? t[i] <= t[i - 1] : t[i] < t[i - 1])
			return false;
	return true;
}

/* Stable bottom-up merge sort of key indices by time.  Returns NULL when out
 * of memory; the caller frees the result. */
static uint32_t *sorted_order(const float *t, uint32_t n)
{
	uint32_t *a = malloc((size_t)n * sizeof *a);
	uint32_t *b = malloc((size_t)n * sizeof *b);

	if (!a || !b) {
		free(a);
		free(b);
		return NULL;
	}
	for (uint32_t i = 0; i < n; i++)
		a[i] = i;
	for (size_t width = 1; width < n; width *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * width) {
			size_t mid = lo + width < n ? lo + width : n;
			size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
			size_t i = lo, j = mid, k = lo;

			while (i < mid && j < hi)
				b[k++] = t[a[j]] < t[a[i]] ? a[j++] : a[i++];
			while (i < mid)
				b[k++] = a[i++];
			while (j < hi)
				b[k++] = a[j++];
		}
		uint32_t *swap = a;
		a = b;
		b = swap;
	}
	free(b);
	return a;
}

/* Reorder n items of `width` floats by `order`; false when out of memory. */
static bool permute(float *v, const uint32_t *order, uint32_t n, unsigned width)
{
	float *tmp = malloc((size_t)n * width * sizeof *tmp);

	if (!tmp)
		return false;
	for (uint32_t i = 0; i < n; i++)
		memcpy(&tmp[(size_t)i * width], &v[(size_t)order[i] * width], width * sizeof *v);
	memcpy(v, tmp, (size_t)n * width * sizeof *v);
	free(tmp);
	return true;
}

/* ------------------------------------------------------------------- sort */

static animc_status sort_timeline(animc_clip *clip, animc_channel *ch, animc_diag_sink *sink,
				  animc_pass_stats *stats)
{
	uint32_t *order;
	bool ok;

	if (!ch->has_time || !ch->times_s || is_sorted(ch->times_s, ch->key_count, false))
		return ANIMC_OK;
	/* Only tracks whose value count matches can move with the times;
	 * validation reports the others. */
	for (int k = 0; k < ANIMC_TRACK_COUNT; k++) {
		const animc_track *t = &ch->tracks[k];

		if (t->is_present && !t->is_fixed && !t->times_s && t->value_count != ch->key_count)
			return ANIMC_OK;
	}
	order = sorted_order(ch->times_s, ch->key_count);
	if (!order)
		return ANIMC_ERR_NOMEM;
	ok = permute(ch->times_s, order, ch->key_count, 1);
	for (int k = 0; ok && k < ANIMC_TRACK_COUNT; k++) {
		animc_track *t = &ch->tracks[k];

		if (t->is_present && !t->is_fixed && !t->times_s)
			ok = permute(t->values, order, ch->key_count, animc_track_width[k]);
	}
	free(order);
	if (!ok)
		return ANIMC_ERR_NOMEM;
	animc_clip_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_KEYS_OUT_OF_ORDER, clip, ch,
			       "keys were not in time order; sorted them: check the exporter or the file, "
			       "keys go in time order");
	if (stats)
		stats->channels_sorted++;
	return ANIMC_OK;
}

static animc_status sort_own_times(animc_clip *clip, animc_channel *ch, animc_track_kind kind,
				   animc_diag_sink *sink, animc_pass_stats *stats)
{
	animc_track *t = &ch->tracks[kind];
	unsigned width = animc_track_width[kind];
	uint32_t kept = 0, dropped;

	if (!t->is_present || !t->times_s || is_sorted(t->times_s, t->value_count, true))
		return ANIMC_OK;
	if (!is_sorted(t->times_s, t->value_count, false)) {
		uint32_t *order = sorted_order(t->times_s, t->value_count);
		bool ok;

		if (!order)
			return ANIMC_ERR_NOMEM;
		ok = permute(t->times_s, order, t->value_count, 1) &&
		     permute(t->values, order, t->value_count, width);
		free(order);
		if (!ok)
			return ANIMC_ERR_NOMEM;
		animc_clip_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_KEYS_OUT_OF_ORDER, clip, ch,
				       "%s keys were not in time order; sorted them: check the exporter or the "
				       "file, keys go in time order", animc_track_name[kind]);
		if (stats)
			stats->channels_sorted++;
	}
	/* Keys at one time: the last one wins (stable sort kept source order). */
	for (uint32_t i = 0; i < t->value_count; i++) {
		if (kept && t->times_s[i] == t->times_s[kept - 1]) {
			kept--;
		}
		t->times_s[kept] = t->times_s[i];
		memmove(&t->values[(size_t)kept * width], &t->values[(size_t)i * width],
			width * sizeof *t->values);
		kept++;
	}
	dropped = t->value_count - kept;
	t->value_count = kept;
	if (dropped) {
		animc_clip_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_SHARED_KEY_TIME, clip, ch,
				  "%u %s key%s shared a time with a later key; kept the later value: "
				  "export one key per time (a step is two keys a frame apart)", dropped,
				  animc_track_name[kind], dropped == 1 ? "" : "s");
		if (stats)
			stats->duplicate_keys_dropped += dropped;
	}
	return ANIMC_OK;
}

animc_status animc_pass_sort(animc_clip *clip, animc_diag_sink *sink, animc_pass_stats *stats)
{
	for (uint32_t i = 0; i < clip->channel_count; i++) {
		animc_channel *ch = &clip->channels[i];
		animc_status status = sort_timeline(clip, ch, sink, stats);

		for (int k = 0; status == ANIMC_OK && k < ANIMC_TRACK_COUNT; k++)
			status = sort_own_times(clip, ch, (animc_track_kind)k, sink, stats);
		if (status != ANIMC_OK)
			return status;
	}
	return ANIMC_OK;
}

/* ------------------------------------------------------------------ fixed */

animc_status animc_pass_fixed(animc_clip *clip, animc_diag_sink *sink, animc_pass_stats *stats)
{
	(void)sink;
	for (uint32_t i = 0; i < clip->channel_count; i++) {
		animc_channel *ch = &clip->channels[i];
		bool moving = false;

		for (int k = 0; k < ANIMC_TRACK_COUNT; k++) {
			animc_track *t = &ch->tracks[k];
			size_t width = animc_track_width[k];
			uint32_t n = t->value_count;
			bool constant = true;

			if (!t->is_present || t->is_fixed || t->times_s || n == 0 || n != ch->key_count)
				continue;
			for (uint32_t j = 1; j < n && constant; j++)
				constant = memcmp(&t->values[j * width], t->values, width * sizeof(float)) == 0;
			if (!constant) {
				moving = true;
				continue;
			}
			t->is_fixed = true;
			t->value_count = 1;
			if (stats)
				stats->tracks_made_fixed++;
		}
		for (int k = 0; k < ANIMC_TRACK_COUNT; k++)
			if (ch->tracks[k].is_present && ch->tracks[k].times_s)
				moving = true;
		if (!moving && ch->key_count > 1) {
			ch->key_count = 1;
			ch->has_time = false;
			ch->times_s = NULL;
			if (stats)
				stats->channels_collapsed++;
		}
	}
	return ANIMC_OK;
}

/* ------------------------------------------------------------------ merge */

static int compare_float(const void *pa, const void *pb)
{
	float a = *(const float *)pa, b = *(const float *)pb;

	return (a > b) - (a < b);
}

/* The channel timeline's time of key i (explicit or uniform). */
static float timeline_time(const animc_channel *ch, uint32_t i)
{
	return ch->has_time ? ch->times_s[i] : (float)((double)i * ch->key_interval_s);
}

/* Evaluate keys (times t, n values) at time x: clamp outside, interpolate
 * inside. */
static void evaluate(const float *t, const float *v, uint32_t n, animc_track_kind kind,
		     float x, float *out)
{
	unsigned width = animc_track_width[kind];
	uint32_t lo = 0, hi = n - 1;

	if (n == 1 || x <= t[0]) {
		memcpy(out, v, width * sizeof *out);
		return;
	}
	if (x >= t[n - 1]) {
		memcpy(out, &v[(size_t)(n - 1) * width], width * sizeof *out);
		return;
	}
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (t[mid] <= x)
			lo = mid;
		else
			hi = mid;
	}
	/* At one of its own keys a track is that key, bit for bit; most union
	 * times are (tracks keyed alike), and slerp would cost acos and sin to
	 * give back nearly the same value. */
	if (x == t[lo]) {
		memcpy(out, &v[(size_t)lo * width], width * sizeof *out);
		return;
	}
	double u = ((double)x - t[lo]) / ((double)t[hi] - t[lo]);
	const float *a = &v[(size_t)lo * width], *b = &v[(size_t)hi * width];

	if (kind == ANIMC_ROTATION)
		animc_quat_slerp(a, b, u, out);
	else
		animc_vec_lerp(a, b, width, u, out);
}

static animc_status merge_channel(animc_clip *clip, animc_channel *ch, animc_pass_stats *stats)
{
	float *src_times[ANIMC_TRACK_COUNT] = { 0 };
	float *union_times;
	size_t total = 0;
	uint32_t n = 0;

	/* Tracks with one key are fixed; the others contribute their times. */
	for (int k = 0; k < ANIMC_TRACK_COUNT; k++) {
		animc_track *t = &ch->tracks[k];

		if (!t->is_present || t->is_fixed)
			continue;
		if (t->times_s && t->value_count == 1) {
			t->times_s = NULL;
			t->is_fixed = true;
			continue;
		}
		if (!t->times_s) {
			/* Already on the old channel timeline: give it explicit times. */
			float *times = animc_clip_alloc_floats(clip, ch->key_count);

			if (!times)
				return ANIMC_ERR_NOMEM;
			for (uint32_t i = 0; i < ch->key_count; i++)
				times[i] = timeline_time(ch, i);
			t->times_s = times;
		}
		src_times[k] = t->times_s;
		total += t->value_count;
	}
	if (total == 0) {
		ch->key_count = 1;
		ch->has_time = false;
		ch->times_s = NULL;
		return ANIMC_OK;
	}
	if (total > UINT32_MAX)
		return ANIMC_ERR_LIMIT;
	union_times = animc_clip_alloc_floats(clip, total);
	if (!union_times)
		return ANIMC_ERR_NOMEM;
	for (int k = 0; k < ANIMC_TRACK_COUNT; k++) {
		if (src_times[k]) {
			memcpy(&union_times[n], src_times[k], ch->tracks[k].value_count * sizeof(float));
			n += ch->tracks[k].value_count;
		}
	}
	qsort(union_times, n, sizeof *union_times, compare_float);
	uint32_t unique = 0;
	for (uint32_t i = 0; i < n; i++)
		if (unique == 0 || union_times[i] != union_times[unique - 1])
			union_times[unique++] = union_times[i];

	for (int k = 0; k < ANIMC_TRACK_COUNT; k++) {
		animc_track *t = &ch->tracks[k];
		unsigned width = animc_track_width[k];
		float *values;

		if (!src_times[k])
			continue;
		values = animc_clip_alloc_values(clip, (animc_track_kind)k, unique);
		if (!values)
			return ANIMC_ERR_NOMEM;
		for (uint32_t i = 0; i < unique; i++)
			evaluate(t->times_s, t->values, t->value_count, (animc_track_kind)k,
				 union_times[i], &values[(size_t)i * width]);
		if (k == ANIMC_ROTATION) {
			for (uint32_t i = 1; i < unique; i++) {
				float *q = &values[(size_t)i * 4], *p = q - 4;

				if ((double)p[0] * q[0] + (double)p[1] * q[1] + (double)p[2] * q[2] +
					    (double)p[3] * q[3] < 0) {
					for (int c = 0; c < 4; c++)
						q[c] = -q[c];
					if (stats)
						stats->rotations_flipped++;
				}
			}
		}
		t->values = values;
		t->value_count = unique;
		t->times_s = NULL;
	}
	ch->times_s = union_times;
	ch->key_count = unique;
	ch->has_time = true;
	if (stats)
		stats->channels_merged++;
	return ANIMC_OK;
}

animc_status animc_pass_merge(animc_clip *clip, animc_diag_sink *sink, animc_pass_stats *stats)
{
	(void)sink;
	for (uint32_t i = 0; i < clip->channel_count; i++) {
		animc_channel *ch = &clip->channels[i];
		bool own = false;

		for (int k = 0; k < ANIMC_TRACK_COUNT; k++)
			own |= ch->tracks[k].is_present && ch->tracks[k].times_s;
		if (own) {
			animc_status status = merge_channel(clip, ch, stats);

			if (status != ANIMC_OK)
				return status;
		}
	}
	return ANIMC_OK;
}

/* ------------------------------------------------------------------- trim */

static bool is_finite_increasing(const float *t, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (!isfinite(t[i]) || (i && !(t[i] > t[i - 1])))
			return false;
	return true;
}

/* Cut one track with its own times to [0, end]; *dropped counts the keys
 * that went. */
static animc_status trim_track(animc_clip *clip, animc_track *t, animc_track_kind kind, float end,
			       uint32_t *dropped)
{
	unsigned width = animc_track_width[kind];
	uint32_t n = t->value_count, first = 0, past = n, count;
	bool at_start, at_end;
	float *times, *values;

	*dropped = 0;
	if (n == 0 || !is_finite_increasing(t->times_s, n) || (t->times_s[0] >= 0 && t->times_s[n - 1] <= end))
		return ANIMC_OK;
	while (first < n && t->times_s[first] < 0)
		first++;
	while (past > first && t->times_s[past - 1] > end)
		past--;
	/* Keys at 0 and at the end, unless a kept key is there already. */
	at_start = first > 0 && !(first < past && t->times_s[first] == 0);
	at_end = past < n && !(past > first && t->times_s[past - 1] == end) && !(end == 0 && at_start);
	count = (past - first) + at_start + at_end;
	times = animc_clip_alloc_floats(clip, count);
	values = animc_clip_alloc_values(clip, kind, count);
	if (!times || !values)
		return ANIMC_ERR_NOMEM;
	uint32_t k = 0;
	if (at_start) {
		times[k] = 0;
		evaluate(t->times_s, t->values, n, kind, 0, values);
		k++;
	}
	memcpy(&times[k], &t->times_s[first], (past - first) * sizeof *times);
	memcpy(&values[(size_t)k * width], &t->values[(size_t)first * width],
	       (size_t)(past - first) * width * sizeof *values);
	k += past - first;
	if (at_end) {
		times[k] = end;
		evaluate(t->times_s, t->values, n, kind, end, &values[(size_t)k * width]);
	}
	*dropped = n - (past - first);
	t->times_s = times;
	t->values = values;
	t->value_count = count;
	return ANIMC_OK;
}

animc_status animc_pass_trim(animc_clip *clip, animc_diag_sink *sink, animc_pass_stats *stats)
{
	uint32_t total = 0;
	float end = clip->duration_s;

	if (!isfinite(end) || end < 0)
		return ANIMC_OK;   /* validation reports it */
	for (uint32_t i = 0; i < clip->channel_count; i++) {
		animc_channel *ch = &clip->channels[i];

		for (int k = 0; k < ANIMC_TRACK_COUNT; k++) {
			animc_track *t = &ch->tracks[k];
			uint32_t dropped;
			animc_status status;

			if (!t->is_present || !t->times_s)
				continue;
			status = trim_track(clip, t, (animc_track_kind)k, end, &dropped);
			if (status != ANIMC_OK)
				return status;
			total += dropped;
		}
	}
	/* A take's pre- and post-roll: what the clip plays is right. */
	if (total) {
		animc_clip_report(sink, ANIMC_NOTE, clip, NULL,
				  "%u key%s outside the clip's range, 0 to %g s (the take's pre- or post-roll); "
				  "dropped %s, and interpolated the values at 0 and %g s from the keys on either side",
				  total, total == 1 ? " lies" : "s lie", (double)end, total == 1 ? "it" : "them",
				  (double)end);
		if (stats)
			stats->keys_trimmed += total;
	}
	return ANIMC_OK;
}

/* ---------------------------------------------------------------- uniform */

/* Evenly spaced within float precision: each time within a few ulps of i*d. */
bool animc_times_evenly_spaced(const float *t, uint32_t n, float *interval)
{
	double d;
	float df;

	if (t[0] != 0 || !(t[n - 1] > 0))
		return false;
	d = (double)t[n - 1] / (n - 1);
	df = (float)d;
	if (!(df > 0))
		return false;
	for (uint32_t i = 1; i < n; i++) {
		double want = (double)i * df;
		double tolerance = 4.0 * FLT_EPSILON * fmax(fabs(want), df);

		if (fabs((double)t[i] - want) > tolerance)
			return false;
	}
	*interval = df;
	return true;
}

animc_status animc_pass_uniform(animc_clip *clip, animc_diag_sink *sink, animc_pass_stats *stats)
{
	(void)sink;
	for (uint32_t i = 0; i < clip->channel_count; i++) {
		animc_channel *ch = &clip->channels[i];
		float interval;

		if (!ch->has_time || !ch->times_s)
			continue;
		if (ch->key_count == 1) {
			ch->has_time = false;
			ch->times_s = NULL;
		} else if (animc_times_evenly_spaced(ch->times_s, ch->key_count, &interval)) {
			ch->has_time = false;
			ch->times_s = NULL;
			ch->key_interval_s = interval;
		} else {
			continue;
		}
		if (stats)
			stats->channels_made_uniform++;
	}
	return ANIMC_OK;
}

/* -------------------------------------------------------------- pipeline */

/* The compact pass's error, held back while the pipeline decides whether
 * the original layout writes the clip instead; its notes and warnings go
 * through as they come. */
typedef struct held_error {
	animc_diag_sink *to;
	bool has;
	char message[1024];
} held_error;

static void hold_error(void *user, const animc_diag *d)
{
	held_error *h = user;

	if (d->severity != ANIMC_ERROR) {
		animc_diag_report(h->to, d->severity, d->line, d->column, "%s", d->message);
	} else if (!h->has) {
		snprintf(h->message, sizeof h->message, "%s", d->message);
		h->has = true;
	}
}

/* The passes of the original layout from the reduction (reduce NULL: none)
 * on; is_uniform: the uniform pass too (not in exact mode). */
static animc_status original_from_reduce(animc_clip *clip, const animc_reduce_options *reduce, bool is_uniform,
					 animc_diag_sink *sink, animc_pass_stats *stats)
{
	animc_validate_options writable = { ANIMC_STAGE_WRITABLE, false };
	animc_status status = ANIMC_OK;

	/* Evenly spaced keys are written with a KeyInterval, which the
	 * runtime steps by in float: over a long take key k plays a little
	 * off its source time (10 minutes of keys 0.0333333 s apart drift by
	 * 2.4e-5 s).  The reduction measures against what the lossless file
	 * plays, so the first pass makes them uniform before it. */
	if (reduce && is_uniform)
		status = animc_pass_uniform(clip, sink, stats);
	if (status == ANIMC_OK && reduce)
		status = animc_pass_reduce(clip, reduce, sink, stats);
	if (status == ANIMC_OK && is_uniform)
		status = animc_pass_uniform(clip, sink, stats);
	if (status == ANIMC_OK)
		status = animc_pass_playable(clip, sink, stats);
	if (status == ANIMC_OK)
		status = animc_clip_validate(clip, &writable, sink);
	if (status == ANIMC_OK)
		status = animc_clip_check_playable(clip, ANIMC_ERROR, sink);
	return status;
}

/* The clip as the lossless passes left it before the uniform and playable
 * passes: what --tolerance reduces, so that a clip the compact layout
 * declines is written as --tolerance writes it. */
typedef struct before_uniform {
	animc_channel *channels;   /* copies, their arrays in the clip's arena */
	float duration_s;
	animc_pass_stats stats;
} before_uniform;

static animc_status keep_before_uniform(animc_clip *clip, const animc_pass_stats *stats, before_uniform *b)
{
	b->channels = animc_arena_alloc(&clip->arena, clip->channel_count ? clip->channel_count : 1,
					sizeof *b->channels);
	if (!b->channels)
		return ANIMC_ERR_NOMEM;
	for (uint32_t i = 0; i < clip->channel_count; i++)
		if (animc_channel_copy(clip, &clip->channels[i], &b->channels[i]) != ANIMC_OK)
			return ANIMC_ERR_NOMEM;
	b->duration_s = clip->duration_s;
	if (stats)
		b->stats = *stats;
	return ANIMC_OK;
}

/* Errors through to `to`; notes and warnings the first run of the same
 * passes gave already, so not again. */
static void errors_only(void *user, const animc_diag *d)
{
	if (d->severity == ANIMC_ERROR)
		animc_diag_report(user, d->severity, d->line, d->column, "%s", d->message);
}

/* The original layout reduced within the compact one's tolerance, from the
 * clip as the lossless passes left it: as --tolerance writes it. */
static animc_status original_within(animc_clip *clip, const animc_reduce_options *reduce,
				    const before_uniform *before, animc_diag_sink *sink, animc_pass_stats *stats)
{
	animc_reduce_options original = *reduce;

	if (!animc_tolerance_is_set(&original.tolerance))
		original.tolerance = (animc_tolerance){ ANIMC_TOLERANCE_TRANSLATION, ANIMC_TOLERANCE_ROTATION_DEG,
							ANIMC_TOLERANCE_SCALE };
	clip->compact = NULL;
	if (clip->channel_count)   /* a clip of no channels may have no array */
		memcpy(clip->channels, before->channels, clip->channel_count * sizeof *clip->channels);
	clip->duration_s = before->duration_s;
	if (stats)
		*stats = before->stats;
	animc_status status = animc_pass_uniform(clip, sink, stats);   /* as original_from_reduce */

	if (status == ANIMC_OK)
		status = animc_pass_reduce(clip, &original, sink, stats);
	animc_diag_sink errors = { errors_only, sink, sink ? sink->path : NULL, 0, 0 };
	return status == ANIMC_OK ? original_from_reduce(clip, NULL, true, &errors, stats) : status;
}

/* Diagnostics held while the pipeline weighs the two layouts, given on
 * when the layout they came with is the one written. */
typedef struct held_diag {
	animc_severity severity;
	uint32_t line, column;
	const char *kind;   /* animc_warning_kinds' name, or NULL */
	char *message;
} held_diag;

typedef struct held_diags {
	held_diag *list;
	size_t count, capacity;
	bool is_nomem;
} held_diags;

static void hold_diag(void *user, const animc_diag *d)
{
	held_diags *h = user;

	if (h->count == h->capacity) {
		size_t capacity = h->capacity ? 2 * h->capacity : 8;
		held_diag *list = realloc(h->list, capacity * sizeof *list);

		if (!list) {
			h->is_nomem = true;
			return;
		}
		h->list = list;
		h->capacity = capacity;
	}
	char *message = strdup(d->message);
	if (!message) {
		h->is_nomem = true;
		return;
	}
	h->list[h->count++] = (held_diag){ d->severity, d->line, d->column, d->kind, message };
}

static void held_diags_give(const held_diags *h, animc_diag_sink *to)
{
	for (size_t i = 0; i < h->count; i++) {
		const held_diag *d = &h->list[i];

		if (d->kind)
			animc_diag_report_kind(to, d->severity, animc_warning_kind_find(d->kind), d->line, d->column,
					       "%s", d->message);
		else
			animc_diag_report(to, d->severity, d->line, d->column, "%s", d->message);
	}
}

static void held_diags_release(held_diags *h)
{
	for (size_t i = 0; i < h->count; i++)
		free(h->list[i].message);
	free(h->list);
}

/* The bytes of an XNB file (uncompressed) whose payload `reader` reads. */
static uint64_t xnb_file_bytes(const char *reader, uint64_t payload_bytes)
{
	uint32_t len = (uint32_t)strlen(reader);

	return XNB_HEADER_SIZE + xnb_7bit_size(XNB_READER_COUNT) + xnb_7bit_size(len) + len + 4 +
	       xnb_7bit_size(XNB_SHARED_RESOURCES) + xnb_7bit_size(XNB_PRIMARY_READER_INDEX) + payload_bytes;
}

/* The original layout's payload of the clip (FORMAT.md section 2). */
static uint64_t original_payload_bytes(const animc_clip *clip)
{
	uint64_t bytes = XNB_CLIP_HEAD_SIZE;

	for (uint32_t i = 0; i < clip->channel_count; i++) {
		const animc_channel *ch = &clip->channels[i];
		uint32_t len = (uint32_t)strlen(ch->bone);

		bytes += xnb_7bit_size(len) + len + XNB_SEQUENCE_HEAD_SIZE;
		for (int k = 0; k < ANIMC_TRACK_COUNT; k++)
			bytes += 4 + (uint64_t)(ch->tracks[k].is_present ? ch->tracks[k].value_count : 0) * 4 *
					     xnb_list_width[k];
		bytes += 4 + (uint64_t)(ch->has_time ? ch->key_count : 0) * 4 * xnb_list_width[XNB_LIST_TIME];
	}
	return bytes;
}

/* The clip as a pass left it, to come back to: its channels (their
 * arrays stay in the arena; the passes after it make new ones or change
 * the copies before_uniform keeps), duration, stats and compact encoding. */
typedef struct clip_state {
	animc_channel *channels;
	float duration_s;
	animc_pass_stats stats;
	const animc_compact *compact;
} clip_state;

static bool keep_state(animc_clip *clip, const animc_pass_stats *stats, clip_state *s)
{
	s->channels = animc_arena_alloc(&clip->arena, clip->channel_count ? clip->channel_count : 1,
					sizeof *s->channels);
	if (!s->channels)
		return false;
	if (clip->channel_count)
		memcpy(s->channels, clip->channels, clip->channel_count * sizeof *s->channels);
	s->duration_s = clip->duration_s;
	s->stats = stats ? *stats : (animc_pass_stats){ 0 };
	s->compact = clip->compact;
	return true;
}

static void put_state(animc_clip *clip, const clip_state *s, animc_pass_stats *stats)
{
	if (clip->channel_count)
		memcpy(clip->channels, s->channels, clip->channel_count * sizeof *clip->channels);
	clip->duration_s = s->duration_s;
	clip->compact = s->compact;
	if (stats)
		*stats = s->stats;
}

/*
 * A compact grid finer than the keys' spacing (their times lie off every
 * grid from 0, as in a part --split cuts between keys) takes a mask bit per
 * sample and track and a key at every 64th sample, and can pass the
 * original layout reduced within the same tolerance.  Only then is that
 * reduced too (a clip on its keys' grid pays for no second reduction), and
 * the smaller file written: the original with a warning, as when the
 * compact layout cannot hold a clip.  The encoder tries no finer grid whose
 * masks alone pass the original's bytes.
 */
static animc_status smaller_layout(animc_clip *clip, const animc_reduce_options *reduce,
				   const before_uniform *before, animc_diag_sink *quiet, held_error *compact_error,
				   animc_diag_sink *sink, animc_pass_stats *stats)
{
	clip_state compact_input, original;
	held_diags held = { 0 };
	animc_diag_sink holding = { hold_diag, &held, sink ? sink->path : NULL, 0, 0 };
	uint64_t compact_head = xnb_file_bytes(COMPACT_READER_NAME_DEFAULT, 0), compact_bytes = 0;
	int untried = -1;

	if (!keep_state(clip, stats, &compact_input))
		return ANIMC_ERR_NOMEM;
	animc_status status = original_within(clip, reduce, before, &holding, stats);
	uint64_t original_bytes = xnb_file_bytes(XNB_READER_NAME_DEFAULT, original_payload_bytes(clip));
	bool has_original = status == ANIMC_OK && !held.is_nomem;

	if (status == ANIMC_ERR_NOMEM || held.is_nomem || !keep_state(clip, stats, &original)) {
		held_diags_release(&held);
		return ANIMC_ERR_NOMEM;
	}
	put_state(clip, &compact_input, stats);
	status = animc_compact_encode(clip, reduce, has_original ? original_bytes - compact_head : UINT64_MAX,
				      &untried, quiet, stats);
	if (status == ANIMC_OK) {
		uint8_t *payload;
		size_t payload_size;

		status = animc_compact_write(clip, &payload, &payload_size, sink);
		if (status == ANIMC_OK) {
			free(payload);
			compact_bytes = xnb_file_bytes(COMPACT_READER_NAME_DEFAULT, payload_size);
		}
	}
	if (status == ANIMC_OK && !(has_original && original_bytes < compact_bytes)) {
		held_diags_release(&held);
		return ANIMC_OK;
	}
	/* Neither layout to write: compact's error (the original's are
	 * what compact said first in other words). */
	if (status == ANIMC_ERR_NOMEM ||
	    (status != ANIMC_OK && untried < 0 && !(has_original && compact_error->has))) {
		held_diags_release(&held);
		if (compact_error->has && status != ANIMC_ERR_NOMEM)
			animc_diag_report(sink, ANIMC_ERROR, 0, 0, "%s", compact_error->message);
		return status;
	}
	const animc_compact *compact = status == ANIMC_OK ? clip->compact : NULL;
	put_state(clip, &original, stats);
	if (compact && compact->grid_finer == 0)
		animc_clip_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_COMPACT_DECLINED, clip, NULL,
				       "the compact layout holds it on a grid of %u samples (%g Hz: its key times lie "
				       "on no coarser one), in %llu bytes; wrote this clip in the original layout "
				       "(reader version 0) within the same tolerance, in %llu bytes",
				       compact->sample_count, (double)compact->rate_hz, (unsigned long long)compact_bytes,
				       (unsigned long long)original_bytes);
	else if (compact)
		animc_clip_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_COMPACT_DECLINED, clip, NULL,
				       "the compact layout holds it within the tolerance only on a grid %u times "
				       "finer than the keys' spacing (key times off every grid from 0, as in a part "
				       "cut between keys), in %llu bytes; wrote this clip in the original layout "
				       "(reader version 0) within the same tolerance, in %llu bytes",
				       1u << compact->grid_finer, (unsigned long long)compact_bytes,
				       (unsigned long long)original_bytes);
	else if (untried == 0)
		animc_clip_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_COMPACT_DECLINED, clip, NULL,
				       "the mask bits of the compact layout on its keys' grid alone come to more bytes "
				       "than the original layout; wrote this clip in the original layout (reader "
				       "version 0) within the same tolerance, in %llu bytes",
				       (unsigned long long)original_bytes);
	else if (untried > 0) {
		char grids[64];

		if (untried == 1)
			snprintf(grids, sizeof grids, "on the keys' own grid");
		else
			snprintf(grids, sizeof grids, "on a grid up to %u times finer than the keys' spacing",
				 1u << (untried - 1));
		animc_clip_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_COMPACT_DECLINED, clip, NULL,
				       "the compact layout cannot hold it within the tolerance %s (key times off "
				       "every grid from 0, as in a part cut between keys), and the mask bits of a "
				       "finer one alone come to more bytes than the original layout; wrote this clip "
				       "in the original layout (reader version 0) within the same tolerance, in %llu "
				       "bytes", grids, (unsigned long long)original_bytes);
	}
	else
		animc_diag_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_COMPACT_DECLINED, 0, 0,
				       "%s; wrote this clip in the original layout (reader version 0) within the "
				       "same tolerance", compact_error->message);
	held_diags_give(&held, sink);
	held_diags_release(&held);
	if (stats)
		stats->compact_declined = true;
	return ANIMC_OK;
}

/*
 * The compact encoding; where the layout cannot hold the clip (a duration
 * per bone, a jump between two keys a float step apart, which no grid
 * holds), the original layout reduced within the same tolerance instead,
 * with a warning naming what compact could not hold; where it holds it
 * only on a grid finer than the keys', the smaller of the two.  `quiet`
 * holds the encoder's first error in `held`.
 */
static animc_status compact_layout(animc_clip *clip, const animc_reduce_options *reduce, const before_uniform *before,
				   animc_diag_sink *quiet, held_error *held, animc_diag_sink *sink,
				   animc_pass_stats *stats)
{
	int untried;
	/* The keys' grid first: finer ones, or one much finer than the
	 * keys, only weighed against the original layout. */
	animc_status status = animc_compact_encode(clip, reduce, 0, &untried, quiet, stats);

	if (untried >= 0)
		return smaller_layout(clip, reduce, before, quiet, held, sink, stats);
	if (status != ANIMC_ERR_UNSUPPORTED || !held->has) {
		if (held->has)
			animc_diag_report(sink, ANIMC_ERROR, 0, 0, "%s", held->message);
		return status;
	}
	animc_diag_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_COMPACT_DECLINED, 0, 0,
			  "%s; wrote this clip in the original layout (reader version 0) within the same tolerance",
			  held->message);
	status = original_within(clip, reduce, before, sink, stats);
	if (stats)
		stats->compact_declined = true;
	return status;
}

/* The model-space shell bound --skeleton sets (the translation bound). */
static double shell_bound(const animc_reduce_options *reduce)
{
	return animc_tolerance_is_set(&reduce->tolerance) ? reduce->tolerance.translation : ANIMC_TOLERANCE_TRANSLATION;
}

/*
 * A compact clip past the shell bound (the encoder's rounds of tightening
 * ran out): the original layout reduced within the same tolerance instead,
 * when that holds it, with a warning; else the compact clip stays (its own
 * warning says by how much it passes).  *declined when the original is
 * written.
 */
static animc_status original_if_it_holds(animc_clip *clip, const animc_reduce_options *reduce,
					 const before_uniform *before, animc_diag_sink *sink, animc_pass_stats *stats,
					 bool *declined)
{
	clip_state compact;
	held_diags held = { 0 };
	animc_diag_sink holding = { hold_diag, &held, sink ? sink->path : NULL, 0, 0 };
	double compact_shell = stats->error.shell, bound = shell_bound(reduce);

	if (!keep_state(clip, stats, &compact))
		return ANIMC_ERR_NOMEM;
	animc_status status = original_within(clip, reduce, before, &holding, stats);

	if (status == ANIMC_ERR_NOMEM || held.is_nomem) {
		held_diags_release(&held);
		return ANIMC_ERR_NOMEM;
	}
	if (status == ANIMC_OK && stats->error.shell <= bound) {
		animc_clip_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_COMPACT_DECLINED, clip, NULL,
				       "the compact layout holds its model-space shell (--skeleton) within %g units only, "
				       "past the bound %g; wrote this clip in the original layout (reader version 0) "
				       "within the same tolerance, which holds it (%g)",
				       compact_shell, bound, stats->error.shell);
		held_diags_give(&held, sink);
		stats->compact_declined = true;
		*declined = true;
	} else {
		put_state(clip, &compact, stats);
		status = ANIMC_OK;
	}
	held_diags_release(&held);
	return status;
}

/* compact_layout; with a skeleton, a clip whose compact encoding passes the
 * shell bound where the original layout holds it goes to the original, and
 * the encoder's sayings about the compact one are not given then. */
static animc_status compact_or_original(animc_clip *clip, const animc_reduce_options *reduce,
					const before_uniform *before, animc_diag_sink *sink, animc_pass_stats *stats)
{
	held_diags passed = { 0 };
	animc_diag_sink passing = { hold_diag, &passed, sink ? sink->path : NULL, 0, 0 };
	bool has_shell = reduce->skeleton && reduce->shell_distance > 0 && stats;
	held_error held = { has_shell ? &passing : sink, false, "" };
	animc_diag_sink quiet = { hold_error, &held, sink ? sink->path : NULL, 0, 0 };
	animc_status status = compact_layout(clip, reduce, before, &quiet, &held, sink, stats);
	bool declined = false;

	if (status == ANIMC_OK && has_shell && clip->compact && stats->error.shell > shell_bound(reduce))
		status = original_if_it_holds(clip, reduce, before, sink, stats, &declined);
	if (!declined)
		held_diags_give(&passed, sink);
	held_diags_release(&passed);
	return status;
}

/*
 * keep_ends asks for every track's end keys as they are, which no grid of
 * the compact layout keeps (its keys are quantised): a root motion looped
 * there moves off by up to the bound each loop.  Such a clip goes to the
 * original layout, reduced within the tolerance the compact encoder would
 * have taken, saying so; *declined is the options for that.  Returns the
 * options to process with.
 */
static const animc_process_options *layout_keeping_ends(const animc_clip *clip, const animc_process_options *options,
							 animc_process_options *declined, animc_diag_sink *sink,
							 animc_pass_stats *stats)
{
	if (options->layout != ANIMC_LAYOUT_COMPACT || !options->reduce.keep_ends)
		return options;
	*declined = *options;
	declined->layout = ANIMC_LAYOUT_ORIGINAL;
	if (!animc_tolerance_is_set(&declined->reduce.tolerance))
		declined->reduce.tolerance = (animc_tolerance){ ANIMC_TOLERANCE_TRANSLATION, ANIMC_TOLERANCE_ROTATION_DEG,
								ANIMC_TOLERANCE_SCALE };
	animc_clip_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_COMPACT_DECLINED, clip, NULL,
			       "the compact layout cannot keep its end keys as they are (keep_ends, a root "
			       "motion); wrote this clip in the original layout (reader version 0) within the "
			       "same tolerance");
	if (stats)
		stats->compact_declined = true;
	return declined;
}

animc_status animc_clip_process(animc_clip *clip, const animc_process_options *options,
				animc_diag_sink *sink, animc_pass_stats *stats)
{
	static const animc_process_options defaults;
	animc_validate_options strict = { ANIMC_STAGE_WRITABLE, true };
	animc_validate_options imported = { ANIMC_STAGE_IMPORTED, false };
	animc_process_options declined;
	animc_status status = ANIMC_OK;

	if (!options)
		options = &defaults;
	if (animc_tolerance_check(&options->reduce, sink) != ANIMC_OK)
		return ANIMC_ERR_ARGUMENT;
	if ((unsigned)options->layout > ANIMC_LAYOUT_COMPACT) {
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "layout %d is neither ANIMC_LAYOUT_ORIGINAL nor "
				  "ANIMC_LAYOUT_COMPACT", (int)options->layout);
		return ANIMC_ERR_ARGUMENT;
	}
	if (options->exact && clip->is_sequence_source) {
		/* The original pipeline's bytes: what it would have written
		 * unplayable is written so, saying so. */
		status = animc_clip_validate(clip, &strict, sink);
		if (status == ANIMC_OK)
			animc_clip_check_playable(clip, ANIMC_WARNING, sink);
		return status;
	}

	options = layout_keeping_ends(clip, options, &declined, sink, stats);
	status = animc_pass_sort(clip, sink, stats);
	if (status == ANIMC_OK)
		status = animc_pass_trim(clip, sink, stats);
	if (status == ANIMC_OK)
		status = animc_clip_validate(clip, &imported, sink);
	if (status != ANIMC_OK)
		return status;
	if (clip->declared_channel_count != (int64_t)clip->channel_count) {
		if (clip->declared_channel_count >= 0) {
			animc_clip_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_WRONG_SEQUENCE_COUNT, clip, NULL,
					  "KeyFrameSequenceCount says %lld but %u sequence%s follow%s; wrote %u: "
					  "correct the count in the file",
					  (long long)clip->declared_channel_count, clip->channel_count,
					  clip->channel_count == 1 ? "" : "s", clip->channel_count == 1 ? "s" : "",
					  clip->channel_count);
			if (stats)
				stats->declared_count_corrected = true;
		}
		clip->declared_channel_count = clip->channel_count;
	}
	status = animc_pass_merge(clip, sink, stats);
	if (status == ANIMC_OK && !options->exact)
		status = animc_pass_fixed(clip, sink, stats);
	/* Lossy, so never in exact mode; the compact layout encodes instead. */
	bool is_reduced = !options->exact && options->layout == ANIMC_LAYOUT_ORIGINAL &&
			  animc_tolerance_is_set(&options->reduce.tolerance);
	before_uniform before = { 0 };
	if (status == ANIMC_OK && options->layout == ANIMC_LAYOUT_COMPACT)
		status = keep_before_uniform(clip, stats, &before);
	if (status == ANIMC_OK)
		status = original_from_reduce(clip, is_reduced ? &options->reduce : NULL, !options->exact, sink, stats);
	if (status == ANIMC_OK && options->layout == ANIMC_LAYOUT_COMPACT)
		status = compact_or_original(clip, &options->reduce, &before, sink, stats);
	return status;
}
