/*
 * fuzz_loader.c - libFuzzer target for the loader, with the default type
 * reader rule and with a list of names taken alone.  Whatever it accepts is
 * read in full (every list, every name, every key), in place and decoded for
 * compact clips, so a view pointing outside its
 * allocation shows up under the sanitizers, and then evaluated: sampled at
 * awkward times in both play modes, bound to its own bone names, played
 * with a crossfade and layered, so sampling meets every clip the loader
 * lets through.  Built as a plain function for `make test`, which replays
 * the seeds in testdata/fuzz/loader.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <animc/animrt.h>
#include "compact.h"
#include "sample.h"

#ifndef ANIMC_FUZZ_ENTRY
#define ANIMC_FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int ANIMC_FUZZ_ENTRY(const uint8_t *data, size_t size);

static volatile float sink;

static float pose_sum(const animrt_pose *pose)
{
	float sum = 0;

	for (uint32_t i = 0; i < pose->bone_count; i++)
		sum += pose->translation[3 * i] + pose->rotation[4 * i + 3] + pose->scale[3 * i + 2];
	return sum;
}

static float evaluate(const animrt_clip *clip)
{
	const float d = clip->duration_s;
	const float times[] = { 0, d * 0.5f, d, nextafterf(d, INFINITY), d * 2.5f, -d - 0.25f, 1e30f,
				-1e30f, INFINITY, NAN };
	uint32_t n = clip->sequence_count;
	const char **names = malloc(((size_t)n + 1) * sizeof *names);
	void *mem[3] = { malloc(animrt_pose_size_bytes(n) + 1), malloc(animrt_pose_size_bytes(n) + 1),
			 malloc(animrt_pose_size_bytes(n) + 1) };
	uint32_t *cursors = calloc((size_t)n + 1, sizeof *cursors);
	/* A context of just the tracks the clip needs: a cache past them would
	 * show as a heap overflow. */
	uint32_t tracks = animrt_clip_context_tracks(clip);
	void *ctx_mem = malloc(animrt_context_size_bytes_for(n, tracks));
	animrt_context *ctx = animrt_context_init_for(ctx_mem, n, tracks);
	animrt_pose pose[3];
	animrt_binding *binding = NULL;
	animrt_player *player = NULL;
	float sum = 0;

	if (!names || !mem[0] || !mem[1] || !mem[2] || !cursors || !ctx)
		goto out;
	for (int p = 0; p < 3; p++)
		animrt_pose_init(&pose[p], mem[p], n);
	for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
		animrt_clip_sample(clip, times[i], ANIMRT_PLAY_ONCE, cursors, &pose[0]);
		animrt_clip_sample(clip, times[i], ANIMRT_PLAY_REPEAT, cursors, &pose[1]);
		/* Then three steps near: the context takes the last (a jump and
		 * the two samples after it go without it, sample_packed.c). */
		for (int k = 0; k < 4; k++)
			animrt_clip_sample_with(clip, k ? nextafterf(times[i], INFINITY) : times[i], ANIMRT_PLAY_REPEAT,
						ctx, &pose[2]);
		sum += pose_sum(&pose[2]);
		/* In place, the sampler of processors without AVX2 too. */
		if (rt_is_v3(clip)) {
			animrt_rt_sample_packed_baseline(clip, animrt_rt_time_local(times[i], d, ANIMRT_PLAY_REPEAT), NULL,
							 NULL, &pose[1], false);
			sum += pose_sum(&pose[1]);
		}
		animrt_pose_blend(&pose[0], &pose[1], 0.5f, &pose[2]);
		animrt_pose_add(&pose[0], &pose[1], &pose[2], 0.5f, &pose[2]);
		sum += pose_sum(&pose[2]);
		/* One bone at a time, with and without the context, the last
		 * bone and one past it (refused). */
		for (uint32_t b = n > 2 ? n - 2 : 0; b <= n; b++) {
			float t3[3], r4[4], s3[3];

			if (animrt_clip_sample_bone(clip, b, times[i], ANIMRT_PLAY_REPEAT, NULL, t3, r4, s3) == ANIMRT_OK)
				sum += t3[0] + r4[3] + s3[2];
			if (animrt_clip_sample_bone(clip, b, times[i], ANIMRT_PLAY_ONCE, ctx, t3, NULL, s3) == ANIMRT_OK)
				sum += t3[1] + s3[0];
		}
	}
	for (uint32_t i = 0; i < n; i++)
		names[i] = animrt_clip_bone_name(clip, i, NULL);
	if (animrt_binding_create(clip, names, n, &binding, NULL) != ANIMRT_OK ||
	    animrt_player_create(n, &player, NULL) != ANIMRT_OK)
		goto out;
	animrt_player_play(player, binding, ANIMRT_PLAY_REPEAT, 0);
	animrt_player_advance(player, d * 0.3f + 0.01f);
	animrt_player_play(player, binding, ANIMRT_PLAY_ONCE, 0.2f);
	animrt_player_set_time_scale(player, -1.5f);
	for (int step = 0; step < 4; step++) {
		animrt_player_advance(player, 0.07f);
		animrt_player_sample(player, &pose[0]);
		sum += pose_sum(&pose[0]);
	}
out:
	animrt_player_destroy(player);
	animrt_binding_destroy(binding);
	for (int p = 0; p < 3; p++)
		free(mem[p]);
	free(cursors);
	free(ctx_mem);
	free(names);
	return sum;
}

/* Every list, every name, every key of an animated compact track, and
 * each sequence on its own. */
static float inspect(const animrt_clip *clip)
{
	float sum = clip->duration_s + (float)strlen(clip->container.reader);

	for (uint32_t i = 0; i < clip->sequence_count; i++) {
		uint32_t name_size = 0;
		const char *name = animrt_clip_bone_name(clip, i, &name_size);

		sum += (float)strlen(name) + (float)name_size;
		for (unsigned track = 0; track < 3; track++) {
			uint32_t n = animrt_track_keys(clip, i, track, 0, 0, NULL, NULL);
			float *t = malloc(((size_t)n + 1) * sizeof *t), *v = malloc(((size_t)n + 1) * 4 * sizeof *v);

			if (t && v && animrt_track_keys(clip, i, track, 0, n, t, v) == n)
				for (uint32_t k = 0; k < n; k++)
					sum += t[k] + v[(size_t)k * (track == 1 ? 4 : 3)];
			free(t);
			free(v);
		}
		if (!clip->sequences)
			continue;
		const animrt_sequence *s = &clip->sequences[i];
		for (uint32_t k = 0; k < s->translation_count * 3; k++)
			sum += s->translation[k];
		for (uint32_t k = 0; k < s->rotation_count * 4; k++)
			sum += s->rotation[k];
		for (uint32_t k = 0; k < s->scale_count * 3; k++)
			sum += s->scale[k];
		for (uint32_t k = 0; k < s->time_count; k++)
			sum += s->times_s[k];
		float tr[3], rot[4], sc[3];
		animrt_sequence_sample(s, clip->duration_s * 0.37f, ANIMRT_PLAY_REPEAT, NULL, tr, rot, sc);
		sum += tr[0] + rot[3] + sc[2];
		/* The loader's time index finds the key the search finds: at
		 * the first key times, and across the sequence. */
		if (s->time_index) {
			animrt_sequence searched = *s;

			searched.time_index = NULL;
			for (uint32_t k = 0; k < 24; k++) {
				float t = k < 8 ? s->times_s[k] : s->duration_s * (float)(k - 8) / 15.0f, a[10], b[10];

				animrt_sequence_sample(s, t, ANIMRT_PLAY_ONCE, NULL, a, a + 3, a + 7);
				animrt_sequence_sample(&searched, t, ANIMRT_PLAY_ONCE, NULL, b, b + 3, b + 7);
				if (memcmp(a, b, sizeof a) != 0)
					abort();
			}
		}
	}
	return sum;
}

int ANIMC_FUZZ_ENTRY(const uint8_t *data, size_t size)
{
	/* Names of the caller's own, taken alone: the reader name rule with a
	 * list (a generic name's commas in brackets included). */
	static const char *const names[] = { "Game.ClipReader", "G.List`1[[A.B, C]], G",
					     "RobotGameData.GameObject.AnimationReader" };
	static const animrt_open_options listed = { names, 3, true, false };
	animrt_clip *clip;
	animrt_error err;
	float sum = 0;

	if (animrt_open_with(data, size, &listed, &clip, &err) == ANIMRT_OK)
		animrt_close(clip);
	for (int pass = 0; pass < 2; pass++) {
		/* Compact clips in place, then decoded at load. */
		static const animrt_open_options decoded = { NULL, 0, false, true };

		if (animrt_open_with(data, size, pass ? &decoded : NULL, &clip, &err) != ANIMRT_OK)
			return 0;
		sum += inspect(clip) + evaluate(clip);
		animrt_close(clip);
	}
	sink = sum;
	return 0;
}
