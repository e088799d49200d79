/*
 * validate.c - the one statement of what a valid clip is (see
 * animc_clip_validate in animc.h).  Runs after import and before write.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <animc/animc.h>
#include "xnb_layout.h"
#include "clip_internal.h"

typedef struct checker {
	const animc_clip *clip;
	animc_diag_sink *sink;
	unsigned errors;
} checker;

static void fail(checker *c, const animc_channel *channel, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fail(checker *c, const animc_channel *channel, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	animc_clip_vreport(c->sink, ANIMC_ERROR, c->clip, channel, fmt, ap);
	va_end(ap);
	c->errors++;
}

/* Index of the first non-finite float, as a key index for width-wide values. */
static size_t first_non_finite(const float *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(v[i]))
			return i;
	return n;
}

static void check_times(checker *c, const animc_channel *ch, const char *what,
			const float *t, uint32_t n, bool strictly)
{
	size_t bad = first_non_finite(t, n);

	if (bad < n) {
		fail(c, ch, "%s time %zu is %s", what, bad, animc_float_class(t[bad]));
		return;
	}
	for (uint32_t i = 0; i < n; i++) {
		if (t[i] < 0) {
			fail(c, ch, "%s time %u is negative (%g s)", what, i, (double)t[i]);
			return;
		}
		if (i && (strictly ? t[i] <= t[i - 1] : t[i] < t[i - 1])) {
			fail(c, ch, "%s times %s at key %u (%g s after %g s)", what,
			     t[i] < t[i - 1] ? "decrease" : "repeat", i, (double)t[i], (double)t[i - 1]);
			return;
		}
	}
}

static void check_values(checker *c, const animc_channel *ch, animc_track_kind kind,
			 const animc_track *track)
{
	uint32_t width = animc_track_width[kind];
	size_t n = (size_t)track->value_count * width;
	size_t bad = first_non_finite(track->values, n);

	if (bad < n) {
		fail(c, ch, "%s key %zu is %s", animc_track_name[kind], bad / width,
		     animc_float_class(track->values[bad]));
		return;
	}
	if (kind != ANIMC_ROTATION)
		return;
	for (uint32_t i = 0; i < track->value_count; i++) {
		const float *q = &track->values[(size_t)i * 4];
		double len = sqrt((double)q[0] * q[0] + (double)q[1] * q[1] +
				  (double)q[2] * q[2] + (double)q[3] * q[3]);

		if (fabs(len - 1.0) > ANIMC_UNIT_QUAT_TOLERANCE) {
			fail(c, ch, "rotation key %u is not a unit quaternion (length %g)", i, len);
			return;
		}
	}
}

static void check_track(checker *c, const animc_channel *ch, animc_track_kind kind)
{
	const animc_track *track = &ch->tracks[kind];
	const char *name = animc_track_name[kind];

	if (!track->is_present) {
		if (track->value_count)
			fail(c, ch, "%s is absent but has %u values", name, track->value_count);
		return;
	}
	if (track->times_s) {
		if (track->is_fixed)
			fail(c, ch, "%s is fixed but has its own key times", name);
		if (track->value_count < 1)
			fail(c, ch, "%s has no keys", name);
		check_times(c, ch, name, track->times_s, track->value_count, true);
	} else {
		uint32_t want = track->is_fixed ? 1 : ch->key_count;

		if (track->value_count != want) {
			fail(c, ch, "%s has %u values, expected %u (%s)", name, track->value_count, want,
			     track->is_fixed ? "fixed" : "KeyCount");
			return;
		}
	}
	if (track->value_count && !track->values) {
		fail(c, ch, "%s has no value storage", name);
		return;
	}
	check_values(c, ch, kind, track);
}

/* True when every present track keeps its own times: the channel timeline is
 * not built yet (before the merge pass). */
static bool timeline_pending(const animc_channel *ch)
{
	bool any_own = false;

	for (int k = 0; k < ANIMC_TRACK_COUNT; k++) {
		if (ch->tracks[k].is_present && ch->tracks[k].times_s)
			any_own = true;
	}
	return any_own;
}

bool animc_utf8_check(const char *s, size_t size, size_t *bad)
{
	size_t at;

	if (xnb_utf8_check((const uint8_t *)s, size, &at))
		return true;
	if (bad)
		*bad = at;
	return false;
}

static void check_channel(checker *c, const animc_channel *ch, animc_validate_stage stage)
{
	bool pending = timeline_pending(ch);
	bool moving = false;
	size_t bad;

	if (!animc_utf8_check(ch->bone, strlen(ch->bone), &bad))
		fail(c, ch, "the bone name is not UTF-8 (byte %zu)", bad);

	if (pending && stage == ANIMC_STAGE_WRITABLE) {
		fail(c, ch, "tracks still have their own key times (the merge pass has not run)");
		return;
	}

	if (!isfinite(ch->duration_s) || ch->duration_s < 0)
		fail(c, ch, "duration %g s is not a finite non-negative number", (double)ch->duration_s);
	if (!isfinite(ch->key_interval_s) || ch->key_interval_s < 0)
		fail(c, ch, "KeyInterval %g s is not a finite non-negative number", (double)ch->key_interval_s);

	for (int k = 0; k < ANIMC_TRACK_COUNT; k++) {
		const animc_track *t = &ch->tracks[k];

		if (t->is_present && !t->is_fixed && !t->times_s)
			moving = true;
	}
	if (!pending) {
		if (ch->key_count < 1)
			fail(c, ch, "KeyCount is %u; a sequence needs at least one key", ch->key_count);
		if (ch->has_time) {
			if (!ch->times_s)
				fail(c, ch, "HasTime is set but there are no times");
			else
				check_times(c, ch, "key", ch->times_s, ch->key_count, false);
		} else if (ch->times_s) {
			fail(c, ch, "times are given but HasTime is false");
		} else if (moving && ch->key_count > 1 && ch->key_interval_s == 0) {
			fail(c, ch, "uniform keys (HasTime false) need a KeyInterval above 0, not %g",
			     (double)ch->key_interval_s);
		}
	}
	for (int k = 0; k < ANIMC_TRACK_COUNT; k++)
		check_track(c, ch, (animc_track_kind)k);
}

animc_status animc_clip_validate(const animc_clip *clip,
				 const animc_validate_options *options,
				 animc_diag_sink *sink)
{
	static const animc_validate_options defaults;
	checker c = { clip, sink, 0 };

	if (!options)
		options = &defaults;
	if (!isfinite(clip->duration_s) || clip->duration_s < 0)
		fail(&c, NULL, "duration %g s is not a finite non-negative number", (double)clip->duration_s);
	if (options->require_declared_count && clip->declared_channel_count != (int64_t)clip->channel_count) {
		if (clip->declared_channel_count < 0)
			fail(&c, NULL, "KeyFrameSequenceCount is missing (%u sequence%s follow%s)",
			     clip->channel_count, clip->channel_count == 1 ? "" : "s",
			     clip->channel_count == 1 ? "s" : "");
		else
			fail(&c, NULL, "KeyFrameSequenceCount is %lld but %u sequence%s follow%s",
			     (long long)clip->declared_channel_count, clip->channel_count,
			     clip->channel_count == 1 ? "" : "s", clip->channel_count == 1 ? "s" : "");
	}
	for (uint32_t i = 0; i < clip->channel_count; i++)
		check_channel(&c, &clip->channels[i], options->stage);
	return c.errors ? ANIMC_ERR_INVALID : ANIMC_OK;
}
