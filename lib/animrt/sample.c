/*
 * sample.c - pose evaluation: one sequence or a whole clip at a time
 * (the original KeyFrameSequence rule with AnimationBinder's time rule),
 * crossfades and additive layers of poses.  Reads loaded clips, writes the
 * caller's arrays; no allocation, no strings, no state but the caller's
 * cursors.  Standard C and libm only.
 */
#include <math.h>
#include <stdint.h>
#include <stdatomic.h>
#include <string.h>

#include <animc/animrt.h>

#include "compact.h"
#include "interp.h"
#include "sample.h"
#include "simd.h"
#include "time_index.h"

/* The per-bone steps, inlined into each sampler loop whatever the
 * optimiser estimates: a call per bone costs more than some steps. */
#if defined(__GNUC__) || defined(__clang__)
#define BONE_INLINE static inline __attribute__((always_inline))
#else
#define BONE_INLINE static inline
#endif

/* ------------------------------------------------------------ quaternions */

/*
 * Slerps wait in a batch and run together: a slerp is one long chain of
 * dependent arithmetic, and running several side by side, without
 * branches, lets the processor overlap them (and a compiler vectorise).
 */
#define SLERP_BATCH 8

typedef struct slerp_batch {
	uint32_t count;
	bool is_reference;   /* the scalar loop (the reference), else four wide */
	float *out[SLERP_BATCH];
	const float *a[SLERP_BATCH], *b[SLERP_BATCH];
	float u[SLERP_BATCH];
} slerp_batch;

/* The batch four wide (simd.h), transposed in and out; a short last group
 * repeats its first slerp in the empty lanes and stores only its own. */
static void slerp_batch_run_simd(slerp_batch *sb)
{
	for (uint32_t first = 0; first < sb->count; first += 4) {
		uint32_t n = sb->count - first < 4 ? sb->count - first : 4;
		rt_f4 a[4], b[4], out[4];
		float u[4];

		for (uint32_t lane = 0; lane < 4; lane++) {
			uint32_t i = first + (lane < n ? lane : 0);

			a[lane] = rt_load(sb->a[i]);
			b[lane] = rt_load(sb->b[i]);
			u[lane] = sb->u[i];
		}
		rt_transpose(&a[0], &a[1], &a[2], &a[3]);
		rt_transpose(&b[0], &b[1], &b[2], &b[3]);
		rt_slerp4(a, b, rt_load(u), out);
		rt_transpose(&out[0], &out[1], &out[2], &out[3]);
		for (uint32_t lane = 0; lane < n; lane++)
			rt_store(sb->out[first + lane], out[lane]);
	}
	sb->count = 0;
}

static void slerp_batch_run(slerp_batch *sb)
{
	if (!sb->is_reference) {
		slerp_batch_run_simd(sb);
		return;
	}
	uint32_t n = sb->count;
	float w0[SLERP_BATCH], w1[SLERP_BATCH], q[SLERP_BATCH][4];
	bool is_near[SLERP_BATCH];

	for (uint32_t i = 0; i < n; i++) {
		const float *a = sb->a[i], *b = sb->b[i];
		float dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];

		interp_slerp_weights(dot, sb->u[i], &w0[i], &w1[i], &is_near[i]);
	}
	for (uint32_t i = 0; i < n; i++) {
		const float *a = sb->a[i], *b = sb->b[i];

		for (int k = 0; k < 4; k++)
			q[i][k] = w0[i] * a[k] + w1[i] * b[k];
	}
	for (uint32_t i = 0; i < n; i++) {
		float len2 = q[i][0] * q[i][0] + q[i][1] * q[i][1] + q[i][2] * q[i][2] + q[i][3] * q[i][3];
		float scale = is_near[i] && len2 > 0 ? 1.0f / sqrtf(len2) : 1.0f;

		for (int k = 0; k < 4; k++)
			sb->out[i][k] = q[i][k] * scale;
	}
	sb->count = 0;
}

static inline void slerp_batch_add(slerp_batch *sb, float *out, const float *a, const float *b, float u)
{
	uint32_t i = sb->count++;

	sb->out[i] = out;
	sb->a[i] = a;
	sb->b[i] = b;
	sb->u[i] = u;
	if (sb->count == SLERP_BATCH)
		slerp_batch_run(sb);
}

void animrt_rt_quat_slerp(float out[4], const float a[4], const float b[4], float u)
{
	float a_copy[4], b_copy[4];
	slerp_batch sb;

	/* out may be a or b: read both before writing. */
	memcpy(a_copy, a, sizeof a_copy);
	memcpy(b_copy, b, sizeof b_copy);
	sb.count = 0;
	sb.is_reference = true;
	slerp_batch_add(&sb, out, a_copy, b_copy, u);
	slerp_batch_run(&sb);
}

/* ----------------------------------------------------------------- time */

/* t mod d for t > d > 0: exact (the remainder of two floats is a float). */
static float wrap_past_end(float t, float d)
{
	double turns = (double)t / d;

	/* Below 2^29 turns q * d is exact, and so is t - q * d; the division
	 * may be one off near a multiple of d, which the tests below fix. */
	if (turns < 536870912.0) {
		double q = (double)(int32_t)turns;
		double r = (double)t - q * d;

		if (r < 0)
			r += d;
		else if (r >= d)
			r -= d;
		return (float)r;
	}
	return (float)fmod(t, d);
}

float animrt_rt_time_local(float time_s, float duration_s, animrt_play_mode mode)
{
	if (time_s >= 0 && time_s <= duration_s)
		return time_s;
	if (time_s > duration_s) {
		if (mode == ANIMRT_PLAY_ONCE)
			return duration_s;
		/* The original subtracted the duration until the time fit. */
		if (duration_s > 0 && time_s < INFINITY)
			return wrap_past_end(time_s, duration_s);
		return 0;
	}
	/* Negative (or NaN). */
	if (mode == ANIMRT_PLAY_REPEAT && time_s < 0 && time_s > -INFINITY && duration_s > 0) {
		double r = fmod(time_s, duration_s);

		/* -0 stays 0; a remainder so small that r + d rounds to d is
		 * the end of the previous turn, so d is right. */
		return r < 0 ? (float)(r + duration_s) : 0.0f;
	}
	return 0;
}

/* ------------------------------------------------------------- key search */

/* How many keys a cursor walks forward before a binary search is cheaper. */
#define CURSOR_STEPS 4

/*
 * The key interval of t with explicit times.  When t lies strictly between
 * two key times the binary search can only find that interval, so a walk
 * forward from the cursor gives the same answer; a time equal to a key time
 * or behind the cursor goes to the binary search.
 */
BONE_INLINE uint32_t find_key_walk(const float *times, uint32_t last, float t, uint32_t *cursor)
{
	uint32_t k;

	if (t >= times[last])
		return last;
	if (cursor) {
		k = *cursor;
		/* Only when t is within the walk (at random times it is not). */
		if (k < last && times[k] < t && times[k + CURSOR_STEPS < last ? k + CURSOR_STEPS : last] > t) {
			for (int step = 0; step < CURSOR_STEPS && times[k + 1] <= t; step++)
				k++;
			if (times[k] < t && t < times[k + 1]) {
				*cursor = k;
				return k;
			}
		}
	}
	k = interp_find_times(times, last, t);
	if (cursor)
		*cursor = k;
	return k;
}

/* With an index, `from` is the first key of t's bucket (rt_time_index_start). */
BONE_INLINE uint32_t find_key_timed(const animrt_sequence *s, uint32_t last, float t, uint32_t *cursor,
				      uint32_t from)
{
	if (s->time_index)
		return rt_time_index_count(s->times_s, last + 1, from, t);
	return find_key_walk(s->times_s, last, t, cursor);
}

/* Sequences whose keys are found before any is interpolated: the searches
 * of several bones overlap, and so do the loads of their keys. */
#define KEY_BATCH 16

typedef struct key_pair {
	uint32_t i1, i2;
	float u;   /* 0 at key i1, toward 1 at key i2 */
} key_pair;

/* The two keys around local time t (already clamped or wrapped) and the
 * weight between them: CalculateKeyFrameIndex.  At or past the last key,
 * both are the last key (the original's Repeat index2 = 0 is overwritten). */
BONE_INLINE key_pair find_keys(const animrt_sequence *s, float t, uint32_t *cursor, uint32_t from)
{
	uint32_t last = s->key_count - 1;
	key_pair k = { last, last, 0 };

	/* Before the first key time the first key holds (the original
	 * extrapolated); KeyInterval 0 with several keys puts every key at 0,
	 * so the last one holds (the original indexed out of range). */
	if (s->has_time)
		interp_timed_weight(s->times_s, find_key_timed(s, last, t, cursor, from), last, t, &k.i1,
				    &k.i2, &k.u);
	else
		interp_uniform_keys(s->key_interval_s, last, t, &k.i1, &k.i2, &k.u);
	return k;
}

/* -------------------------------------------------------------- sampling */

static const float identity_translation[3] = { 0, 0, 0 };
static const float identity_rotation[4] = { 0, 0, 0, 1 };
static const float identity_scale[3] = { 1, 1, 1 };

/* One sequence at local time t (clamped or wrapped already) into one
 * bone's slots; returns its ANIMRT_TRACK_* bits. */
BONE_INLINE key_pair sequence_keys(const animrt_sequence *s, float t, uint32_t *cursor, uint32_t from)
{
	key_pair k = { 0, 0, 0 };

	if (s->key_count > 1 && (s->translation_count > 1 || s->rotation_count > 1 || s->scale_count > 1))
		k = find_keys(s, t, cursor, from);
	return k;
}

/* The first key of t's bucket in a sequence with a time index, else 0. */
BONE_INLINE uint32_t bucket_start(const animrt_sequence *s, float t)
{
	return s->time_index ? rt_time_index_start(s->time_index, t) : 0;
}

BONE_INLINE uint8_t sample_sequence_at(const animrt_sequence *s, key_pair k, float *T, float *R, float *S,
					 slerp_batch *slerps)
{
	uint8_t tracks = 0;

	if (s->translation_count > 1 && k.u > 0)
		interp_lerp3(T, s->translation + 3 * (size_t)k.i1, s->translation + 3 * (size_t)k.i2, k.u);
	else if (s->translation_count > 1)
		memcpy(T, s->translation + 3 * (size_t)k.i1, 3 * sizeof(float));
	else
		memcpy(T, s->translation_count ? s->translation : identity_translation, 3 * sizeof(float));
	if (s->has_translation)
		tracks |= ANIMRT_TRACK_TRANSLATION;

	if (s->rotation_count > 1 && k.u > 0)
		slerp_batch_add(slerps, R, s->rotation + 4 * (size_t)k.i1, s->rotation + 4 * (size_t)k.i2,
				k.u);
	else if (s->rotation_count > 1)
		memcpy(R, s->rotation + 4 * (size_t)k.i1, 4 * sizeof(float));
	else
		memcpy(R, s->rotation_count ? s->rotation : identity_rotation, 4 * sizeof(float));
	if (s->has_rotation)
		tracks |= ANIMRT_TRACK_ROTATION;

	if (s->scale_count > 1 && k.u > 0)
		interp_lerp3(S, s->scale + 3 * (size_t)k.i1, s->scale + 3 * (size_t)k.i2, k.u);
	else if (s->scale_count > 1)
		memcpy(S, s->scale + 3 * (size_t)k.i1, 3 * sizeof(float));
	else
		memcpy(S, s->scale_count ? s->scale : identity_scale, 3 * sizeof(float));
	if (s->has_scale)
		tracks |= ANIMRT_TRACK_SCALE;
	return tracks;
}

static inline uint8_t sample_sequence(const animrt_sequence *s, float t, uint32_t *cursor, float *T,
				      float *R, float *S, slerp_batch *slerps)
{
	return sample_sequence_at(s, sequence_keys(s, t, cursor, bucket_start(s, t)), T, R, S, slerps);
}

animrt_status animrt_sequence_sample(const animrt_sequence *seq, float time_s, animrt_play_mode mode,
				     uint32_t *cursor, float translation[3], float rotation[4], float scale[3])
{
	slerp_batch slerps;
	float t[3], r[4], s[3];

	if (!seq)
		return ANIMRT_ERR_ARGUMENT;
	if (!rt_mode_ok(mode))
		return ANIMRT_ERR_PLAY_MODE;
	if (seq->compact) {
		animrt_rt_sample_compact_sequence(seq, animrt_rt_time_local(time_s, seq->duration_s, mode), translation,
					   rotation, scale);
		return ANIMRT_OK;
	}
	/* Only the count and the flag: zeroing the arrays would cost more
	 * than a bone sample. */
	slerps.count = 0;
	slerps.is_reference = false;
	/* A track the caller does not want is sampled into scratch: the
	 * sampler writes all three (a branch per track would cost more). */
	sample_sequence(seq, animrt_rt_time_local(time_s, seq->duration_s, mode), cursor, translation ? translation : t,
			rotation ? rotation : r, scale ? scale : s, &slerps);
	slerp_batch_run(&slerps);
	return ANIMRT_OK;
}

animrt_status animrt_clip_sample_bone(const animrt_clip *clip, uint32_t sequence, float time_s,
				      animrt_play_mode mode, animrt_context *context, float translation[3],
				      float rotation[4], float scale[3])
{
	if (!clip)
		return ANIMRT_ERR_ARGUMENT;
	if (!rt_mode_ok(mode))
		return ANIMRT_ERR_PLAY_MODE;
	if (sequence >= clip->sequence_count)
		return ANIMRT_ERR_BONE;
	/* The context keeps what it caches by pose slot: the clip's bones. */
	if (context && (context->bone_count < clip->sequence_count || !rt_context_follows(context, clip, NULL, 0)))
		return ANIMRT_ERR_CONTEXT_SIZE;
	if (clip->compact && clip->compact->is_packed) {
		float *const out[3] = { translation, rotation, scale };

		animrt_rt_packed_sample_bone(clip, sequence, animrt_rt_time_local(time_s, clip->duration_s, mode), context, out);
		return ANIMRT_OK;
	}
	return animrt_sequence_sample(&clip->sequences[sequence], time_s, mode,
				      context ? &context->cursor[sequence] : NULL, translation, rotation, scale);
}

/* The time rule per sequence, computed once for a run of sequences of one
 * duration (in RobotGame clips every sequence has the clip's duration). */
typedef struct local_time_cache {
	float time_s, duration_s, local_s;
	animrt_play_mode mode;
} local_time_cache;

static inline float cached_local_time(local_time_cache *c, float duration_s)
{
	if (duration_s != c->duration_s) {
		c->duration_s = duration_s;
		c->local_s = animrt_rt_time_local(c->time_s, duration_s, c->mode);
	}
	return c->local_s;
}

static void set_identity(animrt_pose *pose, uint32_t bone)
{
	memcpy(pose->translation + 3 * (size_t)bone, identity_translation, sizeof identity_translation);
	memcpy(pose->rotation + 4 * (size_t)bone, identity_rotation, sizeof identity_rotation);
	memcpy(pose->scale + 3 * (size_t)bone, identity_scale, sizeof identity_scale);
	pose->tracks[bone] = 0;
}

static bool pose_ok(const animrt_pose *pose)
{
	return pose && (pose->bone_count == 0 ||
			(pose->translation && pose->rotation && pose->scale && pose->tracks));
}

/* What the samplers refuse, in this order: NULL (ARGUMENT), the play mode,
 * the pose's size (`bones_ok`), the context's bones, then (by the caller,
 * rt_context_follows) the context's tracks. */
static inline animrt_status sample_check(bool has_object, const animrt_pose *pose, animrt_play_mode mode,
					 bool bones_ok, const animrt_context *ctx)
{
	if (!has_object || !pose_ok(pose))
		return ANIMRT_ERR_ARGUMENT;
	if (!rt_mode_ok(mode))
		return ANIMRT_ERR_PLAY_MODE;
	if (!bones_ok)
		return ANIMRT_ERR_POSE_SIZE;
	if (ctx && ctx->bone_count < pose->bone_count)
		return ANIMRT_ERR_CONTEXT_SIZE;
	return ANIMRT_OK;
}

/* The clip (or a binding's) at time_s: four wide, or with the reference's
 * scalar code. */
/* The key cursors: `cursors` one per bone, or a context's. */
static inline uint32_t *cursor_of(uint32_t *cursors, animrt_context *ctx, uint32_t bone)
{
	return ctx ? &ctx->cursor[bone] : cursors ? &cursors[bone] : NULL;
}

/*
 * The keys of sequences first .. first + n - 1 (n <= KEY_BATCH) at the
 * time `lt` holds, each with the cursor of its pose bone: bone_of[sequence]
 * (a binding's; ANIMRT_NO_BONE: none, its key left unset), or the sequence
 * itself where bone_of is NULL.  With time indexes, the buckets' first keys
 * are looked up first, so that their loads overlap; without, one loop (a
 * second one costs lossless sampling 4%).  Inlined into each sampler,
 * where bone_of is a constant NULL or not.
 */
BONE_INLINE uint32_t batch_bone(const uint32_t *bone_of, uint32_t sequence)
{
	return bone_of ? bone_of[sequence] : sequence;
}

/* A hint only: the address is computed as an integer, since a track
 * with fewer keys (fixed, absent: NULL) is never read at key i. */
static inline void prefetch_key(const float *values, unsigned width, uint32_t i)
{
#if defined(__GNUC__) || defined(__clang__)
	__builtin_prefetch((const void *)((uintptr_t)values + (uintptr_t)i * width * sizeof(float)));
#else
	(void)values, (void)width, (void)i;
#endif
}

BONE_INLINE void batch_keys(const animrt_clip *clip, uint32_t first, uint32_t n, const uint32_t *bone_of,
			    local_time_cache *lt, uint32_t *cursors, animrt_context *ctx, key_pair *keys)
{
	const animrt_sequence *q = clip->sequences + first;

	if (clip->has_time_index) {
		uint32_t from[KEY_BATCH];
		float local[KEY_BATCH];

		for (uint32_t j = 0; j < n; j++) {
			local[j] = cached_local_time(lt, q[j].duration_s);
			from[j] = bucket_start(&q[j], local[j]);
		}
		for (uint32_t j = 0; j < n; j++) {
			uint32_t b = batch_bone(bone_of, first + j);

			if (b == ANIMRT_NO_BONE)
				continue;
			keys[j] = sequence_keys(&q[j], local[j], cursor_of(cursors, ctx, b), from[j]);
			/* The values' lines load while the next bones' times
			 * do: found through the times, they are a third load
			 * in a row at random times, and the bone's
			 * interpolation comes only after the batch. */
			prefetch_key(q[j].rotation, 4, keys[j].i1);
			prefetch_key(q[j].translation, 3, keys[j].i1);
		}
		return;
	}
	for (uint32_t j = 0; j < n; j++) {
		uint32_t b = batch_bone(bone_of, first + j);
		float t = cached_local_time(lt, q[j].duration_s);

		if (b != ANIMRT_NO_BONE)
			keys[j] = sequence_keys(&q[j], t, cursor_of(cursors, ctx, b), bucket_start(&q[j], t));
	}
}

/* A compact clip at time_s, through `map` when bound: the sampler of a clip
 * packed at load, or the reference or SIMD one of a clip decoded at load. */
static inline void sample_compact(const animrt_clip *clip, float time_s, animrt_play_mode mode, const uint32_t *map,
				  animrt_context *ctx, animrt_pose *pose, bool is_reference)
{
	float local_s = animrt_rt_time_local(time_s, clip->duration_s, mode);

	if (clip->compact->is_packed)
		animrt_rt_sample_packed(clip, local_s, map, ctx, pose, is_reference);
	else if (is_reference)
		animrt_rt_sample_compact_reference(clip, local_s, map, pose);
	else
		animrt_rt_sample_compact_simd(clip, local_s, map, pose);
}

static inline animrt_status clip_sample(const animrt_clip *clip, float time_s, animrt_play_mode mode,
					uint32_t *cursors, animrt_context *ctx, animrt_pose *pose, bool is_reference)
{
	animrt_status st = sample_check(clip, pose, mode, clip && pose && pose->bone_count >= clip->sequence_count, ctx);

	if (st != ANIMRT_OK)
		return st;
	if (!rt_context_follows(ctx, clip, NULL, 0))
		return ANIMRT_ERR_CONTEXT_SIZE;
	local_time_cache lt = { time_s, -1, 0, mode };
	slerp_batch slerps;

	slerps.count = 0;
	slerps.is_reference = is_reference;

	if (clip->compact) {
		sample_compact(clip, time_s, mode, NULL, ctx, pose, is_reference);
		for (uint32_t i = clip->sequence_count; i < pose->bone_count; i++)
			set_identity(pose, i);
		return ANIMRT_OK;
	}
	for (uint32_t first = 0; first < clip->sequence_count; first += KEY_BATCH) {
		uint32_t n = clip->sequence_count - first < KEY_BATCH ? clip->sequence_count - first : KEY_BATCH;
		key_pair keys[KEY_BATCH];

		batch_keys(clip, first, n, NULL, &lt, cursors, ctx, keys);
		for (uint32_t j = 0; j < n; j++) {
			uint32_t i = first + j;

			pose->tracks[i] = sample_sequence_at(&clip->sequences[i], keys[j], pose->translation + 3 * (size_t)i,
							     pose->rotation + 4 * (size_t)i, pose->scale + 3 * (size_t)i,
							     &slerps);
		}
	}
	slerp_batch_run(&slerps);
	for (uint32_t i = clip->sequence_count; i < pose->bone_count; i++)
		set_identity(pose, i);
	return ANIMRT_OK;
}

static inline animrt_status binding_sample(const animrt_binding *binding, float time_s, animrt_play_mode mode,
					   uint32_t *cursors, animrt_context *ctx, animrt_pose *pose,
					   bool is_reference)
{
	animrt_status st = sample_check(binding, pose, mode, binding && pose && pose->bone_count == binding->bone_count,
					ctx);

	if (st != ANIMRT_OK)
		return st;
	const animrt_clip *clip = binding->clip;
	if (!rt_context_follows(ctx, clip, binding->sample_map, binding->serial))
		return ANIMRT_ERR_CONTEXT_SIZE;
	local_time_cache lt = { time_s, -1, 0, mode };
	slerp_batch slerps;

	slerps.count = 0;
	slerps.is_reference = is_reference;

	if (clip->compact) {
		sample_compact(clip, time_s, mode, binding->sample_map, ctx, pose, is_reference);
		for (uint32_t i = 0; i < binding->unanimated_count; i++)
			set_identity(pose, binding->unanimated[i]);
		return ANIMRT_OK;
	}
	for (uint32_t first = 0; first < clip->sequence_count; first += KEY_BATCH) {
		uint32_t n = clip->sequence_count - first < KEY_BATCH ? clip->sequence_count - first : KEY_BATCH;
		key_pair keys[KEY_BATCH];

		/* Through sample_map: of two sequences of one bone, the later
		 * alone is written (an earlier one's rotation would land last,
		 * when the slerp batch runs). */
		batch_keys(clip, first, n, binding->sample_map, &lt, cursors, ctx, keys);
		for (uint32_t j = 0; j < n; j++) {
			uint32_t i = first + j, b = binding->sample_map[i];

			if (b != ANIMRT_NO_BONE)
				pose->tracks[b] = sample_sequence_at(&clip->sequences[i], keys[j],
								     pose->translation + 3 * (size_t)b,
								     pose->rotation + 4 * (size_t)b,
								     pose->scale + 3 * (size_t)b, &slerps);
		}
	}
	slerp_batch_run(&slerps);
	for (uint32_t i = 0; i < binding->unanimated_count; i++)
		set_identity(pose, binding->unanimated[i]);
	return ANIMRT_OK;
}

animrt_status animrt_clip_sample(const animrt_clip *clip, float time_s, animrt_play_mode mode,
				 uint32_t *cursors, animrt_pose *pose)
{
	return clip_sample(clip, time_s, mode, cursors, NULL, pose, false);
}

animrt_status animrt_rt_clip_sample_reference(const animrt_clip *clip, float time_s, animrt_play_mode mode,
				       uint32_t *cursors, animrt_pose *pose)
{
	return clip_sample(clip, time_s, mode, cursors, NULL, pose, true);
}

animrt_status animrt_binding_sample(const animrt_binding *binding, float time_s, animrt_play_mode mode,
				    uint32_t *cursors, animrt_pose *pose)
{
	return binding_sample(binding, time_s, mode, cursors, NULL, pose, false);
}

animrt_status animrt_rt_binding_sample_reference(const animrt_binding *binding, float time_s, animrt_play_mode mode,
					  uint32_t *cursors, animrt_pose *pose)
{
	return binding_sample(binding, time_s, mode, cursors, NULL, pose, true);
}

/* ----------------------------------------------------------------- poses */

size_t animrt_pose_size_bytes(uint32_t bone_count)
{
	/* Rotation first, so quaternions start 16-byte aligned; a multiple of
	 * 16 bytes, so that what follows a pose in one block is aligned too. */
	size_t per_bone = (4 + 3 + 3) * sizeof(float) + 1;

	if (bone_count > (SIZE_MAX - 15) / per_bone)
		return 0;
	return ((size_t)bone_count * per_bone + 15) & ~(size_t)15;
}

void animrt_pose_init(animrt_pose *pose, void *memory, uint32_t bone_count)
{
	float *f = memory;

	if (!pose)
		return;
	if (!f) {
		/* No block (a failed malloc): a pose of no bones, which every
		 * call refuses for a clip that has some. */
		*pose = (animrt_pose){ 0, NULL, NULL, NULL, NULL };
		return;
	}
	pose->bone_count = bone_count;
	pose->rotation = f;
	pose->translation = f + 4 * (size_t)bone_count;
	pose->scale = f + 7 * (size_t)bone_count;
	pose->tracks = (uint8_t *)(f + 10 * (size_t)bone_count);
	animrt_pose_reset(pose);
}

void animrt_pose_reset(animrt_pose *pose)
{
	if (!pose_ok(pose))
		return;
	for (uint32_t i = 0; i < pose->bone_count; i++)
		set_identity(pose, i);
}

static inline float clamp_weight(float w)
{
	return w > 0 ? (w < 1 ? w : 1) : 0;   /* NaN gives 0 */
}

/* One track of a crossfade: a's value, b's, their blend, or identity. */
static inline void blend_track(float *out, const float *a, const float *b, unsigned ma, unsigned mb,
			       unsigned bit, float w, unsigned width, const float *identity)
{
	const float *from = identity;
	float q[4];

	if ((ma & bit) && (mb & bit)) {
		if (w <= 0) {
			from = a;
		} else if (w >= 1) {
			from = b;
		} else if (width == 4) {
			animrt_rt_quat_slerp(q, a, b, w);
			from = q;
		} else {
			interp_lerp3(q, a, b, w);
			from = q;
		}
	} else if (ma & bit) {
		from = a;
	} else if (mb & bit) {
		from = b;
	}
	memmove(out, from, width * sizeof(float));
}

/* ANIMRT_OK when a and b are poses of one bone count. */
static animrt_status same_shape(const animrt_pose *a, const animrt_pose *b)
{
	if (!pose_ok(a) || !pose_ok(b))
		return ANIMRT_ERR_ARGUMENT;
	return a->bone_count == b->bone_count ? ANIMRT_OK : ANIMRT_ERR_POSE_SIZE;
}

animrt_status animrt_pose_blend(const animrt_pose *a, const animrt_pose *b, float weight,
				animrt_pose *out)
{
	float w = clamp_weight(weight);
	animrt_status st = same_shape(a, b);

	if (st == ANIMRT_OK)
		st = same_shape(a, out);
	if (st != ANIMRT_OK)
		return st;
	for (uint32_t i = 0; i < out->bone_count; i++) {
		unsigned ma = a->tracks[i], mb = b->tracks[i];

		blend_track(out->translation + 3 * (size_t)i, a->translation + 3 * (size_t)i,
			    b->translation + 3 * (size_t)i, ma, mb, ANIMRT_TRACK_TRANSLATION, w, 3,
			    identity_translation);
		blend_track(out->rotation + 4 * (size_t)i, a->rotation + 4 * (size_t)i,
			    b->rotation + 4 * (size_t)i, ma, mb, ANIMRT_TRACK_ROTATION, w, 4,
			    identity_rotation);
		blend_track(out->scale + 3 * (size_t)i, a->scale + 3 * (size_t)i, b->scale + 3 * (size_t)i,
			    ma, mb, ANIMRT_TRACK_SCALE, w, 3, identity_scale);
		out->tracks[i] = (uint8_t)(ma | mb);
	}
	return ANIMRT_OK;
}

animrt_status animrt_pose_add(const animrt_pose *base, const animrt_pose *layer,
			      const animrt_pose *reference, float weight, animrt_pose *out)
{
	float w = clamp_weight(weight);
	animrt_status st = same_shape(base, layer);

	if (st == ANIMRT_OK)
		st = same_shape(base, out);
	if (st == ANIMRT_OK && reference)
		st = same_shape(base, reference);
	if (st != ANIMRT_OK)
		return st;
	for (uint32_t i = 0; i < out->bone_count; i++) {
		unsigned ml = layer->tracks[i], mb = base->tracks[i];
		const float *bt = base->translation + 3 * (size_t)i, *lt = layer->translation + 3 * (size_t)i;
		const float *br = base->rotation + 4 * (size_t)i, *lr = layer->rotation + 4 * (size_t)i;
		const float *bs = base->scale + 3 * (size_t)i, *ls = layer->scale + 3 * (size_t)i;
		const float *rt = reference ? reference->translation + 3 * (size_t)i : identity_translation;
		const float *rr = reference ? reference->rotation + 4 * (size_t)i : identity_rotation;
		const float *rs = reference ? reference->scale + 3 * (size_t)i : identity_scale;
		float t[3], r[4], s[3];

		memcpy(t, bt, sizeof t);
		memcpy(r, br, sizeof r);
		memcpy(s, bs, sizeof s);
		if (w > 0 && (ml & ANIMRT_TRACK_TRANSLATION))
			for (int k = 0; k < 3; k++)
				t[k] += w * (lt[k] - rt[k]);
		if (w > 0 && (ml & ANIMRT_TRACK_ROTATION)) {
			const float conj[4] = { -rr[0], -rr[1], -rr[2], rr[3] };
			float delta[4];

			interp_quat_mul(delta, conj, lr);
			/* At weight 1 the whole delta, so that reference = base
			 * gives the layer's quaternion itself, not its negation. */
			if (w < 1)
				animrt_rt_quat_slerp(delta, identity_rotation, delta, w);
			interp_quat_mul(r, br, delta);
		}
		if (w > 0 && (ml & ANIMRT_TRACK_SCALE))
			for (int k = 0; k < 3; k++)
				s[k] += w * (ls[k] - rs[k]);
		memcpy(out->translation + 3 * (size_t)i, t, sizeof t);
		memcpy(out->rotation + 4 * (size_t)i, r, sizeof r);
		memcpy(out->scale + 3 * (size_t)i, s, sizeof s);
		/* Weight 0 is the base, its tracks too: a crossfade that
		 * follows must not take the layer's bones for animated. */
		out->tracks[i] = (uint8_t)(w > 0 ? mb | ml : mb);
	}
	return ANIMRT_OK;
}

/* --------------------------------------------------------------- context */

/* At most 2^32 bones of 384 bytes, or 2^32 bones and tracks of 45 and
 * 112: no overflow in a 64-bit size_t, and checked where size_t is
 * narrower. */
size_t animrt_context_size_bytes(uint32_t bone_count)
{
	if ((uint64_t)bone_count * ANIMRT_CONTEXT_BYTES_PER_BONE + ANIMRT_CONTEXT_HEADER_BYTES > (uint64_t)SIZE_MAX)
		return 0;
	return ANIMRT_CONTEXT_HEADER_BYTES + (size_t)bone_count * ANIMRT_CONTEXT_BYTES_PER_BONE;
}

/* The header (two alignments included), a cursor and the image per bone,
 * and the caches. */
size_t animrt_context_size_bytes_for(uint32_t bone_count, uint32_t track_count)
{
	/* A multiple of 16, as a pose's size is: aligned_alloc(16, size)
	 * takes it, and contexts carved one after another from a block stay
	 * aligned. */
	uint64_t bytes = (ANIMRT_CONTEXT_HEADER_BYTES + (uint64_t)bone_count * (4 + 41) +
			  (uint64_t)track_count * sizeof(rt_v3_cache) + 15) & ~(uint64_t)15;

	return bytes > (uint64_t)SIZE_MAX ? 0 : (size_t)bytes;
}

animrt_context *animrt_context_init_for(void *memory, uint32_t bone_count, uint32_t track_count)
{
	animrt_context *ctx = memory;

	/* The caches are read 16 bytes at a time. */
	if (!ctx || (uintptr_t)memory % 16)
		return NULL;
	size_t image_at = (sizeof *ctx + 4 * (size_t)bone_count + 15) & ~(size_t)15;
	size_t caches_at = (image_at + 41 * (size_t)bone_count + 15) & ~(size_t)15;

	if (image_at > UINT32_MAX || caches_at > UINT32_MAX)
		return NULL;
	ctx->bone_count = bone_count;
	ctx->track_capacity = track_count;
	ctx->image_at = (uint32_t)image_at;
	ctx->caches_at = (uint32_t)caches_at;
	animrt_context_reset(ctx);
	return ctx;
}

animrt_context *animrt_context_init(void *memory, uint32_t bone_count)
{
	/* Three tracks a bone: room for any clip of bone_count bones. */
	uint32_t tracks = bone_count > UINT32_MAX / 3 ? UINT32_MAX : 3 * bone_count;

	return animrt_context_init_for(memory, bone_count, tracks);
}

uint64_t animrt_rt_new_serial(void)
{
	static _Atomic uint64_t last;

	return atomic_fetch_add_explicit(&last, 1, memory_order_relaxed) + 1;
}

void animrt_context_reset(animrt_context *ctx)
{
	if (!ctx)
		return;
	ctx->clip = NULL;
	ctx->map = NULL;
	ctx->clip_serial = ctx->map_serial = 0;
	ctx->track_count = 0;
	memset(ctx->cursor, 0, (size_t)ctx->bone_count * sizeof(uint32_t));
}

animrt_status animrt_clip_sample_with(const animrt_clip *clip, float time_s, animrt_play_mode mode,
				      animrt_context *context, animrt_pose *pose)
{
	return clip_sample(clip, time_s, mode, NULL, context, pose, false);
}

animrt_status animrt_binding_sample_with(const animrt_binding *binding, float time_s, animrt_play_mode mode,
					 animrt_context *context, animrt_pose *pose)
{
	return binding_sample(binding, time_s, mode, NULL, context, pose, false);
}

animrt_status animrt_rt_clip_sample_reference_with(const animrt_clip *clip, float time_s, animrt_play_mode mode,
					    animrt_context *context, animrt_pose *pose)
{
	return clip_sample(clip, time_s, mode, NULL, context, pose, true);
}
