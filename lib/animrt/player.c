/*
 * player.c - bone binding (a clip's sequences mapped once to a
 * caller's bone table) and the player (the original AnimationBinder's
 * playback state with AnimationBlender's crossfade).  Each object is one
 * allocation made when it is created; advancing and sampling allocate
 * nothing.  Standard C and libm only.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <animc/animrt.h>
#include "compact.h"
#include "error.h"
#include "interp.h"
#include "sample.h"

/* --------------------------------------------------------------- binding */

static uint32_t name_hash(const char *name)
{
	uint32_t h = 2166136261u;

	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 16777619u;
	return h;
}

/* The bone table by name: open addressing, a bone's index + 1 in each
 * used slot, the first bone of a name kept (as a search from the start
 * finds it).  NULL when the table is small, or cannot be allocated: the
 * names are then searched one by one. */
static uint32_t *name_index(const char *const *names, uint32_t count, uint32_t *mask)
{
	uint32_t size = 16, *slots;

	if (count < 8 || count > UINT32_MAX / 4)
		return NULL;
	while (size < 2 * count)
		size *= 2;
	slots = calloc(size, sizeof *slots);
	if (!slots)
		return NULL;
	*mask = size - 1;
	for (uint32_t b = 0; b < count; b++) {
		uint32_t j = names[b] ? name_hash(names[b]) & *mask : 0;

		while (names[b] && slots[j] && strcmp(names[slots[j] - 1], names[b]) != 0)
			j = (j + 1) & *mask;
		if (names[b] && !slots[j])
			slots[j] = b + 1;
	}
	return slots;
}

static uint32_t find_bone(const char *name, const char *const *names, uint32_t count, const uint32_t *index,
			  uint32_t mask)
{
	if (index) {
		for (uint32_t j = name_hash(name) & mask; index[j]; j = (j + 1) & mask)
			if (strcmp(names[index[j] - 1], name) == 0)
				return index[j] - 1;
		return ANIMRT_NO_BONE;
	}
	for (uint32_t b = 0; b < count; b++)
		if (names[b] && strcmp(names[b], name) == 0)
			return b;
	return ANIMRT_NO_BONE;
}

animrt_status animrt_binding_create(const animrt_clip *clip, const char *const *bone_names,
				    uint32_t bone_count, animrt_binding **out, animrt_error *err)
{
	uint32_t seqs, unmatched = 0, unanimated = 0;
	animrt_binding *b;
	uint32_t *of_seq, *unmatched_list, *unanimated_list, *map;
	size_t words, total;

	animrt_rt_error_clear(err);
	if (!out)
		return animrt_rt_error_set(err, ANIMRT_ERR_ARGUMENT, -1, "no place for the binding");
	*out = NULL;
	if (!clip || (bone_count && !bone_names))
		return animrt_rt_error_set(err, ANIMRT_ERR_ARGUMENT, -1, "no clip or no bone table");
	seqs = clip->sequence_count;
	/* bone_of_sequence, unmatched, sample_map: seqs each; unanimated:
	 * bone_count. */
	words = 3 * (size_t)seqs;
	if ((size_t)bone_count > (SIZE_MAX - sizeof *b) / sizeof(uint32_t) - words)
		return animrt_rt_error_set(err, ANIMRT_ERR_NOMEM, -1, "a table of %u bones is too large", bone_count);
	words += bone_count;
	total = sizeof *b + words * sizeof(uint32_t);
	b = malloc(total);
	if (!b)
		return animrt_rt_error_set(err, ANIMRT_ERR_NOMEM, -1, "cannot allocate %zu bytes", total);
	of_seq = (uint32_t *)(b + 1);
	unmatched_list = of_seq + seqs;
	map = unmatched_list + seqs;
	unanimated_list = map + seqs;

	/* Mark animated bones in unanimated_list first, then compact it. */
	memset(unanimated_list, 0, (size_t)bone_count * sizeof(uint32_t));
	const char *name = NULL;
	uint32_t mask = 0, *index = seqs ? name_index(bone_names, bone_count, &mask) : NULL;

	for (uint32_t i = 0; i < seqs; i++) {
		/* A clip in place keeps its names one after another. */
		name = clip->sequences ? clip->sequences[i].bone
		       : i ? name + strlen(name) + 1 : animrt_clip_bone_name(clip, 0, NULL);
		of_seq[i] = find_bone(name, bone_names, bone_count, index, mask);
		if (of_seq[i] == ANIMRT_NO_BONE)
			unmatched_list[unmatched++] = i;
		else
			unanimated_list[of_seq[i]] = 1;
	}
	/* A bone two sequences animate takes the later one's values: only that
	 * one is sampled (2 marks a bone a later sequence took). */
	for (uint32_t i = seqs; i-- > 0;) {
		uint32_t bone = of_seq[i];

		map[i] = bone == ANIMRT_NO_BONE || unanimated_list[bone] == 2 ? ANIMRT_NO_BONE : bone;
		if (bone != ANIMRT_NO_BONE)
			unanimated_list[bone] = 2;
	}
	free(index);
	for (uint32_t bone = 0; bone < bone_count; bone++)
		if (!unanimated_list[bone])
			unanimated_list[unanimated++] = bone;

	b->clip = clip;
	b->serial = animrt_rt_new_serial();
	b->bone_count = bone_count;
	b->bone_of_sequence = of_seq;
	b->sample_map = map;
	b->unmatched_count = unmatched;
	b->unmatched = unmatched_list;
	b->unanimated_count = unanimated;
	b->unanimated = unanimated_list;
	*out = b;
	return ANIMRT_OK;
}

void animrt_binding_destroy(animrt_binding *binding)
{
	free(binding);
}

/* ---------------------------------------------------------------- player */

/* One clip playing: an AnimationBinder for every bone at once. */
typedef struct player_slot {
	const animrt_binding *binding;
	/* Its local time, in [0, end_s] (Repeat with no period: any).  A
	 * double: added to every frame, a float rounds each add to its grid
	 * the same way frame after frame (dt is the same), and a loop drifts
	 * off its phase (10 ms in an hour at 144 frames a second).  Rounded
	 * to float to sample. */
	double time_s;
	/* The time past which Once plays no change: the clip's duration, or
	 * the longest of its bound sequences where one lasts longer. */
	double end_s;
	/* Where Repeat wraps the time: the duration its bound sequences
	 * share (those that move), so that wrapping keeps each on its phase;
	 * 0 when they last differently: the time is kept whole, and each
	 * sequence wraps at its own duration as it is sampled, as each of
	 * the original's binders did. */
	double period_s;
	float time_scale;
	animrt_play_mode mode;
	animrt_context *context;   /* for bone_count bones */
	const animrt_clip *motion; /* its root motion (animrt_player_set_motion), or NULL */
	animrt_motion moved;       /* over the last advance */
} player_slot;

struct animrt_player {
	uint32_t bone_count;
	/* 0: nothing plays.  1: slots[0] plays.  2: slots[0] fades out,
	 * slots[1] fades in (the original's first and second binder). */
	uint32_t slot_count;
	player_slot slots[2];
	float blend_time_s;
	float blend_elapsed_s;
	animrt_pose scratch;   /* the pose fading out, during a crossfade */
	animrt_motion moved;   /* the motion of the last advance */
};

static const animrt_motion no_motion = { { 0, 0, 0 }, { 0, 0, 0, 1 } };

animrt_status animrt_player_create(uint32_t bone_count, animrt_player **out, animrt_error *err)
{
	size_t pose_bytes = animrt_pose_size_bytes(bone_count), context_bytes = animrt_context_size_bytes(bone_count);
	size_t cursor_bytes, total;
	animrt_player *p;

	animrt_rt_error_clear(err);
	if (!out)
		return animrt_rt_error_set(err, ANIMRT_ERR_ARGUMENT, -1, "no place for the player");
	*out = NULL;
	cursor_bytes = 2 * context_bytes;
	if ((bone_count && !pose_bytes) || !context_bytes || context_bytes > SIZE_MAX / 2 ||
	    pose_bytes > SIZE_MAX - sizeof *p - cursor_bytes - 16)
		return animrt_rt_error_set(err, ANIMRT_ERR_NOMEM, -1, "a player of %u bones is too large", bone_count);
	/* Struct, pose (16-byte aligned for its quaternions; its size is a
	 * multiple of 16, so the contexts after it are aligned), contexts. */
	size_t pose_at = (sizeof *p + 15) & ~(size_t)15;

	total = pose_at + pose_bytes + cursor_bytes;
	p = malloc(total);
	if (!p)
		return animrt_rt_error_set(err, ANIMRT_ERR_NOMEM, -1, "cannot allocate %zu bytes", total);
	memset(p, 0, sizeof *p);
	p->bone_count = bone_count;
	p->moved = no_motion;
	animrt_pose_init(&p->scratch, (unsigned char *)p + pose_at, bone_count);
	p->slots[0].context = animrt_context_init((unsigned char *)p + pose_at + pose_bytes, bone_count);
	p->slots[1].context = animrt_context_init((unsigned char *)p + pose_at + pose_bytes + context_bytes,
						  bone_count);
	*out = p;
	return ANIMRT_OK;
}

void animrt_player_destroy(animrt_player *player)
{
	free(player);
}

/* The fading-out clip is done with: the fading-in one becomes the first
 * (the original ShiftBinder).  Cursor arrays swap, nothing is copied. */
static void drop_first(animrt_player *p)
{
	animrt_context *context = p->slots[0].context;

	p->slots[0] = p->slots[1];
	p->slots[1].context = context;
	p->slots[1].binding = NULL;
	p->slot_count--;
}

/* The slot's end and period from the durations of its clip's bound
 * sequences (a compact clip sampled in place: the clip's). */
static void slot_timing(player_slot *slot)
{
	const animrt_clip *clip = slot->binding->clip;
	double end = clip->duration_s, shared = -1;
	bool is_shared = true;

	for (uint32_t i = 0; clip->sequences && i < clip->sequence_count; i++) {
		double d = clip->sequences[i].duration_s;

		if (slot->binding->sample_map[i] == ANIMRT_NO_BONE || !(d > 0))
			continue;   /* not sampled, or holds still */
		end = d > end ? d : end;
		is_shared &= shared < 0 || d == shared;
		shared = d;
	}
	slot->end_s = end;
	slot->period_s = !is_shared ? 0 : shared > 0 ? shared : clip->duration_s;
}

animrt_status animrt_player_play(animrt_player *player, const animrt_binding *binding,
				 animrt_play_mode mode, float blend_time_s)
{
	player_slot *slot;

	if (!player || !binding)
		return ANIMRT_ERR_ARGUMENT;
	if (!rt_mode_ok(mode))
		return ANIMRT_ERR_PLAY_MODE;
	if (binding->bone_count != player->bone_count)
		return ANIMRT_ERR_BINDING_SIZE;
	if (!(blend_time_s >= 0 && blend_time_s < INFINITY))
		return ANIMRT_ERR_TIME;
	if (blend_time_s == 0)
		player->slot_count = 0;
	else if (player->slot_count == 2)
		drop_first(player);
	slot = &player->slots[player->slot_count++];
	slot->binding = binding;
	slot_timing(slot);
	slot->time_s = 0;
	slot->time_scale = 1;
	slot->mode = mode;
	slot->motion = NULL;
	slot->moved = no_motion;
	animrt_context_reset(slot->context);
	player->blend_time_s = blend_time_s;
	player->blend_elapsed_s = 0;
	return ANIMRT_OK;
}

static player_slot *newest(animrt_player *player)
{
	return player && player->slot_count ? &player->slots[player->slot_count - 1] : NULL;
}

/* animrt_rt_time_local's rule, in double: Once clamps to [0, end], Repeat
 * wraps at the period (fmod is exact), or keeps the time whole when the
 * sequences have none; NaN and the infinities give 0. */
static double slot_local_time(const player_slot *slot, double time_s)
{
	double d = slot->mode == ANIMRT_PLAY_ONCE ? slot->end_s : slot->period_s, r;

	if (slot->mode == ANIMRT_PLAY_REPEAT && !(d > 0) && slot->end_s > 0)
		return isfinite(time_s) ? time_s : 0;
	if (time_s >= 0 && time_s <= d)
		return time_s;
	if (time_s > d && slot->mode == ANIMRT_PLAY_ONCE)
		return d;
	if (slot->mode != ANIMRT_PLAY_REPEAT || !(d > 0) || !isfinite(time_s))
		return 0;
	r = fmod(time_s, d);
	/* Negative: -0 stays 0; a remainder so small that r + d rounds to d
	 * is the end of the previous turn, so d is right. */
	return r < 0 ? r + d : r > 0 ? r : 0;
}

void animrt_player_set_time(animrt_player *player, float time_s)
{
	player_slot *slot = newest(player);

	if (slot)
		slot->time_s = slot_local_time(slot, time_s);
}

void animrt_player_set_time_scale(animrt_player *player, float time_scale)
{
	player_slot *slot = newest(player);

	if (slot && isfinite(time_scale))
		slot->time_scale = time_scale;
}

void animrt_player_advance(animrt_player *player, float dt_s)
{
	if (!player)
		return;
	/* Ignored, as a frame in which nothing moved (dt 0): the motion of
	 * the advance before it must not be applied twice. */
	if (!isfinite(dt_s)) {
		for (uint32_t i = 0; i < player->slot_count; i++)
			player->slots[i].moved = no_motion;
		player->moved = no_motion;
		return;
	}
	for (uint32_t i = 0; i < player->slot_count; i++) {
		player_slot *slot = &player->slots[i];

		slot->moved = no_motion;
		/* A scale of 0 leaves the time alone: frozen. */
		if (slot->time_scale != 0) {
			double to = slot->time_s + (double)slot->time_scale * dt_s;

			if (slot->motion &&
			    animrt_motion_between(slot->motion, (float)slot->time_s, (float)to, slot->mode,
						  &slot->moved) != ANIMRT_OK)
				slot->moved = no_motion;
			slot->time_s = slot_local_time(slot, to);
		}
	}
	player->moved = player->slot_count ? player->slots[player->slot_count - 1].moved : no_motion;
	if (player->slot_count == 2) {
		player->blend_elapsed_s += dt_s;
		/* The crossfade's motion, by the weight this advance reached. */
		float w = animrt_player_blend_weight(player);

		interp_lerp3(player->moved.translation, player->slots[0].moved.translation,
			     player->slots[1].moved.translation, w);
		interp_slerp(player->moved.rotation, player->slots[0].moved.rotation, player->slots[1].moved.rotation,
			     w);
		/* At its blend time the fade is over: the weight is 1, and a
		 * track only the old clip animates must not stay its until the
		 * next advance that moves time (a paused game). */
		if (player->blend_elapsed_s >= player->blend_time_s)
			drop_first(player);
	}
}

animrt_status animrt_player_set_motion(animrt_player *player, const animrt_clip *motion)
{
	player_slot *slot = newest(player);

	if (!player)
		return ANIMRT_ERR_ARGUMENT;
	if (!slot)
		return ANIMRT_ERR_NOT_PLAYING;
	/* animrt_motion_between's test: every advance would fail on it. */
	if (motion && motion->sequence_count != 1)
		return ANIMRT_ERR_NOT_MOTION;
	slot->motion = motion;
	return ANIMRT_OK;
}

void animrt_player_motion(const animrt_player *player, animrt_motion *out)
{
	if (out)
		*out = player ? player->moved : no_motion;
}

float animrt_player_time(const animrt_player *player)
{
	return player && player->slot_count ? (float)player->slots[player->slot_count - 1].time_s : 0;
}

float animrt_player_blend_weight(const animrt_player *player)
{
	if (!player || player->slot_count < 2)
		return 1;
	float w = player->blend_elapsed_s / player->blend_time_s;

	return w > 0 ? (w < 1 ? w : 1) : 0;
}

bool animrt_player_is_done(const animrt_player *player)
{
	if (!player || !player->slot_count)
		return true;
	const player_slot *slot = &player->slots[player->slot_count - 1];

	/* Backward, the end it moves toward is 0. */
	if (slot->mode != ANIMRT_PLAY_ONCE)
		return false;
	return slot->time_scale < 0 ? slot->time_s <= 0 : slot->time_s >= slot->end_s;
}

animrt_status animrt_player_sample(animrt_player *player, animrt_pose *out)
{
	animrt_status st;

	if (!player || !out || (out->bone_count && (!out->translation || !out->rotation || !out->scale || !out->tracks)))
		return ANIMRT_ERR_ARGUMENT;
	if (out->bone_count != player->bone_count)
		return ANIMRT_ERR_POSE_SIZE;
	if (player->slot_count == 0) {
		animrt_pose_reset(out);
		return ANIMRT_OK;
	}
	const player_slot *first = &player->slots[0], *second = &player->slots[1];

	if (player->slot_count == 1)
		return animrt_binding_sample_with(first->binding, (float)first->time_s, first->mode, first->context,
						  out);
	st = animrt_binding_sample_with(first->binding, (float)first->time_s, first->mode, first->context,
					&player->scratch);
	if (st == ANIMRT_OK)
		st = animrt_binding_sample_with(second->binding, (float)second->time_s, second->mode,
						second->context, out);
	if (st == ANIMRT_OK)
		st = animrt_pose_blend(&player->scratch, out, animrt_player_blend_weight(player), out);
	return st;
}
