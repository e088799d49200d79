/*
 * context_v3.c - a context (animrt.h) playing a clip of reader version 3
 * in place.  When the context starts to follow the clip it decodes the
 * still pose (constants, identity, track bits) once into its image, and
 * makes one cache per animated track the pose takes (rotations first).
 * Each sample then copies the image, and per cache interpolates the two
 * keys it holds; a cache goes back to the record (the plain C lane
 * decode, sample_v3.c and lane_v3.h, or on processors with AVX2 its build
 * in sample_v3_simd.c) only when the playhead leaves its keys' span, and
 * forward playback then mostly unpacks key b alone (with AVX2, keys a and
 * b at once where the playhead stays in the segment).  The keys are those
 * the samplers without a context decode, and the interpolation takes the
 * same operations, so a context changes no bit.  Rotations slerp four at
 * a time (simd.h), eight on processors with AVX2, with the arc between
 * their keys computed once.
 */
#include <string.h>

#include <animc/animrt.h>

#include "compact.h"
#include "compact_layout.h"
#include "interp.h"
#include "lane_v3.h"
#include "simd.h"

/* ------------------------------------------------------------ the plan */

/*
 * A step further than RT_JUMP_SAMPLES grid samples, RT_JUMP_SECONDS, or
 * an eighth of the clip from the context's last sample (either way round
 * the clip: a loop's wrap is near) is a jump: a seek, a scrub, a blend's
 * new clip time.  The caches would then mostly go back to the records one
 * track at a time, which costs about twice the sampler without a context
 * (AVX2 or four wide, a group of tracks at once, sample_packed.c); that
 * one takes the call, and the caches stay as they are (each still holds
 * keys of its own span, checked per sample).  So do the two samples after
 * a jump: random times often fall near the last one in a short clip, but
 * seldom three times in a row (RT_CONTEXT_SETTLE), which says the clip
 * plays from there, and the caches refill.  Playback moves 1/60 s a frame
 * at 60 Hz (0.1 to 2 grid samples on 6 to 120 Hz grids), 0.1 s at 10 Hz;
 * in a clip of a few grid samples, where random times are all within
 * 0.125 s, it may go without the context.
 */
#define RT_JUMP_SAMPLES 8.0f
#define RT_JUMP_SECONDS 0.125f
#define RT_JUMP_OF_CLIP 0.125f

/* A cache's arc until the slerps compute it. */
static const rt_arc no_arc = { RT_NO_ARC, 0 };

static const float identity_value[COMPACT_TRACKS][4] = { { 0, 0, 0, 0 }, { 0, 0, 0, 1 }, { 1, 1, 1, 0 } };

/* The context's image as a pose of its bone count. */
static animrt_pose image_pose(animrt_context *ctx)
{
	float *image = rt_context_image(ctx);
	size_t n = ctx->bone_count;
	animrt_pose pose;

	memset(&pose, 0, sizeof pose);
	pose.bone_count = ctx->bone_count;
	pose.translation = image;
	pose.rotation = image + 3 * n;
	pose.scale = image + 7 * n;
	pose.tracks = (uint8_t *)(image + 10 * n);
	return pose;
}

/* The still pose into the image: identity in every slot, then the clip's
 * through `map`.  False when a bone would go past the context's bones. */
static bool plan_image(animrt_context *ctx, const struct animrt_compact *c, const uint32_t *map)
{
	animrt_pose pose = image_pose(ctx);

	for (uint32_t b = 0; b < c->bone_count; b++) {
		uint32_t slot = map ? map[b] : b;

		if (slot != RT_NO_BONE && slot >= ctx->bone_count)
			return false;
	}
	for (uint32_t slot = 0; slot < ctx->bone_count; slot++) {
		memcpy(pose.translation + 3 * (size_t)slot, identity_value[ANIMRT_TRANSLATION], 3 * sizeof(float));
		memcpy(pose.rotation + 4 * (size_t)slot, identity_value[ANIMRT_ROTATION], 4 * sizeof(float));
		memcpy(pose.scale + 3 * (size_t)slot, identity_value[ANIMRT_SCALE], 3 * sizeof(float));
		pose.tracks[slot] = 0;
	}
	animrt_rt_v3_still(&c->packed, map, &pose);
	return true;
}

/* The caches of the groups of one kind (rotations, or the others); false
 * when they do not fit. */
static bool plan_caches(animrt_context *ctx, const struct animrt_compact *c, const uint32_t *map, bool rotations)
{
	rt_v3_cache *caches = rt_context_v3_caches(ctx);

	for (uint32_t g = 0; g < c->group_count; g++) {
		const rt_group *gr = &c->groups[g];

		if ((gr->kind == ANIMRT_ROTATION) != rotations)
			continue;
		for (uint32_t l = 0; l < gr->used; l++) {
			uint32_t slot = map ? map[gr->bone[l]] : gr->bone[l];

			if (slot == RT_NO_BONE)
				continue;
			if (ctx->track_count == ctx->track_capacity)
				return false;
			rt_v3_cache *tc = &caches[ctx->track_count++];

			memset(tc, 0, sizeof *tc);
			tc->segment = RT_NO_SEGMENT;
			tc->k1 = RT_HOLD;
			tc->slot = slot;
			tc->at = g * RT_LANES + l;
			tc->track = (uint8_t)gr->kind;
		}
	}
	return true;
}

bool animrt_rt_v3_context_plan(animrt_context *ctx, const animrt_clip *clip, const uint32_t *map)
{
	const struct animrt_compact *c = clip->compact;

	ctx->track_count = 0;
	ctx->playhead = 0;
	ctx->near_run = 0;
	ctx->period = c->packed.duration_s;
	/* In grid samples, then seconds (a grid of one sample: none moves). */
	float seconds = RT_JUMP_SECONDS * c->packed.rate_hz, of_clip = RT_JUMP_OF_CLIP * (float)c->packed.sample_count;
	float near = seconds < RT_JUMP_SAMPLES ? seconds : RT_JUMP_SAMPLES;
	near = of_clip < near ? of_clip : near;
	ctx->near = c->packed.rate_hz > 0 ? near / c->packed.rate_hz : 0;
	if (!plan_image(ctx, c, map) || !plan_caches(ctx, c, map, true))
		return false;
	ctx->rotation_count = ctx->track_count;
	return plan_caches(ctx, c, map, false);
}

bool animrt_rt_context_follow(animrt_context *ctx, const animrt_clip *clip, const uint32_t *map, uint64_t map_serial)
{
	if (!ctx || rt_context_is_on(ctx, clip, map, map_serial))
		return true;
	animrt_context_reset(ctx);
	if (rt_is_v3(clip) && !animrt_rt_v3_context_plan(ctx, clip, map)) {
		animrt_context_reset(ctx);
		return false;
	}
	ctx->clip = clip;
	ctx->map = map;
	ctx->clip_serial = rt_clip_serial(clip);
	ctx->map_serial = map_serial;
	return true;
}

uint32_t animrt_clip_context_tracks(const animrt_clip *clip)
{
	return clip && clip->compact && clip->compact->is_packed ? clip->compact->packed.animated_count : 0;
}

/* ------------------------------------------------------------- refills */

/* The grid sample of a position in a segment, as the samplers take it. */
static inline uint32_t sample_of(rt_where at)
{
	uint32_t i = (uint32_t)at.local;

	return i < COMPACT_SEGMENT_SAMPLES - 1 ? i : COMPACT_SEGMENT_SAMPLES - 1;
}

/* Does the cache hold the keys around `at`? */
static inline bool cache_holds(const rt_v3_cache *tc, rt_where at)
{
	uint32_t i = sample_of(at);

	return tc->segment == at.segment && tc->k0 <= i && (tc->k1 == RT_HOLD || i < tc->k1);
}

/* Key j of a lane (lane_v3.h), as cache_keys takes it. */
static void plain_key(const rt_v3_lane *v, uint32_t j, unsigned track, float out[4])
{
	rt_v3_lane_key(v, j, track, out);
}

/* How a refill decodes a lane in a record and a key of a lane: in plain
 * C, or built for processors with AVX2 (the same bits). */
typedef struct refill_ops {
	rt_v3_lane (*lane_in)(const struct animrt_compact *c, uint32_t g, uint32_t s, uint32_t l);
	rt_v3_key_fn key;
} refill_ops;

static const refill_ops plain_ops = { animrt_rt_v3_lane_in, plain_key };
#if RT_V3_CONTEXT_NEWER
static const refill_ops newer_ops = { animrt_rt_v3_lane_in_newer, animrt_rt_v3_lane_key_newer };
#endif

/* The lane's decoding in segment s (kept from an earlier refill, or
 * found in the record). */
static inline void cache_lane(const struct animrt_compact *c, rt_v3_cache *tc, uint32_t s, const refill_ops *ops)
{
	if (tc->lane.segment != s || tc->segment == RT_NO_SEGMENT)
		tc->lane = ops->lane_in(c, tc->at / RT_LANES, s, tc->at % RT_LANES);
}

/*
 * Key j of the cache's segment (the old key b when b_is_a) as key a, at
 * sample k0, and the key after it as key b: the next in the segment
 * (`above`: the mask past k0), else the next segment's first, else key a
 * again (the last key holds).  sample_v3.c's lane_sample, with the lane's
 * decoding kept.
 */
static void cache_keys(const struct animrt_compact *c, rt_v3_cache *tc, uint32_t j, uint32_t k0, uint64_t above,
		       bool b_is_a, const refill_ops *ops)
{
	unsigned track = tc->track;

	if (b_is_a)
		memcpy(tc->a, tc->b, sizeof tc->a);
	else
		ops->key(&tc->lane, j, track, tc->a);
	tc->j = (uint8_t)j;
	tc->k0 = (uint8_t)k0;
	if (above) {
		tc->k1 = (uint8_t)rt_ctz64(above);
		ops->key(&tc->lane, j + 1, track, tc->b);
	} else if (tc->segment + 1 < c->segment_count) {
		/* Key a is the segment's last: the next refill is in the next
		 * segment, which keeps the lane's decoding there. */
		cache_lane(c, tc, tc->segment + 1, ops);
		tc->k1 = RT_NEXT_SEGMENT;
		ops->key(&tc->lane, 0, track, tc->b);
	} else {
		tc->k1 = RT_HOLD;
		memcpy(tc->b, tc->a, sizeof tc->b);
	}
	tc->arc = no_arc;   /* whole: the slerps load it so */
}

/* The mask's keys after sample k (k <= 63). */
static inline uint64_t keys_after(uint64_t mask, uint32_t k)
{
	return k == 63 ? 0 : mask & ~(((uint64_t)2 << k) - 1);
}

/*
 * The keys around `at` into the cache.  Forward playback mostly passes
 * key b only: key b becomes key a, and only the key after it is unpacked
 * (no rank of the mask needed); anything else finds key a by the mask,
 * and key b becomes key a only where the playhead entered the next
 * segment at its first key.
 */
static void cache_refill(const struct animrt_compact *c, rt_v3_cache *tc, rt_where at, const refill_ops *ops)
{
	uint32_t s = at.segment, i = sample_of(at);

	if (tc->segment == s && tc->k1 < RT_NEXT_SEGMENT && i >= tc->k1) {
		uint64_t above = keys_after(tc->lane.mask, tc->k1);

		if (!above || i < rt_ctz64(above)) {
			cache_keys(c, tc, tc->j + 1u, tc->k1, above, true, ops);
			return;
		}
	}
	bool was_next = tc->segment + 1 == s && tc->k1 == RT_NEXT_SEGMENT;
	cache_lane(c, tc, s, ops);
	tc->segment = s;
	uint64_t upto = i == 63 ? ~(uint64_t)0 : ((uint64_t)2 << i) - 1, below = tc->lane.mask & upto;
	uint32_t j = rt_popcount64(below) - 1;

	cache_keys(c, tc, j, 63 - rt_clz64(below), tc->lane.mask & ~upto, was_next && j == 0, ops);
}

#if RT_V3_CONTEXT_NEWER
/* cache_refill with the build for processors with AVX2: where the
 * playhead stays in the segment whose decoding the cache keeps, with a
 * key after it (most refills), keys a and b are unpacked at once, however
 * many keys it passed. */
static void cache_refill_newer(const struct animrt_compact *c, rt_v3_cache *tc, rt_where at)
{
	uint32_t i = sample_of(at);
	uint64_t upto = i == 63 ? ~(uint64_t)0 : ((uint64_t)2 << i) - 1;
	uint64_t below = tc->lane.mask & upto, above = tc->lane.mask & ~upto;

	if (tc->segment != at.segment || tc->lane.segment != at.segment || !above || tc->lane.is_raw) {
		cache_refill(c, tc, at, &newer_ops);
		return;
	}
	uint32_t j = rt_popcount64(below) - 1;

	animrt_rt_v3_lane_keys2_newer(&tc->lane, j, tc->track, tc->a, tc->b);
	tc->j = (uint8_t)j;
	tc->k0 = (uint8_t)(63 - rt_clz64(below));
	tc->k1 = (uint8_t)rt_ctz64(above);
	tc->arc = no_arc;   /* whole: the slerps load it so */
}
#endif

/* The weight between keys a and b (FORMAT.md 7.5): 0 where the last key
 * holds. */
static inline float cache_weight(const rt_v3_cache *tc, float local)
{
	if (tc->k1 == RT_HOLD)
		return 0;
	return (local - (float)tc->k0) / (float)(tc->k1 - tc->k0);
}

/* -------------------------------------------------------------- slerps */

/* Rotations waiting in groups of four for the slerp. */
typedef struct slerps {
	uint32_t count;
	rt_v3_cache *tc[4];
	float *out[4];
} slerps;

/* The arcs between keys a and b four wide, in interp_arc_of's operations:
 * the angle (-1 where the keys are near, and the normalised lerp applies)
 * and 1 / sin(angle) with the sign of their dot product. */
static inline void arcs4(const rt_f4 a[4], const rt_f4 b[4], rt_f4 *angle, rt_f4 *signed_inv_sin)
{
	rt_f4 one = rt_set1(1.0f);
	rt_f4 dot = rt_add(rt_add(rt_add(rt_mul(a[0], b[0]), rt_mul(a[1], b[1])), rt_mul(a[2], b[2])),
			   rt_mul(a[3], b[3]));
	rt_f4 near_dot = rt_set1(INTERP_NLERP_DOT), d = rt_abs(dot);
	rt_f4 c = rt_select(rt_lt(d, near_dot), d, near_dot);

	*angle = rt_select(rt_le(d, near_dot), rt_acos_unit(c), rt_set1(-1.0f));
	*signed_inv_sin = rt_xor(rt_sign_bit(dot), rt_div(one, rt_sqrt(rt_mul(rt_sub(one, c), rt_add(one, c)))));
}

/* The arcs of the waiting rotations: kept in their caches, or computed
 * once for keys unpacked since (and kept). */
static inline void slerps_arcs(slerps *sl, const rt_f4 a[4], const rt_f4 b[4], rt_f4 *angle, rt_f4 *signed_inv_sin)
{
	uint32_t n = sl->count;

	rt_arcs(&sl->tc[0]->arc.angle, &sl->tc[n > 1 ? 1 : 0]->arc.angle, &sl->tc[n > 2 ? 2 : 0]->arc.angle,
		&sl->tc[n > 3 ? 3 : 0]->arc.angle, angle, signed_inv_sin);
	rt_f4 is_new = rt_lt(*angle, rt_set1(-1.5f));
	if (!rt_any(is_new))
		return;
	rt_f4 new_angle, new_inv;
	float fa[4], fi[4];

	arcs4(a, b, &new_angle, &new_inv);
	*angle = rt_select(is_new, new_angle, *angle);
	*signed_inv_sin = rt_select(is_new, new_inv, *signed_inv_sin);
	rt_store(fa, *angle);
	rt_store(fi, *signed_inv_sin);
	for (uint32_t lane = 0; lane < n; lane++) {
		sl->tc[lane]->arc.angle = fa[lane];
		sl->tc[lane]->arc.signed_inv_sin = fi[lane];
	}
}

/*
 * The rotations waiting in `sl` at weights vu (lanes past the count: the
 * first's), four wide: interp_slerp's operations on
 * their arcs (the short sine series where every arc is short, which gives
 * the full series' bits there; the full one otherwise), key a where u is
 * not above 0.
 */
static inline void slerps_flush(slerps *sl, rt_f4 vu)
{
	uint32_t n = sl->count;
	rt_f4 a[4], b[4], out[4], angle, signed_inv_sin, one = rt_set1(1.0f);

	if (!n)
		return;
	for (uint32_t lane = 0; lane < 4; lane++) {
		const rt_v3_cache *tc = sl->tc[lane < n ? lane : 0];

		a[lane] = rt_load(tc->a);
		b[lane] = rt_load(tc->b);
	}
	rt_transpose(&a[0], &a[1], &a[2], &a[3]);
	rt_transpose(&b[0], &b[1], &b[2], &b[3]);
	slerps_arcs(sl, a, b, &angle, &signed_inv_sin);
	rt_f4 sign = rt_sign_bit(signed_inv_sin), inv_sin = rt_abs(signed_inv_sin);
	rt_f4 x0 = rt_mul(rt_sub(one, vu), angle), x1 = rt_mul(vu, angle), s0, s1;
	if (!rt_any(rt_gt(angle, rt_set1(RT_SHORT_SINE)))) {
		s0 = rt_sin_short(x0);
		s1 = rt_sin_short(x1);
	} else {
		s0 = rt_sin_quadrant(x0);
		s1 = rt_sin_quadrant(x1);
	}
	rt_f4 is_near = rt_lt(angle, rt_set1(0.0f));
	rt_f4 w0 = rt_select(is_near, rt_sub(one, vu), rt_mul(s0, inv_sin));
	rt_f4 w1 = rt_xor(sign, rt_select(is_near, vu, rt_mul(s1, inv_sin)));

	rt_slerp_finish(a, b, w0, w1, is_near, out);
	rt_f4 keep = rt_not(rt_gt(vu, rt_set1(0.0f)));
	for (int k = 0; k < 4; k++)
		out[k] = rt_select(keep, a[k], out[k]);
	rt_transpose(&out[0], &out[1], &out[2], &out[3]);
	for (uint32_t lane = 0; lane < n; lane++)
		rt_store(sl->out[lane], out[lane]);
	sl->count = 0;
}

/* ------------------------------------------------------------ sampling */

static inline float *track_out(animrt_pose *pose, unsigned track, uint32_t slot)
{
	return track == ANIMRT_TRANSLATION ? pose->translation + 3 * (size_t)slot
	       : track == ANIMRT_ROTATION  ? pose->rotation + 4 * (size_t)slot
					   : pose->scale + 3 * (size_t)slot;
}

/* The image into the pose's n bones. */
static inline void copy_image(animrt_context *ctx, animrt_pose *pose)
{
	uint32_t n = pose->bone_count, stride = ctx->bone_count;
	const float *image = rt_context_image(ctx);

	if (!n)   /* a pose of no bones may have no arrays */
		return;
	memcpy(pose->translation, image, (size_t)n * 3 * sizeof(float));
	memcpy(pose->rotation, image + 3 * (size_t)stride, (size_t)n * 4 * sizeof(float));
	memcpy(pose->scale, image + 7 * (size_t)stride, (size_t)n * 3 * sizeof(float));
	memcpy(pose->tracks, image + 10 * (size_t)stride, n);
}

/* The rotation caches four at a time: their weights as one division, the
 * slerps as one. */
static void rotations_wide(const struct animrt_compact *c, rt_where at, animrt_context *ctx, animrt_pose *pose)
{
	rt_v3_cache *caches = rt_context_v3_caches(ctx);
	uint32_t rotations = ctx->rotation_count, n = pose->bone_count;
	rt_f4 vlocal = rt_set1(at.local);
	slerps sl;

	sl.count = 0;
	for (uint32_t e = 0; e < rotations; e++) {
		rt_v3_cache *tc = &caches[e];

		if (tc->slot < n) {
			if (!cache_holds(tc, at))
				cache_refill(c, tc, at, &plain_ops);
			sl.tc[sl.count] = tc;
			sl.out[sl.count] = pose->rotation + 4 * (size_t)tc->slot;
			sl.count++;
		}
		if (!sl.count || (sl.count < 4 && e + 1 < rotations))
			continue;
		/* The samples as words in registers (bytes stored one by one
		 * and read back as one word would wait for the stores). */
		uint32_t w0 = 0, w1 = 0;
		uint8_t k0[4], k1[4];
		for (uint32_t lane = 0; lane < 4; lane++) {
			const rt_v3_cache *g = sl.tc[lane < sl.count ? lane : 0];

			w0 |= (uint32_t)g->k0 << 8 * lane;
			w1 |= (uint32_t)g->k1 << 8 * lane;
		}
		memcpy(k0, &w0, 4);
		memcpy(k1, &w1, 4);
		rt_i4 k1i = rt_bytes(k1);
		rt_f4 fk0 = rt_to_float(rt_bytes(k0)), fk1 = rt_to_float(k1i);
		slerps_flush(&sl, rt_select(rt_eq_i(k1i, RT_HOLD), rt_set1(0.0f), rt_div(rt_sub(vlocal, fk0), rt_sub(fk1, fk0))));
	}
}

#if RT_V3_CONTEXT_NEWER
/* The rotation caches eight at a time, their weights and slerps in the
 * build for processors with AVX2 (sample_v3_simd.c). */
static void rotations_eight(const struct animrt_compact *c, rt_where at, animrt_context *ctx, animrt_pose *pose)
{
	rt_v3_cache *caches = rt_context_v3_caches(ctx);
	uint32_t rotations = ctx->rotation_count, n = pose->bone_count;
	rt_v3_slerps8 sl;

	sl.count = 0;
	for (uint32_t e = 0; e < rotations; e++) {
		rt_v3_cache *tc = &caches[e];

		if (tc->slot >= n)
			continue;
		if (!cache_holds(tc, at))
			cache_refill_newer(c, tc, at);
		sl.tc[sl.count] = tc;
		sl.out[sl.count] = pose->rotation + 4 * (size_t)tc->slot;
		if (++sl.count == 8)
			animrt_rt_v3_context_slerps_newer(&sl, at.local);
	}
	animrt_rt_v3_context_slerps_newer(&sl, at.local);
}
#endif

/* Caches [from, to) one at a time (rotations only for the reference),
 * their lanes and keys decoded by `ops`. */
static void tracks_one_by_one(const struct animrt_compact *c, rt_where at, animrt_context *ctx, animrt_pose *pose,
			      uint32_t from, uint32_t to, const refill_ops *ops)
{
	rt_v3_cache *caches = rt_context_v3_caches(ctx);

	for (uint32_t e = from; e < to; e++) {
		rt_v3_cache *tc = &caches[e];
		unsigned k = tc->track;

		if (tc->slot >= pose->bone_count)
			continue;
		if (!cache_holds(tc, at))
			cache_refill(c, tc, at, ops);
		float *out = track_out(pose, k, tc->slot), u = cache_weight(tc, at.local);
		if (!(u > 0))
			memcpy(out, tc->a, (k == ANIMRT_ROTATION ? 4 : 3) * sizeof(float));
		else if (k != ANIMRT_ROTATION)
			interp_lerp3(out, tc->a, tc->b, u);
		else
			interp_slerp(out, tc->a, tc->b, u);
	}
}

void animrt_rt_v3_sample_context(const animrt_clip *clip, float local_s, animrt_context *ctx, animrt_pose *pose,
				 bool is_reference, bool is_newer)
{
	const struct animrt_compact *c = clip->compact;
	rt_where at = animrt_rt_grid_locate(c, local_s);

	if (!pose->bone_count)
		return;   /* a pose of no bones has no arrays (animrt_pose_init) */
	copy_image(ctx, pose);
	if (is_reference) {
		tracks_one_by_one(c, at, ctx, pose, 0, ctx->track_count, &plain_ops);
		return;
	}
	const refill_ops *ops = &plain_ops;
	(void)is_newer;   /* a build without the one for processors with AVX2 */
#if RT_V3_CONTEXT_NEWER
	if (is_newer) {
		ops = &newer_ops;
		rotations_eight(c, at, ctx, pose);
	} else
#endif
		rotations_wide(c, at, ctx, pose);
	tracks_one_by_one(c, at, ctx, pose, ctx->rotation_count, ctx->track_count, ops);
}

/* One bone from a context following the clip without a map: its still
 * values from the image, then its animated tracks from their caches, one
 * at a time (interp_slerp, as the plain C sampler of one bone). */
uint8_t animrt_rt_v3_bone_context(const animrt_clip *clip, uint32_t sequence, float local_s, animrt_context *ctx,
				  float *const out[3])
{
	const struct animrt_compact *c = clip->compact;
	rt_where at = animrt_rt_grid_locate(c, local_s);
	animrt_pose image = image_pose(ctx);
	rt_v3_cache *caches = rt_context_v3_caches(ctx);

	for (unsigned k = 0; k < COMPACT_TRACKS; k++)
		if (out[k])
			memcpy(out[k], track_out(&image, k, sequence), (k == ANIMRT_ROTATION ? 4 : 3) * sizeof(float));
	for (uint32_t e = 0; e < ctx->track_count; e++) {
		rt_v3_cache *tc = &caches[e];
		unsigned k = tc->track;

		if (tc->slot != sequence || !out[k])
			continue;
		if (!cache_holds(tc, at))
			cache_refill(c, tc, at, &plain_ops);
		float u = cache_weight(tc, at.local);
		if (!(u > 0))
			memcpy(out[k], tc->a, (k == ANIMRT_ROTATION ? 4 : 3) * sizeof(float));
		else if (k != ANIMRT_ROTATION)
			interp_lerp3(out[k], tc->a, tc->b, u);
		else
			interp_slerp(out[k], tc->a, tc->b, u);
	}
	return image.tracks[sequence];
}
