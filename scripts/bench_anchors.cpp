/*
 * bench_anchors.cpp - libanimrt beside ACL 2.1 and ozz 0.16, on the same
 * clips, in the same process.  Built and driven by scripts/bench-anchors
 * (`make bench-anchors`), which gives it the include paths and libraries
 * of ACL, its rtm and ozz from source trees the caller names: nothing of
 * theirs is part of this project.
 *
 * usage: bench_anchors < PAIRS
 * Each line of standard input: LOSSLESS.xnb <tab> COMPACT.xnb (one clip
 * compiled two ways by animc).  A clip's raw tracks are the lossless clip
 * sampled by libanimrt at the compact clip's grid rate (on the corpora,
 * the keys themselves).  ACL compresses them twice: with
 * get_default_compression_settings() and its default precision (0.01
 * units on a shell of 3), and with precision 1e-3 on a shell of 1, about
 * animc's bounds (1e-3 units; 1e-3 radians, 0.057 degrees, at 1 unit).
 * Every bone is a root for both (the clips carry no hierarchy).  ozz
 * optimises them with AnimationOptimizer's defaults (tolerance 1e-3,
 * distance 0.1, a flat skeleton) and builds an Animation.
 *
 * Prints the memory of each (lossless and compact clips loaded, counted by
 * bench_heap.c as bench_compact.c counts them; ACL's compressed tracks,
 * ozz's Animation), per-instance state (ACL's
 * decompression contexts, ozz's sampling contexts, animrt contexts), the
 * worst error of each ACL build against the lossless clip (at 60 Hz and
 * at the raw samples), and the time of a bone sample as
 * scripts/bench_compact.c times it (bench_medians): every clip in turn, at
 * random times (drawn before timing, fixed seed, Once) and at 60 Hz
 * playback (Repeat; fmod for ACL and ozz), the median in ns per bone, with
 * ratios to the lossless SIMD sampler and to ACL's default build.  ozz has no sampling without a
 * context: it keeps one per clip in both modes, as a game would.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <algorithm>
#include <vector>

extern "C" {
#include <animc/animrt.h>
}
#include "bench_heap.h"
#include "bench_util.h"

#include <acl/compression/compress.h>
#include <acl/core/ansi_allocator.h>
#include <acl/core/compressed_tracks.h>
#include <acl/decompression/decompress.h>

#include "ozz/animation/offline/animation_builder.h"
#include "ozz/animation/offline/animation_optimizer.h"
#include "ozz/animation/offline/raw_animation.h"
#include "ozz/animation/offline/raw_skeleton.h"
#include "ozz/animation/offline/skeleton_builder.h"
#include "ozz/animation/runtime/animation.h"
#include "ozz/animation/runtime/sampling_job.h"
#include "ozz/animation/runtime/skeleton.h"
#include "ozz/base/maths/soa_transform.h"

#define TIMES 4096




/* Writes ACL's output into an animrt pose. */
struct pose_writer final : public acl::track_writer {
	animrt_pose *pose;
	void RTM_SIMD_CALL write_rotation(uint32_t i, rtm::quatf_arg0 q)
	{
		rtm::quat_store(q, pose->rotation + 4 * i);
	}
	void RTM_SIMD_CALL write_translation(uint32_t i, rtm::vector4f_arg0 v)
	{
		rtm::vector_store3(v, pose->translation + 3 * i);
	}
	void RTM_SIMD_CALL write_scale(uint32_t i, rtm::vector4f_arg0 v)
	{
		rtm::vector_store3(v, pose->scale + 3 * i);
	}
};

struct clip_set {
	animrt_clip *lossless, *packed;
	animrt_pose pose;
	void *pose_mem;
	uint32_t *cursors;
	animrt_context *context;
	float times[TIMES];
	float duration, rate;
	uint32_t bones, samples;
	acl::compressed_tracks *acl_tracks, *acl_tight_tracks;
	acl::decompression_context<acl::default_transform_decompression_settings> acl_ctx, acl_tight_ctx;
	ozz::unique_ptr<ozz::animation::Animation> ozz_anim;
	ozz::animation::SamplingJob::Context *ozz_ctx;
	std::vector<ozz::math::SoaTransform> ozz_out;
	size_t ozz_ctx_bytes;
};

static acl::ansi_allocator allocator;
static std::vector<clip_set *> clips;
static size_t bone_total;

static bool open_clip(const char *path, bool decoded, animrt_clip **out)
{
	animrt_error err;
	animrt_open_options options = { NULL, 0, false, decoded };
	if (animrt_open_file_with(path, &options, out, &err) != ANIMRT_OK) {
		fprintf(stderr, "%s: %s\n", path, err.message);
		return false;
	}
	return true;
}

/* The lossless clip at grid sample i (Once: the last sample at the duration). */
static void raw_sample(clip_set *k, uint32_t i, animrt_pose *p)
{
	float t = std::min((float)((double)i / k->rate), k->duration);
	animrt_clip_sample(k->lossless, t, ANIMRT_PLAY_ONCE, k->cursors, p);
}

/* With precision 0: ACL's default precision and shell distance. */
static bool build_acl(clip_set *k, float precision, float shell, acl::compressed_tracks **out,
		      acl::decompression_context<acl::default_transform_decompression_settings> *ctx)
{
	acl::track_array_qvvf raw(allocator, k->bones);
	for (uint32_t b = 0; b < k->bones; b++) {
		acl::track_desc_transformf desc;
		desc.output_index = b;
		desc.parent_index = acl::k_invalid_track_index;
		if (precision > 0) {
			desc.precision = precision;
			desc.shell_distance = shell;
		}
		raw[b] = acl::track_qvvf::make_reserve(desc, allocator, k->samples, k->rate);
	}
	for (uint32_t i = 0; i < k->samples; i++) {
		raw_sample(k, i, &k->pose);
		for (uint32_t b = 0; b < k->bones; b++) {
			const float *t = k->pose.translation + 3 * b, *r = k->pose.rotation + 4 * b, *s = k->pose.scale + 3 * b;
			raw[b][i] = rtm::qvv_set(rtm::quat_normalize(rtm::quat_set(r[0], r[1], r[2], r[3])),
						 rtm::vector_set(t[0], t[1], t[2]), rtm::vector_set(s[0], s[1], s[2]));
		}
	}
	acl::compression_settings settings = acl::get_default_compression_settings();
	acl::qvvf_transform_error_metric metric;
	settings.error_metric = &metric;
	acl::output_stats stats;
	acl::error_result res = acl::compress_track_list(allocator, raw, settings, *out, stats);
	if (res.any()) {
		fprintf(stderr, "acl: %s\n", res.c_str());
		return false;
	}
	ctx->initialize(**out);
	return true;
}

static bool build_ozz(clip_set *k)
{
	namespace oa = ozz::animation;
	oa::offline::RawAnimation raw;
	raw.duration = (float)((double)(k->samples - 1) / k->rate);
	if (!(raw.duration > 0))
		raw.duration = 1.0f / k->rate;
	raw.tracks.resize(k->bones);
	for (uint32_t i = 0; i < k->samples; i++) {
		raw_sample(k, i, &k->pose);
		float t = std::min((float)((double)i / k->rate), raw.duration);
		for (uint32_t b = 0; b < k->bones; b++) {
			const float *tr = k->pose.translation + 3 * b, *r = k->pose.rotation + 4 * b, *s = k->pose.scale + 3 * b;
			raw.tracks[b].translations.push_back({ t, ozz::math::Float3(tr[0], tr[1], tr[2]) });
			raw.tracks[b].rotations.push_back(
				{ t, ozz::math::Normalize(ozz::math::Quaternion(r[0], r[1], r[2], r[3])) });
			raw.tracks[b].scales.push_back({ t, ozz::math::Float3(s[0], s[1], s[2]) });
		}
	}
	oa::offline::RawSkeleton rs;
	rs.roots.resize(k->bones);
	for (uint32_t b = 0; b < k->bones; b++) {
		char name[32];
		snprintf(name, sizeof name, "b%u", b);
		rs.roots[b].name = name;
		rs.roots[b].transform = ozz::math::Transform::identity();
	}
	auto skeleton = oa::offline::SkeletonBuilder()(rs);
	oa::offline::RawAnimation optimised;
	if (!skeleton || !oa::offline::AnimationOptimizer()(raw, *skeleton, &optimised)) {
		fprintf(stderr, "ozz: optimiser failed\n");
		return false;
	}
	k->ozz_anim = oa::offline::AnimationBuilder()(optimised);
	if (!k->ozz_anim)
		return false;
	size_t before = bench_heap_live();
	k->ozz_ctx = new oa::SamplingJob::Context(k->bones);
	k->ozz_ctx_bytes = bench_heap_live() - before;
	k->ozz_out.resize((k->bones + 3) / 4);
	return true;
}

enum { LOSSLESS_SIMD, PACKED, PACKED_CONTEXT, ACL, ACL_TIGHT, OZZ, CONTENDERS };
static const char *const names[CONTENDERS] = { "lossless SIMD", "compact in place", "compact in place + context",
					       "ACL 2.1 default", "ACL 2.1 precision 1e-3, shell 1", "ozz 0.16 default" };

static void sample(int who, clip_set *k, float t, bool playback)
{
	animrt_play_mode mode = playback ? ANIMRT_PLAY_REPEAT : ANIMRT_PLAY_ONCE;
	switch (who) {
	case LOSSLESS_SIMD:
		animrt_clip_sample(k->lossless, t, mode, k->cursors, &k->pose);
		break;
	case PACKED:
		animrt_clip_sample(k->packed, t, mode, NULL, &k->pose);
		break;
	case PACKED_CONTEXT:
		animrt_clip_sample_with(k->packed, t, mode, k->context, &k->pose);
		break;
	case ACL:
	case ACL_TIGHT: {
		float at = playback ? fmodf(t, k->duration > 0 ? k->duration : 1) : std::min(t, k->duration);
		pose_writer w;
		auto &ctx = who == ACL ? k->acl_ctx : k->acl_tight_ctx;
		w.pose = &k->pose;
		ctx.seek(at, acl::sample_rounding_policy::none);
		ctx.decompress_tracks(w);
		break;
	}
	case OZZ: {
		float d = k->ozz_anim->duration();
		float at = playback ? fmodf(t, d) : std::min(t, d);
		ozz::animation::SamplingJob job;
		job.animation = k->ozz_anim.get();
		job.context = k->ozz_ctx;
		job.ratio = at / d;
		job.output = ozz::make_span(k->ozz_out);
		job.Run();
		break;
	}
	}
}

static void pass(int who, int playback, size_t rounds)
{
	for (size_t r = 0; r < rounds; r++) {
		float play_t = (float)r * (1.0f / 60);
		for (clip_set *k : clips)
			sample(who, k, playback ? play_t : k->times[r % TIMES], playback != 0);
	}
}

/* The worst error of an ACL build against the lossless clip at 60 Hz
 * (at_keys: at the raw tracks' samples only): translation distance,
 * rotation angle (degrees), scale component. */
static void acl_error(int who, bool at_keys, double out[3])
{
	out[0] = out[1] = out[2] = 0;
	for (clip_set *k : clips) {
		std::vector<float> mem(animrt_pose_size_bytes(k->bones) / 4 + 16);
		animrt_pose ref;
		animrt_pose_init(&ref, mem.data(), k->bones);
		double rate = at_keys ? k->rate : 60.0;
		for (int i = 0; (float)(i / rate) <= k->duration; i++) {
			float t = (float)(i / rate);
			animrt_clip_sample(k->lossless, t, ANIMRT_PLAY_ONCE, k->cursors, &ref);
			sample(who, k, t, false);
			for (uint32_t b = 0; b < k->bones; b++) {
				double d2 = 0, ds = 0, dot = 0;
				for (int c = 0; c < 3; c++) {
					double d = (double)ref.translation[3 * b + c] - k->pose.translation[3 * b + c];
					d2 += d * d;
					ds = std::max(ds, fabs((double)ref.scale[3 * b + c] - k->pose.scale[3 * b + c]));
				}
				for (int c = 0; c < 4; c++)
					dot += (double)ref.rotation[4 * b + c] * k->pose.rotation[4 * b + c];
				double ang = 2 * acos(std::min(1.0, fabs(dot))) * 180 / M_PI;
				out[0] = std::max(out[0], sqrt(d2));
				out[1] = std::max(out[1], ang);
				out[2] = std::max(out[2], ds);
			}
		}
	}
}

/* What the clips take, summed over them. */
struct totals {
	size_t lossless, packed, acl, acl_tight, ozz, acl_context, ozz_context, animrt_context;
};

/* One line of standard input: both files opened, ACL and ozz built. */
static clip_set *load_pair(char *line, totals *sum)
{
	char *tab = strchr(line, '\t');
	if (!tab) {
		fprintf(stderr, "bench_anchors: a line needs two files\n");
		return NULL;
	}
	*tab = '\0';
	clip_set *k = new clip_set();
	size_t before = bench_heap_live();
	if (!open_clip(line, false, &k->lossless))
		return NULL;
	sum->lossless += bench_heap_live() - before;
	before = bench_heap_live();
	if (!open_clip(tab + 1, false, &k->packed))
		return NULL;
	sum->packed += bench_heap_live() - before;
	k->bones = k->lossless->sequence_count;
	k->duration = k->lossless->duration_s;
	k->rate = k->packed->grid_rate_hz > 0 ? k->packed->grid_rate_hz : 60.0f;
	k->samples = (uint32_t)floor((double)k->duration * k->rate + 0.5) + 1;
	k->pose_mem = aligned_alloc(64, (animrt_pose_size_bytes(k->bones) + 63) / 64 * 64);
	animrt_pose_init(&k->pose, k->pose_mem, k->bones);
	k->cursors = (uint32_t *)calloc(k->bones + 1, sizeof(uint32_t));
	k->context = animrt_context_init(malloc(animrt_context_size_bytes(k->bones)), k->bones);
	for (int i = 0; i < TIMES; i++)
		k->times[i] = (float)(rng_unit() * k->duration);
	if (!build_acl(k, 0, 0, &k->acl_tracks, &k->acl_ctx) ||
	    !build_acl(k, 1e-3f, 1.0f, &k->acl_tight_tracks, &k->acl_tight_ctx) || !build_ozz(k))
		return NULL;
	sum->acl += k->acl_tracks->get_size();
	sum->acl_tight += k->acl_tight_tracks->get_size();
	sum->acl_context += sizeof k->acl_ctx;
	sum->ozz += k->ozz_anim->size();
	sum->ozz_context += k->ozz_ctx_bytes;
	sum->animrt_context += animrt_context_size_bytes(k->bones);
	return k;
}

/* Each contender timed (bench_medians); prints the medians and ratios. */
static bool time_all(void)
{
	double median[2 * CONTENDERS];
	if (!bench_medians(pass, CONTENDERS, bone_total, median))
		return false;
	for (int m = 0; m < 2; m++) {
		double base = median[2 * LOSSLESS_SIMD + m], acl = median[2 * ACL + m];
		for (int who = 0; who < CONTENDERS; who++) {
			double v = median[2 * who + m];
			printf("%s %-32s %8.3f ns/bone  %6.3f x lossless SIMD  %6.3f x ACL default\n",
			       m ? "playback" : "random  ", names[who], v, v / base, v / acl);
		}
	}
	return true;
}

int main(void)
{
	char line[8192];
	totals sum = {};

	while (fgets(line, sizeof line, stdin)) {
		line[strcspn(line, "\n")] = '\0';
		clip_set *k = load_pair(line, &sum);
		if (!k)
			return 1;
		bone_total += k->bones;
		clips.push_back(k);
	}
	if (clips.empty()) {
		fprintf(stderr, "usage: bench_anchors < LOSSLESS<tab>COMPACT lines\n");
		return 2;
	}
	double e[3], e2[3], k1[3], k2[3];
	acl_error(ACL, false, e);
	acl_error(ACL_TIGHT, false, e2);
	acl_error(ACL, true, k1);
	acl_error(ACL_TIGHT, true, k2);
	printf("clips %zu, bones %zu\n", clips.size(), bone_total);
	printf("memory, bytes: lossless loaded %zu, compact in place %zu, ACL default %zu, ACL 1e-3 %zu, "
	       "ozz %zu\n", sum.lossless, sum.packed, sum.acl, sum.acl_tight, sum.ozz);
	printf("per instance, bytes over the clips: ACL contexts %zu, ozz contexts %zu, animrt contexts %zu\n",
	       sum.acl_context, sum.ozz_context, sum.animrt_context);
	printf("worst error against lossless at 60 Hz: ACL default %.3g units, %.3g deg; ACL 1e-3 %.3g units, "
	       "%.3g deg\n", e[0], e[1], e2[0], e2[1]);
	printf("worst error against lossless at the keys: ACL default %.3g units, %.3g deg; ACL 1e-3 %.3g units, "
	       "%.3g deg\n", k1[0], k1[1], k2[0], k2[1]);
	return time_all() ? 0 : 1;
}
