/*
 * split.c - clip splitting: a long take becomes named parts with exact
 * boundaries (the take's pose at START and END, interpolated by the
 * runtime's rule, its keys in between shifted to 0).  Also the two helpers
 * every authoring pass uses: preparing a clip (one timeline per bone) and
 * sampling one bone as the runtime would.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <animc/animc.h>
#include "clip_internal.h"
#include "interp.h"

/* ----------------------------------------------------------------- shared */

animc_status animc_clip_prepare(animc_clip *clip, animc_diag_sink *sink)
{
	animc_validate_options imported = { ANIMC_STAGE_IMPORTED, false };
	animc_diag_sink quiet = { 0 };
	animc_status status = animc_pass_sort(clip, sink, NULL);

	if (status == ANIMC_OK)
		status = animc_pass_trim(clip, sink, NULL);
	if (status != ANIMC_OK)
		return status;
	/* Invalid clips are animc_clip_process's to report, once. */
	if (animc_clip_validate(clip, &imported, &quiet) != ANIMC_OK)
		return ANIMC_OK;
	return animc_pass_merge(clip, sink, NULL);
}

static const float identity[ANIMC_TRACK_COUNT][4] = { { 0, 0, 0, 0 }, { 0, 0, 0, 1 }, { 1, 1, 1, 0 } };

void animc_channel_sample(const animc_channel *ch, float time_s, float translation[3], float rotation[4],
			  float scale[3])
{
	float *out[ANIMC_TRACK_COUNT] = { translation, rotation, scale };
	uint32_t last = ch->key_count ? ch->key_count - 1 : 0, i1 = 0, i2 = 0;
	float t = time_s, u = 0;

	/* The time rule of ANIMRT_PLAY_ONCE with the channel's duration. */
	if (!(t >= 0))
		t = 0;
	if (t > ch->duration_s)
		t = ch->duration_s;
	if (ch->key_count > 1) {
		if (ch->has_time)
			interp_timed_weight(ch->times_s, interp_search_times(ch->times_s, last, t), last, t, &i1,
					    &i2, &u);
		else
			interp_uniform_keys(ch->key_interval_s, last, t, &i1, &i2, &u);
	}
	for (int k = 0; k < ANIMC_TRACK_COUNT; k++) {
		const animc_track *tr = &ch->tracks[k];
		unsigned w = animc_track_width[k];

		if (!tr->is_present || !tr->value_count) {
			memcpy(out[k], identity[k], w * sizeof(float));
		} else if (tr->is_fixed || tr->value_count == 1 || ch->key_count < 2) {
			memcpy(out[k], tr->values, w * sizeof(float));
		} else if (u > 0) {
			if (k == ANIMC_ROTATION)
				interp_slerp(out[k], tr->values + 4 * (size_t)i1, tr->values + 4 * (size_t)i2, u);
			else
				interp_lerp3(out[k], tr->values + 3 * (size_t)i1, tr->values + 3 * (size_t)i2, u);
		} else {
			memcpy(out[k], tr->values + w * (size_t)i1, w * sizeof(float));
		}
	}
}

static double key_time(const animc_channel *ch, uint32_t i)
{
	return ch->has_time ? (double)ch->times_s[i] : (double)i * (double)ch->key_interval_s;
}

static int compare_doubles(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

/* Gaps within this share of each other are one spacing: float times of a
 * long take put frames a few ulps apart (at 300 s, 120 fps gaps are 273 or
 * 274 ulps, 0.4 % apart); a half-frame key is 50 % off. */
#define GAP_GROUP 0.01

double animc_frame_rate_of_gaps(double *gaps, size_t count, size_t *off_grid)
{
	size_t n = 0, best_count = 0;
	double best_sum = 0, rate, frame;

	for (size_t i = 0; i < count; i++)
		if (gaps[i] > 0 && isfinite(gaps[i]))
			gaps[n++] = gaps[i];
	if (off_grid)
		*off_grid = 0;
	if (n == 0)
		return 0;
	qsort(gaps, n, sizeof *gaps, compare_doubles);
	/* The largest group of gaps alike; the shorter on a tie. */
	for (size_t i = 0, j; i < n; i = j) {
		double sum = 0;

		for (j = i; j < n && gaps[j] <= gaps[i] * (1 + GAP_GROUP); j++)
			sum += gaps[j];
		if (j - i > best_count) {
			best_count = j - i;
			best_sum = sum;
		}
	}
	frame = best_sum / (double)best_count;
	rate = 1.0 / frame;
	rate = fabs(rate - floor(rate + 0.5)) < 1e-3 ? floor(rate + 0.5) : rate;
	frame = 1.0 / rate;
	for (size_t i = 0; off_grid && i < n; i++) {
		double frames = gaps[i] / frame;

		*off_grid += frames < 1 - GAP_GROUP || fabs(frames - floor(frames + 0.5)) > GAP_GROUP * frames;
	}
	return rate;
}

/* Key times this close are one frame's. */
#define SAME_TIME_S 1e-4

/* The rate of a take that states none, from its keys; *gap_count and
 * *off_grid say how many key gaps there are and how many are not whole
 * frames at it.  The gaps are those of the take's one timeline, every
 * time a bone has a key, each once: a bone that holds still with a key at
 * each end added a gap of the whole take, and sixty of them outvoted the
 * hips' keys every frame.  The most common spacing, not the shortest: one
 * sub-frame key (Blender keeps them) or a jump keyed 1 ms apart set the
 * rate of a whole take and moved every cut made in frames. */
static double rate_of_keys(const animc_clip *clip, size_t *gap_count, size_t *off_grid)
{
	size_t n = 0, times = 0;
	double *at, rate;

	*gap_count = *off_grid = 0;
	for (uint32_t c = 0; c < clip->channel_count; c++)
		n += clip->channels[c].key_count;
	at = malloc((n ? n : 1) * sizeof *at);
	if (!at)
		return 0;
	for (uint32_t c = 0; c < clip->channel_count; c++) {
		const animc_channel *ch = &clip->channels[c];

		for (uint32_t i = 0; i < ch->key_count; i++)
			at[times++] = key_time(ch, i);
	}
	qsort(at, times, sizeof *at, compare_doubles);
	/* The gaps between the distinct times, in place: times within
	 * SAME_TIME_S of the last distinct one are one time (bones whose keys
	 * an exporter wrote a few microseconds apart gave gaps of 10 us, and
	 * a rate of 100,000 fps). */
	n = 0;
	for (size_t i = 1, last = 0; i < times; i++) {
		if (!(at[i] - at[last] > SAME_TIME_S))
			continue;
		at[n++] = at[i] - at[last];
		last = i;
	}
	*gap_count = n;
	rate = animc_frame_rate_of_gaps(at, n, off_grid);
	free(at);
	return rate;
}

double animc_clip_frame_rate(const animc_clip *clip)
{
	size_t gap_count, off_grid;

	if (clip->frame_rate > 0 && isfinite(clip->frame_rate))
		return clip->frame_rate;
	if (clip->frame_rate < 0)
		return 0;   /* the source keys in frames of a rate it does not say */
	return rate_of_keys(clip, &gap_count, &off_grid);
}

/* ----------------------------------------------------------------- split */

/* Reports naming the document (or the command line) and the line. */
typedef struct where {
	animc_diag_sink *sink;
	const animc_split *split;
} where;

static void say(const where *w, uint32_t line, animc_status *status, animc_status now, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static void say(const where *w, uint32_t line, animc_status *status, animc_status now, const char *fmt, ...)
{
	animc_diag_sink doc = { 0 };
	char message[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(message, sizeof message, fmt, ap);
	va_end(ap);
	if (w->sink) {
		doc = *w->sink;
		if (w->split->path)
			doc.path = w->split->path;
		animc_diag_report(&doc, ANIMC_ERROR, line, 0, "%s%s", w->split->path ? "" : "--split: ",
				  message);
		w->sink->error_count = doc.error_count;
		w->sink->warning_count = doc.warning_count;
	}
	if (*status == ANIMC_OK)
		*status = now;
}

static void list_takes(const animc_clip_set *set, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (uint32_t i = 0; i < set->count && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s'%s'", i ? ", " : "", set->clips[i]->name);
	if (!set->count)
		snprintf(buf, size, "none");
}

/* "take 'NAME'", or for a take without a name (a RobotGame sequence, an
 * unnamed glTF animation) "the take", into buf. */
static const char *take_label(const char *name, char *buf, size_t size)
{
	if (name && name[0])
		snprintf(buf, size, "take '%s'", name);
	else
		snprintf(buf, size, "the take");
	return buf;
}

/* The take a split names, or -1 (reported). */
static int64_t find_take(const animc_clip_set *set, const where *w, animc_status *status)
{
	const animc_split *s = w->split;
	char list[1024];

	/* An empty <originalClipName> names a source's one take, as a part
	 * without TAKE/ does, whatever name the importer gave it (an unnamed
	 * glTF animation is clip0). */
	if (s->take && !s->take[0] && set->count == 1)
		return 0;
	if (s->take) {
		for (uint32_t i = 0; i < set->count; i++)
			if (strcmp(set->clips[i]->name, s->take) == 0)
				return i;
		list_takes(set, list, sizeof list);
		if (set->count == 1 && !set->clips[0]->name[0] && s->path)
			say(w, s->take_line, status, ANIMC_ERR_NOT_FOUND, "no take '%s' to split: the source "
			    "has one take, without a name; leave <originalClipName> empty", s->take);
		else if (set->count == 1 && !set->clips[0]->name[0])
			say(w, s->take_line, status, ANIMC_ERR_NOT_FOUND, "no take '%s' to split: the source "
			    "has one take, without a name; give the parts without '%s/'", s->take, s->take);
		else
			say(w, s->take_line, status, ANIMC_ERR_NOT_FOUND, "no take '%s' to split; the takes are: %s",
			    s->take, list);
		return -1;
	}
	if (set->count == 1)
		return 0;
	list_takes(set, list, sizeof list);
	say(w, s->take_line, status, ANIMC_ERR_NOT_FOUND,
	    "the source holds %u takes; name the one to split (TAKE/NAME=START:END): %s", set->count, list);
	return -1;
}

static double seconds_of(const animc_split_time *t, const animc_split *s, double duration, double rate)
{
	if (!t->is_frame)
		return t->value;
	return s->frame_count > 0 ? t->value * duration / s->frame_count : t->value / rate;
}

static void describe(char *buf, size_t size, const animc_split_time *t)
{
	if (t->is_frame)
		snprintf(buf, size, "frame %g", t->value);
	else
		snprintf(buf, size, "%g s", t->value);
}

/* The significant digits, six or more, that print a and b apart. */
static int digits_apart(double a, double b)
{
	char x[40], y[40];

	for (int digits = 6; digits < 17; digits++) {
		snprintf(x, sizeof x, "%.*g", digits, a);
		snprintf(y, sizeof y, "%.*g", digits, b);
		if (strcmp(x, y) != 0)
			return digits;
	}
	return 17;
}

/*
 * A boundary within float rounding of a key: frame numbers and times turned
 * into seconds (k * duration / frames, k / rate) land a hair beside the key
 * they mean, and a cut there would add a key a hair from it, which makes a
 * uniform take's part timed and its bytes depend on how the frame was
 * converted.  A key of some bone within this fraction of that bone's key
 * spacing is the boundary.
 */
#define SNAP_FRACTION 1e-4
/* A boundary given in whole frames of a take whose frames are its keys (it
 * states no frame rate: the rate comes from the keys' spacing) means a key:
 * that rate, rounded (30 for RobotGame's KeyInterval 0.033333), puts frame
 * 20 2e-4 of the spacing beside key 20, and farther on later frames.  The
 * fraction is of a frame (1 / rate), not of a bone's own key spacing. */
#define FRAME_SNAP_FRACTION 0.25

/* How far an evenly keyed bone's last key may lie from its duration, as a
 * fraction of its key spacing, for its keys to be meant at k * duration /
 * last: the drift of a key interval rounded to a few decimals. */
#define DRIFT_FRACTION 0.01

/*
 * The spacing an evenly keyed bone's keys are meant at: its duration over
 * its last key when they end within DRIFT_FRACTION of a spacing of it,
 * else its key interval.  A key interval written to six decimals drifts
 * from the duration it was taken from (RobotGame's 0.033333 s for 1/30 s
 * puts key 24 of a 0.8 s take at 0.799992 s, key 18 at 0.599994 s): a
 * frame or a time that means key k (18 / 30 s) lies beside k * interval
 * by more than float rounding, but on k * duration / last.
 */
static double meant_interval(const animc_channel *ch)
{
	double interval = ch->key_interval_s, last = ch->key_count - 1.0;

	if (ch->has_time || ch->key_count < 2 || !(interval > 0) ||
	    !(fabs((double)ch->duration_s - last * interval) <= DRIFT_FRACTION * interval))
		return interval;
	return (double)ch->duration_s / last;
}

/* Into *best, the key time of `ch` nearest t when it, or where the key is
 * meant (meant_interval), lies within `fraction` of the spacing and it is
 * nearer t than *best (NaN: none yet).  The spacing is `spacing_s` when
 * positive (a frame's), else the channel's own key spacing there. */
static void nearest_key(const animc_channel *ch, double t, double fraction, double spacing_s, double *best)
{
	uint32_t last = ch->key_count - 1, lo = 0, hi = last;
	double gap = INFINITY, at, meant = NAN;

	if (ch->key_count < 2)
		return;
	if (!ch->has_time) {
		double spacing = meant_interval(ch), q = t / spacing;

		if (!(ch->key_interval_s > 0) || !(q >= 0))
			return;
		lo = q + 0.5 >= (double)last ? last : (uint32_t)(q + 0.5);
		gap = ch->key_interval_s;
		meant = lo * spacing;
	} else {
		while (hi - lo > 1) {
			uint32_t mid = lo + (hi - lo) / 2;

			if (key_time(ch, mid) <= t)
				lo = mid;
			else
				hi = mid;
		}
		if (fabs(key_time(ch, hi) - t) < fabs(key_time(ch, lo) - t))
			lo = hi;
		if (lo > 0 && key_time(ch, lo) > key_time(ch, lo - 1))
			gap = key_time(ch, lo) - key_time(ch, lo - 1);
		if (lo < last && key_time(ch, lo + 1) > key_time(ch, lo))
			gap = fmin(gap, key_time(ch, lo + 1) - key_time(ch, lo));
		if (!isfinite(gap))
			return;
	}
	at = key_time(ch, lo);
	if (spacing_s > 0)
		gap = spacing_s;
	if (fmin(fabs(at - t), isnan(meant) ? INFINITY : fabs(meant - t)) <= fraction * gap &&
	    (isnan(*best) || fabs(at - t) < fabs(*best - t)))
		*best = at;
}

/* Where a part may end: the take's duration, or past it the last key of a
 * bone whose keys are meant to end there (meant_interval) and drift a
 * hair past it (25 * 0.066667 s for a take of 1.666667 s). */
static double take_end(const animc_clip *take)
{
	double end = take->duration_s;

	for (uint32_t c = 0; c < take->channel_count; c++) {
		const animc_channel *ch = &take->channels[c];

		if (!ch->has_time && ch->key_count > 1 && meant_interval(ch) != (double)ch->key_interval_s)
			end = fmax(end, key_time(ch, ch->key_count - 1));
	}
	return end;
}

/* t, or the key time of the take it means (the nearest over its bones):
 * for a frame that is a key (frame_s, the frame spacing, positive) within
 * a quarter of a frame, not of a bone's own spacing: a bone keyed every
 * tenth frame would move frame 12 to its key at 10; else within
 * SNAP_FRACTION of each bone's spacing. */
static double snap_to_key(const animc_clip *take, double t, double frame_s)
{
	double best = NAN;

	for (uint32_t c = 0; c < take->channel_count; c++)
		nearest_key(&take->channels[c], t, frame_s > 0 ? FRAME_SNAP_FRACTION : SNAP_FRACTION, frame_s,
			    &best);
	return isnan(best) ? t : best;
}

/* Whether START and END are keys of `ch` (first - 1 and first + inner)
 * and its keys are evenly spaced: uniform, or times the uniform pass would
 * take as uniform. */
static bool is_even_between_keys(const animc_channel *ch, uint32_t first, uint32_t inner, double start,
				 double end)
{
	float interval;

	if (first == 0 || first + inner >= ch->key_count || key_time(ch, first - 1) != start ||
	    key_time(ch, first + inner) != end)
		return false;
	return !ch->has_time || animc_times_evenly_spaced(ch->times_s, ch->key_count, &interval);
}

/* A boundary of the part as the channel has it: its own key within the
 * snap distance of `t`, else t.  The bones of a take may key a hair apart
 * (a RobotGame take's timed bones at 0.8 s, its evenly keyed ones at
 * 12 * 0.066667 s); each keeps its key rather than gain one a hair off. */
static double channel_boundary(const animc_channel *ch, double t)
{
	double best = NAN;

	nearest_key(ch, t, SNAP_FRACTION, 0, &best);
	return isnan(best) ? t : best;
}

/* `out` as one key spanning the part, the take's pose at `at`: a bone
 * whose tracks hold one value for every time, or any bone of a part of
 * one frame (START = END), which is a pose. */
static animc_status hold_pose(animc_clip *part, animc_channel *out, const animc_channel *ch, double at)
{
	float pose[ANIMC_TRACK_COUNT][4];
	animc_channel whole = *ch;

	/* A last key that drifts past the duration is within the take. */
	whole.duration_s = fmaxf(ch->duration_s, (float)at);
	animc_channel_sample(&whole, (float)at, pose[0], pose[1], pose[2]);
	out->key_count = 1;
	out->key_interval_s = out->duration_s;
	for (int k = 0; k < ANIMC_TRACK_COUNT; k++) {
		const animc_track *tr = &ch->tracks[k];
		animc_track *to = &out->tracks[k];

		to->is_present = tr->is_present;
		to->is_fixed = tr->is_fixed;
		if (!tr->is_present || !tr->value_count)
			continue;
		to->value_count = 1;
		to->values = animc_clip_alloc_values(part, (animc_track_kind)k, 1);
		if (!to->values)
			return ANIMC_ERR_NOMEM;
		memcpy(to->values, pose[k], animc_track_width[k] * sizeof(float));
	}
	return ANIMC_OK;
}

/* The part's channel from the take's: keys at START and END with the pose
 * there, the keys strictly between shifted by START. */
static animc_status cut_channel(animc_clip *part, const animc_channel *ch, double start, double end)
{
	float span = (float)(end - start);
	int64_t index = animc_clip_add_channel(part, ch->bone, strlen(ch->bone));
	animc_channel *out;
	uint32_t first = 0, inner = 0, n;
	float pose[2][ANIMC_TRACK_COUNT][4];
	animc_channel whole;
	bool is_static = ch->key_count < 2, is_even;

	if (index < 0)
		return ANIMC_ERR_NOMEM;
	if (!is_static) {
		is_static = true;
		for (int k = 0; k < ANIMC_TRACK_COUNT; k++)
			if (ch->tracks[k].is_present && !ch->tracks[k].is_fixed && ch->tracks[k].value_count > 1)
				is_static = false;
	}
	out = &part->channels[index];
	out->line = ch->line;
	out->duration_s = span;
	if (is_static || !(end > start))
		return hold_pose(part, out, ch, start);
	start = channel_boundary(ch, start);
	end = channel_boundary(ch, end);
	while (first < ch->key_count && key_time(ch, first) <= start)
		first++;
	while (first + inner < ch->key_count && key_time(ch, first + inner) < end)
		inner++;
	n = inner + 2;
	is_even = is_even_between_keys(ch, first, inner, start, end);
	out = &part->channels[index];
	out->key_count = n;
	out->has_time = true;
	out->times_s = animc_clip_alloc_floats(part, n);
	if (!out->times_s)
		return ANIMC_ERR_NOMEM;
	out->times_s[0] = 0;
	for (uint32_t i = 0; i < inner; i++) {
		/* Even keys between boundary keys stay even: the take's times
		 * less START would carry the rounding of its larger times into
		 * the part's small ones. */
		float t = is_even ? (float)((double)span * (i + 1) / (n - 1))
				  : (float)(key_time(ch, first + i) - start);

		/* Rounding (or a boundary key of its own) may not reach
		 * past the part's ends. */
		out->times_s[i + 1] = t > 0 ? fminf(t, span) : 0;
	}
	out->times_s[n - 1] = span;
	for (uint32_t i = 1; i < n; i++)
		if (out->times_s[i] < out->times_s[i - 1])
			out->times_s[i] = out->times_s[i - 1];
	/* An END on a last key that drifts past the duration (25 * 0.066667
	 * s of a 1.666667 s take) is that key's pose, not the pose at the
	 * duration that sampling stops at. */
	whole = *ch;
	whole.duration_s = fmaxf(ch->duration_s, (float)end);
	animc_channel_sample(&whole, (float)start, pose[0][0], pose[0][1], pose[0][2]);
	animc_channel_sample(&whole, (float)end, pose[1][0], pose[1][1], pose[1][2]);
	for (int k = 0; k < ANIMC_TRACK_COUNT; k++) {
		const animc_track *tr = &ch->tracks[k];
		animc_track *to = &out->tracks[k];
		unsigned w = animc_track_width[k];

		to->is_present = tr->is_present;
		to->is_fixed = tr->is_fixed;
		if (!tr->is_present || !tr->value_count)
			continue;
		if (tr->is_fixed || tr->value_count == 1) {
			to->is_fixed = true;
			to->value_count = 1;
			to->values = animc_clip_alloc_values(part, (animc_track_kind)k, 1);
			if (!to->values)
				return ANIMC_ERR_NOMEM;
			memcpy(to->values, tr->values, w * sizeof(float));
			continue;
		}
		to->value_count = n;
		to->values = animc_clip_alloc_values(part, (animc_track_kind)k, n);
		if (!to->values)
			return ANIMC_ERR_NOMEM;
		memcpy(to->values, pose[0][k], w * sizeof(float));
		memcpy(to->values + w, tr->values + (size_t)w * first, (size_t)w * inner * sizeof(float));
		memcpy(to->values + (size_t)w * (n - 1), pose[1][k], w * sizeof(float));
	}
	return ANIMC_OK;
}

/* A boundary given as a whole frame: it means a key.  A fractional frame
 * (20.25f) means the time between keys it names, and keeps it. */
static bool is_whole_frame(const animc_split_time *t)
{
	return t->is_frame && fabs(t->value - floor(t->value + 0.5)) < 1e-6;
}

/* A boundary `t` given as `given`, at the key of the take it means. */
static double boundary_at_key(const animc_clip *take, const animc_split *split, const animc_split_time *given,
			      double t)
{
	double rate = 0;

	if (!(take->frame_rate > 0) && split->frame_count <= 0 && is_whole_frame(given))
		rate = animc_clip_frame_rate(take);
	return snap_to_key(take, t, rate > 0 ? 1.0 / rate : 0);
}

static animc_clip *cut(const animc_clip *take, const animc_split *split, const animc_split_part *split_part,
		       double start, double end, animc_status *status)
{
	animc_clip *part = animc_clip_create(split_part->name);
	double a = boundary_at_key(take, split, &split_part->start, start);
	double b = fmin(boundary_at_key(take, split, &split_part->end, end), (double)take->duration_s);

	if (!part) {
		*status = ANIMC_ERR_NOMEM;
		return NULL;
	}
	/* A part of one frame (END = START) is the pose there. */
	if (b > a || (b == a && end <= start)) {
		start = a;
		end = b;
	}
	part->duration_s = (float)(end - start);
	part->ticks_per_second = take->ticks_per_second;
	part->frame_rate = take->frame_rate;
	part->declared_channel_count = -1;
	part->line = take->line;
	/* A part keeps its source's conventions: a RobotGame take's is Z up. */
	part->is_sequence_source = take->is_sequence_source;
	part->declared_up = take->declared_up;
	for (uint32_t c = 0; c < take->channel_count && *status == ANIMC_OK; c++)
		*status = cut_channel(part, &take->channels[c], start, end);
	if (*status != ANIMC_OK) {
		animc_clip_destroy(part);
		return NULL;
	}
	return part;
}

/* The rate frames are counted at when the source states none, a note:
 * read from the keys, it can be other than the user's. */
static void note_rate(const animc_clip *take, const where *w, double rate)
{
	size_t gaps, off_grid;
	char label[300];
	animc_diag_sink doc;

	if (!w->sink)
		return;
	rate_of_keys(take, &gaps, &off_grid);
	doc = *w->sink;
	if (w->split->path)
		doc.path = w->split->path;
	if (off_grid)
		animc_diag_report(&doc, ANIMC_NOTE, w->split->take_line, 0, "%s%s: frames counted at %g fps, "
				  "the key spacing most of its keys share (its source states no rate); %zu of its "
				  "%zu key gaps are not whole frames at it: give times in seconds if that is not "
				  "its rate", w->split->path ? "" : "--split: ",
				  take_label(take->name, label, sizeof label), rate, off_grid, gaps);
	else
		animc_diag_report(&doc, ANIMC_NOTE, w->split->take_line, 0, "%s%s: frames counted at %g fps, "
				  "the spacing of its keys (its source states no rate)",
				  w->split->path ? "" : "--split: ", take_label(take->name, label, sizeof label),
				  rate);
}

/* Check a split against its take; false (reported) on any error. */
static bool check_split(const animc_clip *take, const where *w, double *starts, double *ends,
			animc_status *status)
{
	const animc_split *s = w->split;
	double duration = take->duration_s, rate = 0, end = take_end(take);
	/* Rounding of k * duration / frames: a part may end at the end. */
	double slack = duration * 1e-6 + 1e-9;
	bool ok = true, needs_rate = false;

	for (uint32_t p = 0; p < s->part_count; p++)
		needs_rate |= s->frame_count <= 0 && (s->parts[p].start.is_frame || s->parts[p].end.is_frame);
	if (needs_rate && !((rate = animc_clip_frame_rate(take)) > 0)) {
		char label[300];

		if (take->frame_rate < 0)
			say(w, s->take_line, status, ANIMC_ERR_INVALID,
			    "%s has no known frame rate (its source's time mode names none, such as FBX's "
			    "'default'); give times in seconds", take_label(take->name, label, sizeof label));
		else
			say(w, s->take_line, status, ANIMC_ERR_INVALID,
			    "%s has no frame rate (its source states none, and no bone has two keys); "
			    "give times in seconds", take_label(take->name, label, sizeof label));
		return false;
	}
	if (needs_rate && !(take->frame_rate > 0))
		note_rate(take, w, rate);
	for (uint32_t p = 0; p < s->part_count; p++) {
		const animc_split_part *part = &s->parts[p];
		double a = seconds_of(&part->start, s, duration, rate), b = seconds_of(&part->end, s, duration, rate);
		char from[64], to[128];

		describe(from, sizeof from, &part->start);
		describe(to, sizeof to, &part->end);
		if (!part->name || !part->name[0]) {
			char label[300];

			say(w, part->line, status, ANIMC_ERR_INVALID, "a part of %s has no name",
			    take_label(take->name, label, sizeof label));
			ok = false;
		} else if (!isfinite(a) || !isfinite(b) || a < 0 || b < 0) {
			say(w, part->line, status, ANIMC_ERR_INVALID, "part '%s' starts or ends before 0 (%s to %s)",
			    part->name, from, to);
			ok = false;
		} else if (b < a) {
			say(w, part->line, status, ANIMC_ERR_INVALID,
			    "part '%s' ends at %s, before its start at %s", part->name, to, from);
			ok = false;
		} else if (boundary_at_key(take, s, &part->end, b) > end + slack) {
			/* The last key, as a frame or time that means it, is
			 * the end, however far rounding puts it past. */
			int digits = digits_apart(b, duration);
			char label[300];

			if (part->end.is_frame && s->frame_count <= 0)
				snprintf(to, sizeof to, "frame %g (%.*g s at %g fps)", part->end.value, digits, b, rate);
			else if (part->end.is_frame)
				snprintf(to, sizeof to, "frame %g (%.*g s)", part->end.value, digits, b);
			else
				snprintf(to, sizeof to, "%.*g s", digits, b);
			say(w, part->line, status, ANIMC_ERR_INVALID, "part '%s' ends at %s, past the end of %s at %.*g s",
			    part->name, to, take_label(take->name, label, sizeof label), digits, duration);
			ok = false;
		}
		starts[p] = a;
		ends[p] = b > duration ? duration : b;
		for (uint32_t q = 0; q < p && part->name; q++)
			if (s->parts[q].name && strcmp(s->parts[q].name, part->name) == 0) {
				if (s->parts[q].line)
					say(w, part->line, status, ANIMC_ERR_INVALID,
					    "two parts are named '%s' (the first on line %u)", part->name,
					    s->parts[q].line);
				else
					say(w, part->line, status, ANIMC_ERR_INVALID, "two parts are named '%s'",
					    part->name);
				ok = false;
				break;
			}
	}
	return ok;
}

/* A part named as a take that stays whole: both would be one file, and
 * the rename that keeps clips of one name apart would give the take's
 * name, which a game loads, to the part.  Reported, as two parts of one
 * name are: the parts are the user's to rename. */
static void check_parts_against_takes(const animc_clip_set *set, const animc_split *splits, uint32_t split_count,
				      const int64_t *takes, animc_diag_sink *sink, animc_status *status)
{
	for (uint32_t c = 0; c < set->count; c++) {
		bool is_split = false;

		for (uint32_t i = 0; i < split_count; i++)
			is_split |= takes[i] == (int64_t)c;
		for (uint32_t i = 0; i < split_count && !is_split && set->clips[c]->name[0]; i++) {
			where w = { sink, &splits[i] };

			for (uint32_t p = 0; p < splits[i].part_count; p++)
				if (splits[i].parts[p].name && strcmp(splits[i].parts[p].name, set->clips[c]->name) == 0)
					say(&w, splits[i].parts[p].line, status, ANIMC_ERR_INVALID,
					    "part '%s' is named as a take of the source, which is written whole: "
					    "give the part another name", splits[i].parts[p].name);
		}
	}
}

animc_status animc_clip_set_split(animc_clip_set *set, const animc_split *splits, uint32_t split_count,
				  animc_diag_sink *sink)
{
	animc_validate_options imported = { ANIMC_STAGE_IMPORTED, false };
	animc_status status = ANIMC_OK, valid;
	int64_t *takes;
	animc_clip ***parts;
	animc_clip **clips;
	uint32_t total = 0, n = 0;

	if (!split_count)
		return ANIMC_OK;
	takes = calloc(split_count, sizeof *takes);
	parts = calloc(split_count, sizeof *parts);
	if (!takes || !parts) {
		free(takes);
		free(parts);
		return ANIMC_ERR_NOMEM;
	}
	for (uint32_t i = 0; i < split_count; i++) {
		const animc_split *s = &splits[i];
		where w = { sink, s };
		double *starts, *ends;

		takes[i] = find_take(set, &w, &status);
		for (uint32_t j = 0; j < i && takes[i] >= 0; j++)
			if (takes[j] == takes[i]) {
				char label[300];

				say(&w, s->take_line, &status, ANIMC_ERR_INVALID, "%s is split twice",
				    take_label(set->clips[takes[i]]->name, label, sizeof label));
				takes[i] = -1;
			}
		/* Parts of one name across takes collide in one folder too. */
		for (uint32_t j = 0; j < i; j++)
			for (uint32_t a = 0; a < splits[j].part_count; a++)
				for (uint32_t b = 0; b < s->part_count; b++)
					if (splits[j].parts[a].name && s->parts[b].name &&
					    strcmp(splits[j].parts[a].name, s->parts[b].name) == 0)
						say(&w, s->parts[b].line, &status, ANIMC_ERR_INVALID,
						    "two parts are named '%s'", s->parts[b].name);
		if (takes[i] >= 0 && !s->part_count) {
			char label[300];

			/* It went, replaced by nothing, with ANIMC_OK. */
			say(&w, s->take_line, &status, ANIMC_ERR_INVALID, "%s is split into no parts: list its "
			    "parts, or leave it whole", take_label(set->clips[takes[i]]->name, label, sizeof label));
		}
		if (takes[i] < 0 || !s->part_count)
			continue;
		starts = calloc(s->part_count, sizeof *starts);
		ends = calloc(s->part_count, sizeof *ends);
		parts[i] = calloc(s->part_count, sizeof *parts[i]);
		if (!starts || !ends || !parts[i]) {
			status = ANIMC_ERR_NOMEM;
		} else if ((valid = animc_clip_validate(set->clips[takes[i]], &imported, sink)) != ANIMC_OK) {
			/* The take's own faults, as its build whole reports
			 * them: NaN key times fall out of every comparison of
			 * the cut, and the parts came out of fixed keys. */
			if (status == ANIMC_OK)
				status = valid;
		} else if (check_split(set->clips[takes[i]], &w, starts, ends, &status) && status == ANIMC_OK) {
			for (uint32_t p = 0; p < s->part_count && status == ANIMC_OK; p++)
				parts[i][p] = cut(set->clips[takes[i]], s, &s->parts[p], starts[p], ends[p], &status);
		}
		free(starts);
		free(ends);
		total += s->part_count;
	}
	check_parts_against_takes(set, splits, split_count, takes, sink, &status);
	clips = status == ANIMC_OK ? calloc((size_t)set->count + total, sizeof *clips) : NULL;
	if (status == ANIMC_OK && !clips)
		status = ANIMC_ERR_NOMEM;
	if (status == ANIMC_OK) {
		for (uint32_t c = 0; c < set->count; c++) {
			int64_t which = -1;

			for (uint32_t i = 0; i < split_count; i++)
				if (takes[i] == (int64_t)c)
					which = i;
			if (which < 0) {
				clips[n++] = set->clips[c];
				continue;
			}
			for (uint32_t p = 0; p < splits[which].part_count; p++) {
				clips[n++] = parts[which][p];
				parts[which][p] = NULL;
			}
			animc_clip_destroy(set->clips[c]);
		}
		free(set->clips);
		set->clips = clips;
		set->count = set->capacity = n;
		set->is_single_asset = false;
	}
	for (uint32_t i = 0; i < split_count; i++) {
		for (uint32_t p = 0; parts[i] && p < splits[i].part_count; p++)
			animc_clip_destroy(parts[i][p]);
		free(parts[i]);
	}
	free(parts);
	free(takes);
	return status;
}
