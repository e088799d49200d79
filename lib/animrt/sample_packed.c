/*
 * sample_packed.c - compact clips sampled in place (reader version 3,
 * FORMAT.md 7.7): which sampler takes a call.  With a context, the
 * context's caches (context_v3.c); without one, the build for processors
 * with AVX2, BMI1/2, LZCNT, POPCNT and F16C where the processor has them
 * (sample_v3_simd.c), else the plain C sampler (sample_v3.c), which is
 * also the scalar reference.  A context takes only samples near its last
 * one; a jump from it goes to the sampler without one.  All of them give
 * the same bits.
 */
#include <math.h>
#include <string.h>

#include <animc/animrt.h>

/* The x86-64 baseline has no popcount, bit-field or half-float
 * instructions, and no three-operand (VEX) encoding: the sampler built for
 * processors with them is chosen at run time (cpuid, from the compiler's
 * own header: no library). */
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__) && !defined(__AVX2__)
#include <cpuid.h>
#include <stdatomic.h>
#define RT_NEWER_DISPATCH 1
#endif

#include "compact.h"
#include "simd.h"

/* Does the context take the sample at local_s: near its last one (within
 * ctx->near seconds either way round the clip, context_v3.c), and that
 * one and the one before near theirs (RT_CONTEXT_SETTLE)?  A jump, and the samples just after
 * it, go to the samplers without a context (a group of tracks at once;
 * the caches would go back to the records one track at a time).  Seconds,
 * not grid samples: the check comes before the grid position. */
static inline bool context_takes(animrt_context *ctx, float local_s)
{
	/* Without branches: at random times they would go either way. */
	float step = fabsf(local_s - ctx->playhead), round = ctx->period - step;
	uint32_t run = ctx->near_run, near = (uint32_t)(step <= ctx->near) | (uint32_t)(round <= ctx->near);

	run = (run + (run < RT_CONTEXT_SETTLE)) * near;
	ctx->playhead = local_s;
	ctx->near_run = run;
	return run >= RT_CONTEXT_SETTLE;
}

void animrt_rt_sample_packed_baseline(const animrt_clip *clip, float local_s, const uint32_t *map, animrt_context *ctx,
			       animrt_pose *pose, bool is_reference)
{
	if (ctx && context_takes(ctx, local_s)) {
		animrt_rt_v3_sample_context(clip, local_s, ctx, pose, is_reference, false);
		return;
	}
	(is_reference ? animrt_rt_sample_v3 : animrt_rt_sample_v3_four)(clip, local_s, map, pose);
}

#if RT_NEWER_DISPATCH && RT_SIMD_SSE2
/* Does the processor have what sample_v3_simd.c is built for, and does the system
 * keep the AVX registers (XCR0 bits 1 and 2)?  Asked once; racing first
 * callers store the same answer. */
static inline bool cpu_is_newer(void)
{
	static atomic_int known;   /* 0 not asked yet, 1 no, 2 yes */
	int k = atomic_load_explicit(&known, memory_order_relaxed);

	if (!k) {
		unsigned a, b, c, d, lo = 0, hi = 0;
		bool yes = __get_cpuid(1, &a, &b, &c, &d) && (c & bit_POPCNT) && (c & bit_AVX) && (c & bit_OSXSAVE) &&
			   (c & bit_F16C);

		if (yes) {
			__asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
			yes = (lo & 6u) == 6u;
		}
		yes = yes && __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_AVX2) && (b & bit_BMI) &&
		      (b & bit_BMI2);
		yes = yes && __get_cpuid(0x80000001u, &a, &b, &c, &d) && (c & bit_LZCNT);
		k = yes ? 2 : 1;
		atomic_store_explicit(&known, k, memory_order_relaxed);
	}
	return k == 2;
}

bool animrt_rt_cpu_is_newer(void)
{
	return cpu_is_newer();
}
#else
bool animrt_rt_cpu_is_newer(void)
{
	return false;
}
#endif

void animrt_rt_sample_packed(const animrt_clip *clip, float local_s, const uint32_t *map, animrt_context *ctx,
		      animrt_pose *pose, bool is_reference)
{
	if (ctx && context_takes(ctx, local_s)) {
		animrt_rt_v3_sample_context(clip, local_s, ctx, pose, is_reference, animrt_rt_cpu_is_newer());
		return;
	}
#if RT_NEWER_DISPATCH && RT_SIMD_SSE2
	if (!is_reference && cpu_is_newer()) {
		animrt_rt_sample_v3_newer(clip, local_s, map, pose);
		return;
	}
#endif
	animrt_rt_sample_packed_baseline(clip, local_s, map, NULL, pose, is_reference);
}

uint8_t animrt_rt_packed_sample_bone(const animrt_clip *clip, uint32_t sequence, float local_s, animrt_context *ctx,
			      float *const out[3])
{
	if (ctx)
		return animrt_rt_v3_bone_context(clip, sequence, local_s, ctx, out);
	return animrt_rt_v3_sample_bone(clip, sequence, local_s, out);
}

uint32_t animrt_rt_packed_track_keys(const animrt_clip *clip, uint32_t sequence, unsigned track, uint32_t first,
			      uint32_t capacity, float *times_s, float *values)
{
	return animrt_rt_v3_track_keys(clip, sequence, track, first, capacity, times_s, values);
}

const char *animrt_rt_packed_bone_name(const animrt_clip *clip, uint32_t sequence, uint32_t *size)
{
	const rt_packed *pk = &clip->compact->packed;
	const char *name = (const char *)pk->p + pk->names_at;

	if (sequence >= pk->bone_count)
		return NULL;
	for (uint32_t b = 0; b < sequence; b++)
		name += strlen(name) + 1;
	if (size)
		*size = (uint32_t)strlen(name);
	return name;
}
