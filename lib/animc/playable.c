/*
 * playable.c - what the original runtime (RobotGame's KeyFrameSequence and
 * AnimationBinder) can play: the rule, stated once (animc_clip_check_playable),
 * and the pass that makes a valid clip follow it without changing what
 * sampling it gives (animc_pass_playable).  FORMAT.md section 2.1 gives the
 * reasons.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <animc/animc.h>
#include "clip_internal.h"

/*
 * The first run of keys [*a, *b] (b > a) at one time, from key `from` on,
 * that the original runtime can land on with a weight of 0 / 0: one that
 * ends before the last key (a sample at that time may take a key of the
 * run as the first of the pair), or one that starts the sequence above 0
 * (a time before it takes keys 0 and 1).  A run ending at the last key is
 * safe: from its time on, the last key is taken whole.
 */
static bool find_shared_run(const float *t, uint32_t n, uint32_t from, uint32_t *a, uint32_t *b)
{
	for (uint32_t i = from, j; i + 1 < n; i = j + 1) {
		for (j = i; j + 1 < n && t[j + 1] == t[i]; j++)
			;
		if (j > i && (j < n - 1 || (i == 0 && t[0] > 0))) {
			*a = i;
			*b = j;
			return true;
		}
	}
	return false;
}

static bool is_too_dense(const animc_channel *ch)
{
	return (double)ch->duration_s / ch->key_interval_s > ANIMC_MAX_INTERVAL_STEPS;
}

/* Two consecutive keys of a lerped track, and the component, whose
 * difference overflows float32. */
typedef struct overflow_span {
	animc_track_kind kind;
	uint32_t key;   /* the first of the two */
	unsigned component;
} overflow_span;

/*
 * The first two consecutive keys of a translation or scale track whose
 * difference in a component is past what a float holds (finite keys of
 * opposite sign, such as -3e38 and 3e38).  Vector3.Lerp is a + (b - a) u,
 * the original's and animrt's alike: infinity between the keys, and in the
 * original (which lerps at u = 0 too) infinity times 0, NaN, at the first.
 * Rotations cannot overflow (unit quaternions: slerp weights and products
 * stay within 2), nor can key times (finite and >= 0: a difference is at
 * most the later time); fixed tracks are never interpolated.
 */
static bool find_overflow_span(const animc_channel *ch, overflow_span *span)
{
	static const animc_track_kind lerped[] = { ANIMC_TRANSLATION, ANIMC_SCALE };

	for (size_t k = 0; k < sizeof lerped / sizeof lerped[0]; k++) {
		const animc_track *t = &ch->tracks[lerped[k]];

		if (!t->is_present || t->is_fixed || !t->values)
			continue;
		for (uint32_t i = 0; i + 1 < t->value_count; i++) {
			const float *a = &t->values[(size_t)i * 3], *b = a + 3;

			for (unsigned c = 0; c < 3; c++) {
				float d = b[c] - a[c];   /* in float32, as the runtimes compute it */

				if (!isfinite(d)) {
					*span = (overflow_span){ lerped[k], i, c };
					return true;
				}
			}
		}
	}
	return false;
}

/* Report a channel's overflow span (find_overflow_span), then `then`. */
static void report_overflow_span(animc_diag_sink *sink, animc_severity severity, const animc_clip *clip,
				 const animc_channel *ch, const overflow_span *span, const char *then)
{
	const float *a = &ch->tracks[span->kind].values[(size_t)span->key * 3];

	animc_clip_report_kind(sink, severity, ANIMC_WARN_EXACT_UNPLAYABLE, clip, ch,
			  "%s keys %u and %u differ in %c by more than a float holds (%g to %g): interpolated, "
			  "they give infinity between them, and the original runtime NaN at key %u%s",
			  animc_track_name[span->kind], span->key, span->key + 1, "XYZ"[span->component],
			  (double)a[span->component], (double)a[3 + span->component], span->key, then);
}

animc_status animc_clip_check_playable(const animc_clip *clip, animc_severity severity,
				       animc_diag_sink *sink)
{
	/* In exact mode a breach is written: say how to get a playable file. */
	const char *fix = severity == ANIMC_WARNING ? "; written as it is (--exact): without --exact the "
						       "clip is made playable" : "";
	const char *refused = severity == ANIMC_WARNING ? "; written as it is (--exact): without --exact the "
							   "clip is refused" : "";
	unsigned breaches = 0;

	for (uint32_t i = 0; i < clip->channel_count; i++) {
		const animc_channel *ch = &clip->channels[i];
		overflow_span span;
		uint32_t a, b;

		if (ch->duration_s == 0) {
			animc_clip_report_kind(sink, severity, ANIMC_WARN_EXACT_UNPLAYABLE, clip, ch,
					  "Duration is 0: the original runtime, which loops by subtracting the "
					  "Duration from the time, loops forever in Repeat mode%s", fix);
			breaches++;
		} else if (!(ch->duration_s >= ANIMC_MIN_DURATION_S)) {
			animc_clip_report_kind(sink, severity, ANIMC_WARN_EXACT_UNPLAYABLE, clip, ch,
					  "Duration %g s is shorter than a frame at 60 Hz: the original runtime, "
					  "which loops by subtracting the Duration from the time, does so over and "
					  "over each frame in Repeat mode (forever below about 1e-7 s)%s",
					  (double)ch->duration_s, fix);
			breaches++;
		}
		if (!ch->has_time && !(ch->key_interval_s > 0)) {
			animc_clip_report_kind(sink, severity, ANIMC_WARN_EXACT_UNPLAYABLE, clip, ch,
					  "uniform keys (HasTime false) with KeyInterval %g: the original runtime "
					  "computes (int)(t / %g) and loops forever (both play modes)%s",
					  (double)ch->key_interval_s, (double)ch->key_interval_s, fix);
			breaches++;
		} else if (!ch->has_time && is_too_dense(ch)) {
			animc_clip_report_kind(sink, severity, ANIMC_WARN_EXACT_UNPLAYABLE, clip, ch,
					  "KeyInterval %g s against Duration %g s: the original runtime's loop "
					  "over KeyInterval steps would run over %g times%s",
					  (double)ch->key_interval_s, (double)ch->duration_s, ANIMC_MAX_INTERVAL_STEPS,
					  fix);
			breaches++;
		} else if (ch->has_time && ch->times_s &&
			   find_shared_run(ch->times_s, ch->key_count, 0, &a, &b)) {
			animc_clip_report_kind(sink, severity, ANIMC_WARN_EXACT_UNPLAYABLE, clip, ch,
					  "keys %u and %u share the time %g s: the original runtime divides by "
					  "their difference, 0, and gives NaN there%s", a, a + 1, (double)ch->times_s[a],
					  fix);
			breaches++;
		} else if (ch->has_time && ch->times_s && ch->key_count > 1 && ch->times_s[0] > 0) {
			animc_clip_report_kind(sink, severity, ANIMC_WARN_EXACT_UNPLAYABLE, clip, ch,
					  "the first key lies at %g s, after 0: before it the original runtime "
					  "extrapolates the first span back (its weight goes below 0), where libanimrt "
					  "holds the first key, so the two play different poses there%s",
					  (double)ch->times_s[0],
					  severity == ANIMC_WARNING ? "; written as it is (--exact): without --exact the "
								      "sequence gets a key at 0 holding its first value" : "");
			breaches++;
		}
		if (find_overflow_span(ch, &span)) {
			report_overflow_span(sink, severity, clip, ch, &span, refused);
			breaches++;
		}
	}
	return breaches ? ANIMC_ERR_INVALID : ANIMC_OK;
}

/* ---------------------------------------------------------------- the pass */

/*
 * The key animrt's sampling rule takes at time 0 (it takes one key whole
 * there: no time lies before 0): with times, the original binary search;
 * uniform keys key 0, or the last when KeyInterval is 0.
 */
static uint32_t key_at_zero(const animc_channel *ch)
{
	uint32_t last = ch->key_count - 1, lo = 0, hi = last;
	const float *t = ch->times_s;

	if (!ch->has_time || !t)
		return ch->key_interval_s > 0 ? 0 : last;
	if (0 >= t[last])
		return last;
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (t[mid] < 0)
			lo = mid;
		else if (t[mid] > 0)
			hi = mid;
		else
			return mid;
	}
	return lo;
}

/* Keep the keys from[0..n) of a channel, in that order, at `times` (NULL:
 * uniform).  New arrays come from the clip's arena. */
static animc_status rebuild_keys(animc_clip *clip, animc_channel *ch, const float *times,
				 const uint32_t *from, uint32_t n)
{
	float *new_times = NULL;

	if (times) {
		new_times = animc_clip_alloc_floats(clip, n);
		if (!new_times)
			return ANIMC_ERR_NOMEM;
		memcpy(new_times, times, n * sizeof *new_times);
	}
	for (int k = 0; k < ANIMC_TRACK_COUNT; k++) {
		animc_track *t = &ch->tracks[k];
		unsigned width = animc_track_width[k];
		float *values;

		if (!t->is_present || t->is_fixed)
			continue;
		values = animc_clip_alloc_values(clip, (animc_track_kind)k, n);
		if (!values)
			return ANIMC_ERR_NOMEM;
		for (uint32_t i = 0; i < n; i++)
			memcpy(&values[(size_t)i * width], &t->values[(size_t)from[i] * width],
			       width * sizeof *values);
		t->values = values;
		t->value_count = n;
	}
	ch->key_count = n;
	ch->has_time = times != NULL;
	ch->times_s = new_times;
	return ANIMC_OK;
}

/* A sequence of 0 s samples as its pose at 0 at every time: keep that key. */
static animc_status hold_pose_at_zero(animc_clip *clip, animc_channel *ch)
{
	uint32_t key = key_at_zero(ch);

	return rebuild_keys(clip, ch, NULL, &key, 1);
}

/* Uniform keys too dense for the original's loop: the same keys at explicit
 * times, i * KeyInterval (as the loader's sampler computes them). */
static animc_status give_times(animc_clip *clip, animc_channel *ch)
{
	float *times = animc_clip_alloc_floats(clip, ch->key_count);

	if (!times)
		return ANIMC_ERR_NOMEM;
	for (uint32_t i = 0; i < ch->key_count; i++)
		times[i] = (float)((double)i * ch->key_interval_s);
	ch->times_s = times;
	ch->has_time = true;
	return ANIMC_OK;
}

/*
 * A sequence whose first key lies after 0 gets a key at 0 holding its first
 * value.  Before its first key the loader holds that key (animrt.h); the
 * original runtime extrapolates the first span back (its weight goes below
 * 0), so without the key the two played different poses there.
 */
static animc_status hold_first_key_from_zero(animc_clip *clip, animc_channel *ch)
{
	uint32_t n = ch->key_count;
	float *times = malloc(((size_t)n + 1) * sizeof *times);
	uint32_t *from = malloc(((size_t)n + 1) * sizeof *from);
	animc_status status;

	if (!times || !from) {
		free(times);
		free(from);
		return ANIMC_ERR_NOMEM;
	}
	times[0] = 0;
	from[0] = 0;
	for (uint32_t i = 0; i < n; i++) {
		times[i + 1] = ch->times_s[i];
		from[i + 1] = i;
	}
	status = rebuild_keys(clip, ch, times, from, n + 1);
	free(times);
	free(from);
	return status;
}

/*
 * Take apart the runs of keys at one time that find_shared_run finds.  Of
 * a run at T, the first key moves to the float just below T (the keys
 * between, which no sample reaches but by the search's chance, go), so
 * the interpolation toward T and on from T is the one it was; a run that
 * starts the sequence above 0 also gets a key at 0 holding its first value,
 * which the loader held there already.  Where no float lies between T and
 * the key before it (or T is 0), only the run's last key stays.  *split
 * counts the runs.
 */
static animc_status split_shared_times(animc_clip *clip, animc_channel *ch, uint32_t *split)
{
	uint32_t n = ch->key_count, a, b, count = 0;
	const float *t = ch->times_s;
	float *times;
	uint32_t *from;
	animc_status status;

	*split = 0;
	if (!find_shared_run(t, n, 0, &a, &b))
		return ANIMC_OK;
	times = malloc(((size_t)n + 1) * sizeof *times);
	from = malloc(((size_t)n + 1) * sizeof *from);
	if (!times || !from) {
		free(times);
		free(from);
		return ANIMC_ERR_NOMEM;
	}
	for (uint32_t i = 0; i < n;) {
		if (!find_shared_run(t, n, i, &a, &b))
			a = b = n;
		for (; i < a; i++) {
			times[count] = t[i];
			from[count++] = i;
		}
		if (a == n)
			break;
		float at = t[a], before = nextafterf(at, 0.0f);

		if (at > 0 && (count == 0 || before > times[count - 1])) {
			if (count == 0 && before > 0) {
				times[count] = 0;
				from[count++] = a;
			}
			times[count] = before;
			from[count++] = a;
		}
		times[count] = at;
		from[count++] = b;
		(*split)++;
		i = b + 1;
	}
	status = rebuild_keys(clip, ch, times, from, count);
	free(times);
	free(from);
	return status;
}

/* Whether every key of every sequence holds the same pose (exact
 * equality): lengthening such a clip changes nothing one sees. */
static bool clip_is_still(const animc_clip *clip)
{
	for (uint32_t i = 0; i < clip->channel_count; i++) {
		const animc_channel *ch = &clip->channels[i];

		for (int k = 0; k < ANIMC_TRACK_COUNT; k++) {
			const animc_track *t = &ch->tracks[k];
			size_t width = animc_track_width[k];

			if (!t->is_present || t->is_fixed)
				continue;
			for (uint32_t j = 1; j < t->value_count; j++)
				if (memcmp(&t->values[j * width], t->values, width * sizeof *t->values))
					return false;
		}
	}
	return true;
}

/*
 * Sequences whose keys differ by more than a float holds sample as infinity
 * between them, under animrt.h's rule as in the original runtime: no
 * playable form samples as they do, so the clip is refused, naming each.
 */
static animc_status refuse_overflow_spans(const animc_clip *clip, animc_diag_sink *sink)
{
	animc_status status = ANIMC_OK;

	for (uint32_t i = 0; i < clip->channel_count; i++) {
		overflow_span span;

		if (find_overflow_span(&clip->channels[i], &span)) {
			report_overflow_span(sink, ANIMC_ERROR, clip, &clip->channels[i], &span,
					     "; not written: check the exporter's units, or bring the values "
					     "within range (--scale scales translations)");
			status = ANIMC_ERR_LIMIT;
		}
	}
	return status;
}

/* Whether a duration short of ANIMC_MIN_DURATION_S is so by rounding
 * alone (two frames at 120 Hz of a frame time written 0.008333 last
 * 0.016666 s): lengthening it changes nothing a player sees, so it is no
 * warning. */
static bool is_frame_rounded(float duration_s)
{
	return duration_s >= ANIMC_MIN_DURATION_S * (1 - 1e-4f);
}

animc_status animc_pass_playable(animc_clip *clip, animc_diag_sink *sink, animc_pass_stats *stats)
{
	float clip_was = clip->duration_s;
	bool clip_short = !(clip->duration_s >= ANIMC_MIN_DURATION_S);
	bool is_pose = clip_short && clip_is_still(clip);
	uint32_t short_count = 0, held = 0, split_count = 0;
	const animc_channel *first_short = NULL, *first_split = NULL;
	float first_split_time = 0, first_short_was = 0;
	animc_status status = refuse_overflow_spans(clip, sink);

	if (status != ANIMC_OK)
		return status;
	if (clip_short)
		clip->duration_s = ANIMC_MIN_DURATION_S;
	for (uint32_t i = 0; i < clip->channel_count && status == ANIMC_OK; i++) {
		animc_channel *ch = &clip->channels[i];
		uint32_t split;

		if (!(ch->duration_s >= ANIMC_MIN_DURATION_S)) {
			if (!first_short) {
				first_short = ch;
				first_short_was = ch->duration_s;
			}
			if (ch->duration_s == 0 && ch->key_count > 1) {
				status = hold_pose_at_zero(clip, ch);
				held++;
			}
			ch->duration_s = ANIMC_MIN_DURATION_S;
			short_count++;
		}
		if (status == ANIMC_OK && !ch->has_time && ch->key_count > 1 &&
		    ch->key_interval_s > 0 && is_too_dense(ch)) {
			status = give_times(clip, ch);
			if (stats)
				stats->channels_given_times++;
		}
		if (status == ANIMC_OK && ch->has_time && ch->times_s && ch->key_count > 1 && ch->times_s[0] > 0)
			status = hold_first_key_from_zero(clip, ch);
		if (status == ANIMC_OK && ch->has_time && ch->times_s) {
			float at = 0;
			uint32_t a, b;

			if (find_shared_run(ch->times_s, ch->key_count, 0, &a, &b))
				at = ch->times_s[a];
			status = split_shared_times(clip, ch, &split);
			if (split) {
				if (!first_split) {
					first_split = ch;
					first_split_time = at;
				}
				split_count++;
				if (stats)
					stats->shared_times_split += split;
			}
		}
		/* Uniform keys left without a usable interval hold one key (more
		 * would be an invalid clip); it spans the sequence. */
		if (status == ANIMC_OK && !ch->has_time && (ch->key_count == 1 || !(ch->key_interval_s > 0))) {
			if (ch->key_count > 1) {
				uint32_t key = key_at_zero(ch);

				status = rebuild_keys(clip, ch, NULL, &key, 1);
			}
			if (!(ch->key_interval_s > 0) || is_too_dense(ch)) {
				ch->key_interval_s = ch->duration_s;
				if (stats)
					stats->intervals_set++;
			}
		}
	}
	if (status != ANIMC_OK)
		return status;
	if (stats)
		stats->durations_lengthened += short_count + clip_short;
	/* A one-frame clip whose pose does not change is a bind or rest pose,
	 * which exporters write on purpose: a note, not a warning.  One that
	 * moves (a part cut too short, a wrong frame range) warns. */
	if (is_pose && !held && short_count == clip->channel_count)
		animc_clip_report(sink, ANIMC_NOTE, clip, NULL,
				  "is a pose (one frame, %g s); written as lasting 1/60 s, which the original "
				  "runtime needs to play it", (double)clip_was);
	else if ((clip_short || short_count) && is_frame_rounded(clip_short ? clip_was : first_short_was))
		animc_clip_report(sink, ANIMC_NOTE, clip, clip_short ? NULL : first_short,
				  "lasts %g s, a rounding short of a frame at 60 Hz (as a frame time of 1/120 s "
				  "written to 6 places gives); written as lasting 1/60 s", (double)(clip_short ? clip_was :
											  first_short_was));
	else if (clip_short)
		animc_clip_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_SHORT_CLIP, clip, NULL,
				  "lasts %g s, less than a frame at 60 Hz, which the original runtime cannot "
				  "play in a loop; written as lasting 1/60 s%s: if it should move, check the "
				  "exporter's frame range", (double)clip_was,
				  held ? " (sequences of 0 s hold their pose at 0)" : "");
	else if (short_count)
		animc_clip_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_SHORT_CLIP, clip, first_short,
				  "lasts %g s%s less than a frame at 60 Hz, which the original runtime cannot "
				  "play in a loop; written as lasting 1/60 s%s: if it should move, check the "
				  "exporter's frame range", (double)first_short_was,
				  short_count > 1 ? ", as more sequences do," : ",",
				  held ? " (sequences of 0 s hold their pose at 0)" : "");
	if (split_count)
		animc_clip_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_ZERO_LENGTH_SPAN, clip, first_split,
				  "keys share the time %g s%s, where the original runtime divides by 0; moved the "
				  "earlier key one float step earlier (or dropped it where no float lies between): "
				  "export keys at distinct times (a step is two keys a frame apart)",
				  (double)first_split_time, split_count > 1 ? " (as in more sequences)" : "");
	return ANIMC_OK;
}
