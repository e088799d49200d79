/*
 * time_index.h - the coarse index of a timed sequence's key times that the
 * loader builds (load.c) and the sampler reads (sample.c); not installed.
 *
 * The sequence's span [0, times[last]] is cut into bucket_count buckets of
 * equal width, few enough keys to each (at most RT_TIME_INDEX_WINDOW);
 * start[b] is the number of keys whose time falls in a bucket before b.  A
 * time t in bucket b lies after every key before start[b] and before every
 * key of a later bucket, so the number of keys at or before t is start[b]
 * plus those of the RT_TIME_INDEX_WINDOW keys from start[b] at or before t:
 * one small load and one short count, without a branch, where a guess from
 * t alone lands tens of keys off when keys cluster where the motion is
 * fast (reduced sequences), and a search costs more than a bone's sample.
 *
 * The bucket of a time is one float product and a truncation, monotonic in
 * the time, computed the same way when the index is built and when it is
 * read: that, not exact arithmetic, is what makes the count right.
 */
#ifndef ANIMRT_TIME_INDEX_H
#define ANIMRT_TIME_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include <animc/animrt.h>

struct animrt_time_index {
	float scale;             /* bucket_count / times[last] */
	uint32_t bucket_count;   /* >= 1 */
	uint16_t start[];        /* bucket_count entries */
};

/* The keys the sampler counts from a bucket's first: no bucket holds more.
 * Sequences of fewer keys, or more than start[] can count, or whose keys
 * bunch up too much for buckets of at most one per key, or that have two
 * keys at one time, have no index: the sampler searches their times. */
#define RT_TIME_INDEX_WINDOW 4
#define RT_TIME_INDEX_MIN_KEYS RT_TIME_INDEX_WINDOW
#define RT_TIME_INDEX_MAX_KEYS UINT16_MAX

static inline uint32_t rt_time_bucket(const animrt_time_index *ix, float t)
{
	float x = t * ix->scale;

	/* Non-decreasing in t: below 0, and at or past the last bucket,
	 * clamped. */
	if (!(x > 0))
		return 0;
	return x < (float)ix->bucket_count ? (uint32_t)x : ix->bucket_count - 1;
}

/* The first key of t's bucket: a separate step, so that a sampler can
 * look up several bones' buckets before it reads any of their times. */
static inline uint32_t rt_time_index_start(const animrt_time_index *ix, float t)
{
	return ix->start[rt_time_bucket(ix, t)];
}

/*
 * The last key at or before t (0 before the first key, the last from its
 * time on), in a sequence of key_count keys whose index puts the first key
 * of t's bucket at lo: the count of the keys at or before t, less one.
 * The window starts at lo, or earlier near the end so that it stays within
 * the times (keys before the bucket lie before t, so moving the start back
 * changes nothing); keys after the bucket lie after t and add nothing.
 */
static inline uint32_t rt_time_index_count(const float *times, uint32_t key_count, uint32_t lo, float t)
{
	uint32_t c = lo < key_count - RT_TIME_INDEX_WINDOW ? lo : key_count - RT_TIME_INDEX_WINDOW;
	const float *w = times + c;

	for (uint32_t j = 0; j < RT_TIME_INDEX_WINDOW; j++)
		c += w[j] <= t;
	return c > 0 ? c - 1 : 0;
}

#endif
