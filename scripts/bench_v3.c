/*
 * bench_v3.c - the prototype random-access layout (v3_layout.h) against
 * the lossless SIMD sampler and today's compact clip in place, timed as
 * bench_compact.c times them (same clips, random times drawn the same
 * way, 60 Hz playback, contenders interleaved, median of 31, ns a bone),
 * with the prototype's worst error against the lossless clip (60 Hz,
 * 1 kHz, every lossless key, the duration) and its bytes.
 *
 * usage: bench_v3 < PAIRS    (each line: LOSSLESS.xnb <tab> COMPACT.xnb)
 * Prints "key value" lines; scripts/bench-v3 turns them into ratios.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <animc/animrt.h>
#include "bench_heap.h"
#include "bench_util.h"
#include "sample.h"
#include "v3_sample.h"
#include "v3_encode.h"
#include "v3b.h"

#define TIMES 4096
#define MAX_CLIPS 4096

enum { LOSSLESS, PACKED, DECODED, KINDS };
typedef struct clip2 {
	animrt_clip *c[KINDS];
	v3_clip v3;
	v3b_clip v3b;
	animrt_pose pose;
	uint32_t *cursors;
	animrt_context *context;
	float *times;
} clip2;

static clip2 clips[MAX_CLIPS];
static size_t clip_count, bone_count;
static size_t b_data, b_memory, b_masks, b_file, b_memory_full, v2_tail_of, compact_size_of;
static double b_budget;
static size_t b_constants, b_image, b_head, b_groups, b_half_clips, b_containers;
static size_t bytes_lossless, bytes_compact, bytes_v3, memory_v3, v2_tail, v3_tail, records, dense_records;

/* The XNB container's bytes before the payload, of the last file measured;
 * the heap bytes of the last clip loaded in place (version 2). */
static size_t container_of, packed_heap_of, packed_heap;

typedef struct err3 {
	double t, r, s;
} err3;

static double angle_deg(const float *a, const float *b)
{
	double w = (double)a[3] * b[3] + (double)a[0] * b[0] + (double)a[1] * b[1] + (double)a[2] * b[2];
	double x = (double)a[3] * b[0] - (double)a[0] * b[3] - (double)a[1] * b[2] + (double)a[2] * b[1];
	double y = (double)a[3] * b[1] - (double)a[1] * b[3] - (double)a[2] * b[0] + (double)a[0] * b[2];
	double z = (double)a[3] * b[2] - (double)a[2] * b[3] - (double)a[0] * b[1] + (double)a[1] * b[0];

	return 2.0 * atan2(sqrt(x * x + y * y + z * z), fabs(w)) * (180.0 / 3.14159265358979323846);
}

static int error_of;
static size_t b_differ, b_compared;   /* 0: prototype A, 1: prototype B, 2: version 2 in place */

static void compare_at(clip2 *k, animrt_pose *a, animrt_pose *b, float t, err3 *e)
{
	animrt_clip_sample(k->c[LOSSLESS], t, ANIMRT_PLAY_ONCE, NULL, a);
	if (error_of == 0)
		v3_sample(&k->v3, animrt_rt_time_local(t, k->v3.duration_s, ANIMRT_PLAY_ONCE), b);
	else if (error_of == 1) {
		v3b_sample(&k->v3b, animrt_rt_time_local(t, k->v3.duration_s, ANIMRT_PLAY_ONCE), b);
		/* Against version 2 in place, bit for bit. */
		animrt_clip_sample(k->c[PACKED], t, ANIMRT_PLAY_ONCE, NULL, &k->pose);
		for (uint32_t i = 0; i < 10 * k->c[0]->sequence_count; i++)
			b_differ += memcmp(k->pose.rotation + i, b->rotation + i, 4) != 0;
		b_compared += 10 * k->c[0]->sequence_count;
	}
	else
		animrt_clip_sample(k->c[PACKED], t, ANIMRT_PLAY_ONCE, NULL, b);
	for (uint32_t i = 0; i < k->c[0]->sequence_count; i++) {
		double d2 = 0, ds = 0;

		for (int c = 0; c < 3; c++) {
			double d = (double)a->translation[3 * i + c] - b->translation[3 * i + c];

			d2 += d * d;
			ds = fmax(ds, fabs((double)a->scale[3 * i + c] - b->scale[3 * i + c]));
		}
		e->t = fmax(e->t, sqrt(d2));
		e->s = fmax(e->s, ds);
		e->r = fmax(e->r, angle_deg(a->rotation + 4 * i, b->rotation + 4 * i));
	}
}

static err3 worst_error(void)
{
	err3 e = { 0, 0, 0 };

	for (size_t n = 0; n < clip_count; n++) {
		clip2 *k = &clips[n];
		uint32_t bones = k->c[0]->sequence_count;
		void *ma = malloc(animrt_pose_size_bytes(bones ? bones : 1)), *mb = malloc(animrt_pose_size_bytes(bones ? bones : 1));
		animrt_pose a, b;
		float d = k->c[0]->duration_s;

		animrt_pose_init(&a, ma, bones);
		animrt_pose_init(&b, mb, bones);
		for (int i = 0; (float)(i / 60.0) <= d; i++)
			compare_at(k, &a, &b, (float)(i / 60.0), &e);
		for (int i = 0; (float)(i / 1000.0) <= d; i++)
			compare_at(k, &a, &b, (float)(i / 1000.0), &e);
		compare_at(k, &a, &b, d, &e);
		for (uint32_t s = 0; s < bones; s++) {
			const animrt_sequence *q = &k->c[0]->sequences[s];

			for (uint32_t j = 0; j < q->key_count; j++) {
				float t = q->has_time ? q->times_s[j] : (float)((double)j * q->key_interval_s);

				if (t <= d)
					compare_at(k, &a, &b, t, &e);
			}
		}
		free(ma);
		free(mb);
	}
	return e;
}

enum { SIMD_V0, IN_PLACE, IN_PLACE_CONTEXT, V3, V3B, CONTENDERS };
static const char *const names[CONTENDERS] = { "simd_v0", "packed", "packed_context", "v3", "v3b" };

static void pass(int who, int playback, size_t rounds)
{
	for (size_t r = 0; r < rounds; r++) {
		float play_t = (float)r * (1.0f / 60);

		for (size_t n = 0; n < clip_count; n++) {
			clip2 *k = &clips[n];
			float t = playback ? play_t : k->times[r % TIMES];
			animrt_play_mode mode = playback ? ANIMRT_PLAY_REPEAT : ANIMRT_PLAY_ONCE;

			if (who == V3B)
				v3b_sample(&k->v3b, animrt_rt_time_local(t, k->v3.duration_s, mode), &k->pose);
			else if (who == V3)
				v3_sample(&k->v3, animrt_rt_time_local(t, k->v3.duration_s, mode), &k->pose);
			else if (who == IN_PLACE_CONTEXT)
				animrt_clip_sample_with(k->c[PACKED], t, mode, k->context, &k->pose);
			else if (who == IN_PLACE)
				animrt_clip_sample(k->c[PACKED], t, mode, NULL, &k->pose);
			else
				animrt_clip_sample(k->c[LOSSLESS], t, mode, k->cursors, &k->pose);
		}
	}
}

/* A group in memory: its slots, kind and flags (12 bytes), and its used
 * lanes' ranges in the one form it keeps (u8 codes 6 bytes a lane, f16
 * 12), and 8 bytes that a load of four lanes may read past them. */
static size_t v3b_group_bytes(const v3b_clip *v)
{
	size_t n = 0;

	for (uint32_t g = 0; g < v->group_count; g++)
		n += 12 + (size_t)v->groups[g].used * (v->groups[g].is_unit ? 6 : 12) + 8;
	return n;
}

static long file_size(const char *path, unsigned char **bytes)
{
	FILE *fp = fopen(path, "rb");
	long n = fp && fseek(fp, 0, SEEK_END) == 0 ? ftell(fp) : -1;

	if (n > 0 && bytes) {
		*bytes = malloc((size_t)n);
		rewind(fp);
		if (fread(*bytes, 1, (size_t)n, fp) != (size_t)n)
			n = -1;
	}
	if (fp)
		fclose(fp);
	return n;
}

/* The bytes of the compact file from its track formats on (what the
 * prototype replaces): found by the payload's first 16 bytes. */
static size_t v2_animated_bytes(const char *path, const animrt_clip *packed)
{
	unsigned char *b = NULL;
	long n = file_size(path, &b);
	const rt_packed *pk = &packed->compact->packed;
	unsigned char head[16];
	float d = pk->duration_s, r = pk->rate_hz;

	memcpy(head, &pk->bone_count, 4);
	memcpy(head + 4, &d, 4);
	memcpy(head + 8, &r, 4);
	memcpy(head + 12, &pk->sample_count, 4);
	for (long at = 0; at + 16 <= n; at++)
		if (!memcmp(b + at, head, 16)) {
			free(b);
			container_of = (size_t)at;
			return (size_t)(n - at) - pk->formats_at;
		}
	free(b);
	fprintf(stderr, "bench_v3: %s: payload not found\n", path);
	exit(1);
}

static int open_pair(char *line)
{
	char *save = NULL, *paths[2];
	clip2 *k = &clips[clip_count];

	line[strcspn(line, "\n")] = '\0';
	paths[0] = strtok_r(line, "\t", &save);
	paths[1] = strtok_r(NULL, "\t", &save);
	if (!paths[0] || !paths[1])
		return 0;
	for (int i = 0; i < KINDS; i++) {
		animrt_error err;
		animrt_open_options options = { NULL, 0, false, i == DECODED };
		size_t before = bench_heap_live();

		if (animrt_open_file_with(paths[i ? 1 : 0], &options, &k->c[i], &err) != ANIMRT_OK) {
			fprintf(stderr, "%s: error: %s\n", paths[i ? 1 : 0], err.message);
			return 0;
		}
		if (i == PACKED)
			packed_heap_of = bench_heap_live() - before;
	}
	if (!k->c[PACKED]->compact || !k->c[PACKED]->compact->is_packed) {
		fprintf(stderr, "%s: not a compact clip in place (declined?): skipped\n", paths[1]);
		return 1;
	}
	compact_size_of = (size_t)file_size(paths[1], NULL);
	v2_tail_of = v2_animated_bytes(paths[1], k->c[PACKED]);
	v3_encode(k->c[LOSSLESS], k->c[DECODED], &k->v3);
	if (!v3b_encode(k->c[PACKED], k->c[DECODED], &k->v3b)) {
		fprintf(stderr, "%s: float32 keys: not in prototype B\n", paths[1]);
		return 0;
	}
	b_data += k->v3b.data_bytes;
	b_memory += k->v3b.data_bytes + k->v3b.image_bytes + 4 * (size_t)k->v3b.group_count * k->v3b.segment_count +
		    sizeof(v3b_clip) + sizeof(v3b_group) * k->v3b.group_count;
	b_masks += 32 * (size_t)k->v3b.group_count * k->v3b.segment_count;
	{
		const rt_packed *pk = &k->c[PACKED]->compact->packed;
		size_t recs = (size_t)k->v3b.group_count * k->v3b.segment_count;
		size_t v2_masks_keys = v2_tail_of - (pk->masks_at - pk->formats_at);
		size_t head = compact_size_of - v2_tail_of;   /* container, names, descriptors, constants */

		/* A file: version 2's sections but masks and keys, which go per
		 * record (its masks and keys byte aligned; the codes stay in
		 * version 2's segment codes). */
		size_t with_codes = 0, constants = pk->formats_at - pk->constants_at;

		for (uint32_t g = 0; g < k->v3b.group_count; g++)
			with_codes += k->v3b.groups[g].has_codes ? (size_t)k->v3b.segment_count * 24 : 0;
		b_file += compact_size_of - v2_masks_keys + (k->v3b.data_bytes - recs * V3B_MASKS - with_codes);
		b_constants += constants;
		b_image += k->v3b.half_image ? k->v3b.half_image_bytes : k->v3b.image_bytes;
		b_half_clips += k->v3b.half_image != NULL;
		b_head += head;
		b_groups += v3b_group_bytes(&k->v3b) + 4 * recs;
		/* In memory: the file's head (names, for the API), the records as
		 * built, per group its ranges as floats and slots, a record
		 * offset each, the still pose. */
		/* Version 2 in place as loaded (heap bytes), less what B replaces:
		 * its per-track key offsets and the payload from the constants
		 * on (constants, formats, ranges, segment codes, masks, keys);
		 * plus B's records, groups, record offsets and still pose.  B's
		 * own fields in the clip's header (four pointers and a count)
		 * take the place of the section offsets and key offset pointer
		 * of version 2's (eight u32 and a pointer). */
		size_t replaced = 4 * (size_t)pk->animated_count * pk->segment_count +
				  (compact_size_of - container_of - pk->constants_at);
		b_memory_full += packed_heap_of - replaced + k->v3b.data_bytes + v3b_group_bytes(&k->v3b) + 4 * recs +
				 (k->v3b.half_image ? k->v3b.half_image_bytes : k->v3b.image_bytes);
		packed_heap += packed_heap_of;
		b_containers += container_of;
		b_budget += 1.05 * (double)compact_size_of + 512;
	}
	size_t compact = (size_t)file_size(paths[1], NULL), tail = v2_animated_bytes(paths[1], k->c[PACKED]);
	bytes_lossless += (size_t)file_size(paths[0], NULL);
	bytes_compact += compact;
	bytes_v3 += compact - tail + k->v3.file_bytes;
	v2_tail += tail;
	v3_tail += k->v3.file_bytes;
	memory_v3 += compact - tail + k->v3.file_bytes + k->v3.image_bytes +
		     4 * (size_t)k->v3.group_count * k->v3.segment_count + sizeof(v3_clip) +
		     sizeof(v3_group) * k->v3.group_count;
	for (uint32_t g = 0; g < k->v3.group_count; g++)
		for (uint32_t s = 0; s < k->v3.segment_count; s++, records++)
			dense_records += k->v3.data[k->v3.record_at[g * k->v3.segment_count + s]] & V3_DENSE;
	uint32_t n = k->c[0]->sequence_count;
	size_t bytes = animrt_pose_size_bytes(n ? n : 1);
	animrt_pose_init(&k->pose, aligned_alloc(64, (bytes + 63) / 64 * 64), n);
	k->cursors = calloc((size_t)n + 1, sizeof *k->cursors);
	k->times = malloc(TIMES * sizeof *k->times);
	k->context = animrt_context_init(malloc(animrt_context_size_bytes(n)), n);
	for (int i = 0; i < TIMES; i++)
		k->times[i] = (float)(rng_unit() * k->c[0]->duration_s);
	bone_count += n;
	clip_count++;
	return 1;
}

int main(void)
{
	char line[8192];

	__builtin_cpu_init();
	if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("bmi2") || !__builtin_cpu_supports("popcnt") ||
	    !__builtin_cpu_supports("f16c")) {
		fprintf(stderr, "bench_v3: the prototypes need AVX2, BMI2, POPCNT and F16C\n");
		return 2;
	}

	while (fgets(line, sizeof line, stdin) && clip_count < MAX_CLIPS)
		if (!open_pair(line))
			return 1;
	if (!clip_count)
		return 2;
	err3 e = worst_error(), eb, e2;
	error_of = 1;
	eb = worst_error();
	error_of = 2;
	e2 = worst_error();
	printf("clips %zu\nbones %zu\n", clip_count, bone_count);
	printf("bytes %zu %zu %zu\n", bytes_lossless, bytes_compact, bytes_v3);
	printf("animated_bytes %zu %zu\n", v2_tail, v3_tail);
	printf("memory_v3 %zu\n", memory_v3);
	printf("records %zu %zu\n", records, dense_records);
	printf("keys lane %zu union %zu lanes %zu groups %zu\n", v3_stat_lane_keys, v3_stat_union_keys, v3_stat_lanes,
	       v3_stat_groups);
	printf("v3_bytes keys %zu records_meta %zu ranges %zu\n", v3_stat_key_bytes, v3_stat_meta_bytes,
	       v3_tail - v3_stat_key_bytes - v3_stat_meta_bytes);
	printf("error_v3 %.9g %.9g %.9g\n", e.t, e.r, e.s);
	printf("error_v3b %.9g %.9g %.9g\n", eb.t, eb.r, eb.s);
	printf("v3b_differs_from_v2 %zu of %zu floats\n", b_differ, b_compared);
	printf("error_v2 %.9g %.9g %.9g\n", e2.t, e2.r, e2.s);
	printf("v3b_records %zu masks %zu memory %zu\n", b_data, b_masks, b_memory);
	printf("v3b_file %zu\nv3b_memory %zu budget %.0f\n", b_file, b_memory_full, b_budget);
	printf("v2_in_place_memory %zu\n", packed_heap);
	printf("v3b_memory_parts head %zu (container %zu and constants %zu not kept) records %zu groups+offsets %zu still pose %zu "
	       "(%zu clips of %zu with f16 translations and scales)\n", b_head, b_containers, b_constants, b_data, b_groups, b_image,
	       b_half_clips, clip_count);
	fflush(stdout);
	if (getenv("V3_NO_TIMING"))
		return 0;
	if (getenv("V3_PROFILE")) {
		/* One contender alone (V3_PROFILE: its index), random times, for a profiler. */
		double t0 = now_s();
		while (now_s() - t0 < 5)
			pass(atoi(getenv("V3_PROFILE")), 0, 64);
		return 0;
	}
	double median[2 * CONTENDERS];
	if (!bench_medians(pass, CONTENDERS, bone_count, median))
		return 1;
	for (int who = 0; who < CONTENDERS; who++)
		for (int m = 0; m < 2; m++)
			printf("%s_%s_ns %.3f\n", names[who], m ? "playback" : "random", median[2 * who + m]);
	return 0;
}
