/*
 * sample.h - what the runtime's sampling files share with each other
 * and with their tests; not installed.  The public API is animrt.h.
 */
#ifndef ANIMRT_SAMPLE_H
#define ANIMRT_SAMPLE_H

#include <animc/animrt.h>

/*
 * The original AnimationBinder's time rule for a sequence or clip of
 * duration_s seconds: Once clamps to [0, duration_s]; Repeat wraps a time
 * past the end to fmod(time, duration_s) and a negative one into
 * [0, duration_s]; NaN, or any time with duration 0, gives 0.  A time equal
 * to the duration stays (the original wrapped only past it).
 */
float animrt_rt_time_local(float time_s, float duration_s, animrt_play_mode mode);

/* A play mode the calls take: ANIMRT_PLAY_ONCE or ANIMRT_PLAY_REPEAT (any
 * other value gives ANIMRT_ERR_PLAY_MODE, in every call that takes one). */
static inline bool rt_mode_ok(animrt_play_mode mode)
{
	return mode == ANIMRT_PLAY_ONCE || mode == ANIMRT_PLAY_REPEAT;
}

/* Shorter-arc slerp from a (u = 0) to b (u = 1), u in [0, 1]; a normalised
 * lerp when the dot product exceeds 0.999999.  out may be a or b. */
void animrt_rt_quat_slerp(float out[4], const float a[4], const float b[4], float u);

/*
 * The scalar reference samplers: today's original-layout sampler (scalar
 * slerps) and the plain C compact sampler, the same contracts as
 * animrt_clip_sample and animrt_binding_sample.  The public calls run the
 * SIMD samplers (simd.h); tests hold them to these, and the benchmarks time
 * them side by side.
 */
animrt_status animrt_rt_clip_sample_reference(const animrt_clip *clip, float time_s, animrt_play_mode mode,
				       uint32_t *cursors, animrt_pose *pose);
animrt_status animrt_rt_binding_sample_reference(const animrt_binding *binding, float time_s, animrt_play_mode mode,
					  uint32_t *cursors, animrt_pose *pose);
animrt_status animrt_rt_clip_sample_reference_with(const animrt_clip *clip, float time_s, animrt_play_mode mode,
					    animrt_context *context, animrt_pose *pose);

#endif
