/*
 * clip.c - the arena, the clip and the clip set: construction and ownership
 * of the in-memory model.  Invariants live in validate.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <animc/animc.h>
#include "clip_internal.h"
#include "xnb_layout.h"

/* The track kinds are the format's track lists: one description of widths
 * and names, lib/common/xnb_layout.h. */
const uint32_t animc_track_width[ANIMC_TRACK_COUNT] = { XNB_TRACK_LISTS(XNB_LIST_WIDTH_) };
const char *const animc_track_name[ANIMC_TRACK_COUNT] = { XNB_TRACK_LISTS(XNB_LIST_NOUN_) };

/* ------------------------------------------------------------------ arena */

struct animc_arena_block {
	struct animc_arena_block *next;
	size_t used;
	size_t capacity;
	_Alignas(16) unsigned char data[];
};

#define ARENA_BLOCK_BYTES (64u * 1024u)

void *animc_arena_alloc(animc_arena *arena, size_t count, size_t size)
{
	struct animc_arena_block *block = arena->head;
	size_t bytes, offset;

	if (size != 0 && count > SIZE_MAX / size)
		return NULL;
	bytes = count * size;
	if (bytes > SIZE_MAX - 15)
		return NULL;
	bytes = (bytes + 15) & ~(size_t)15;
	if (bytes == 0)
		bytes = 16;
	offset = block ? block->used : 0;
	if (!block || bytes > block->capacity - offset) {
		size_t capacity = bytes > ARENA_BLOCK_BYTES ? bytes : ARENA_BLOCK_BYTES;

		if (capacity > SIZE_MAX - sizeof *block)
			return NULL;
		block = malloc(sizeof *block + capacity);
		if (!block)
			return NULL;
		block->capacity = capacity;
		block->used = 0;
		/* A block bigger than the standard size is linked behind the
		 * current one so the current one keeps filling. */
		if (arena->head && capacity > ARENA_BLOCK_BYTES) {
			block->next = arena->head->next;
			arena->head->next = block;
		} else {
			block->next = arena->head;
			arena->head = block;
		}
		arena->total_bytes += capacity;
		offset = 0;
	}
	block->used = offset + bytes;
	memset(block->data + offset, 0, bytes);
	return block->data + offset;
}

char *animc_arena_strndup(animc_arena *arena, const char *s, size_t len)
{
	char *copy;

	if (len == SIZE_MAX)
		return NULL;
	copy = animc_arena_alloc(arena, len + 1, 1);
	if (copy && len)
		memcpy(copy, s, len);
	return copy;
}

void animc_arena_release(animc_arena *arena)
{
	struct animc_arena_block *block, *next;

	if (!arena)
		return;
	for (block = arena->head; block; block = next) {
		next = block->next;
		free(block);
	}
	arena->head = NULL;
	arena->total_bytes = 0;
}

/* ------------------------------------------------------------------- clip */

animc_clip *animc_clip_create(const char *name)
{
	animc_clip *clip = calloc(1, sizeof *clip);

	if (!clip)
		return NULL;
	if (!name)
		name = "";
	clip->name = animc_arena_strndup(&clip->arena, name, strlen(name));
	if (!clip->name) {
		free(clip);
		return NULL;
	}
	clip->declared_channel_count = -1;
	return clip;
}

void animc_clip_destroy(animc_clip *clip)
{
	if (!clip)
		return;
	animc_arena_release(&clip->arena);
	free(clip->channels);
	free(clip);
}

int64_t animc_clip_add_channel(animc_clip *clip, const char *bone, size_t bone_len)
{
	animc_channel *channel;

	if (clip->channel_count == INT32_MAX)
		return -1;
	if (clip->channel_count == clip->channel_capacity) {
		uint32_t capacity = clip->channel_capacity ? clip->channel_capacity * 2 : 16;
		animc_channel *grown;

		if (capacity > INT32_MAX)
			capacity = INT32_MAX;
		grown = realloc(clip->channels, (size_t)capacity * sizeof *grown);
		if (!grown)
			return -1;
		clip->channels = grown;
		clip->channel_capacity = capacity;
	}
	channel = &clip->channels[clip->channel_count];
	memset(channel, 0, sizeof *channel);
	channel->bone = animc_arena_strndup(&clip->arena, bone ? bone : "", bone ? bone_len : 0);
	if (!channel->bone)
		return -1;
	return clip->channel_count++;
}

float *animc_clip_alloc_floats(animc_clip *clip, size_t count)
{
	return animc_arena_alloc(&clip->arena, count, sizeof(float));
}

float *animc_clip_alloc_values(animc_clip *clip, animc_track_kind kind, size_t count)
{
	size_t width = animc_track_width[kind];

	if (count > SIZE_MAX / width)
		return NULL;
	return animc_clip_alloc_floats(clip, count * width);
}

/* --------------------------------------------------------------- clip set */

animc_status animc_clip_set_add(animc_clip_set *set, animc_clip *clip)
{
	if (!clip)
		return ANIMC_ERR_ARGUMENT;
	if (set->count == set->capacity) {
		uint32_t capacity = set->capacity ? set->capacity * 2 : 4;
		animc_clip **grown;

		if (set->capacity > UINT32_MAX / 2) {
			animc_clip_destroy(clip);
			return ANIMC_ERR_LIMIT;
		}
		grown = realloc(set->clips, (size_t)capacity * sizeof *grown);
		if (!grown) {
			animc_clip_destroy(clip);
			return ANIMC_ERR_NOMEM;
		}
		set->clips = grown;
		set->capacity = capacity;
	}
	set->clips[set->count++] = clip;
	return ANIMC_OK;
}

void animc_clip_set_remove(animc_clip_set *set, uint32_t index)
{
	if (index >= set->count)
		return;
	animc_clip_destroy(set->clips[index]);
	memmove(&set->clips[index], &set->clips[index + 1],
		(size_t)(set->count - index - 1) * sizeof *set->clips);
	set->count--;
}

void animc_clip_set_release(animc_clip_set *set)
{
	if (!set)
		return;
	for (uint32_t i = 0; i < set->count; i++)
		animc_clip_destroy(set->clips[i]);
	free(set->clips);
	set->clips = NULL;
	set->count = set->capacity = 0;
}

/* Clips of a set in name order, source order among equal names. */
typedef struct name_ref {
	const char *name;
	uint32_t index;
} name_ref;

static int compare_name_refs(const void *pa, const void *pb)
{
	const name_ref *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);

	return c ? c : (a->index > b->index) - (a->index < b->index);
}

/* refs are in name order; a name_ref begins with its name. */
static int compare_name_key(const void *key, const void *ref)
{
	return strcmp(key, *(const char *const *)ref);
}

static bool name_taken(const name_ref *refs, uint32_t n, const char *name)
{
	return bsearch(name, refs, n, sizeof *refs, compare_name_key) != NULL;
}

animc_status animc_clip_set_name_unique(animc_clip_set *set, animc_diag_sink *sink)
{
	uint32_t n = set->count;
	name_ref *refs;

	if (n < 2)
		return ANIMC_OK;
	refs = malloc((size_t)n * sizeof *refs);
	if (!refs)
		return ANIMC_ERR_NOMEM;
	for (uint32_t i = 0; i < n; i++)
		refs[i] = (name_ref){ set->clips[i]->name, i };
	qsort(refs, n, sizeof *refs, compare_name_refs);
	/* The names of the sorted list stay the original ones (the arenas
	 * keep the old strings), so a new name is checked against those: a
	 * suffixed name can only meet an original name, never another new
	 * one ("x.1" comes only from the clips named "x"). */
	for (uint32_t g = 0, end; g < n; g = end) {
		const char *base = refs[g].name;
		size_t base_len = strlen(base), list_used = 0;
		char list[512];
		uint32_t suffix = 0;

		for (end = g + 1; end < n && strcmp(refs[end].name, base) == 0; end++)
			;
		if (end - g < 2 || !base[0])
			continue;
		list_used = (size_t)snprintf(list, sizeof list, "'%s'", base);
		for (uint32_t m = g + 1; m < end; m++) {
			animc_clip *clip = set->clips[refs[m].index];
			char *name = malloc(base_len + 16);

			if (!name) {
				free(refs);
				return ANIMC_ERR_NOMEM;
			}
			do
				snprintf(name, base_len + 16, "%s.%u", base, ++suffix);
			while (name_taken(refs, n, name));
			clip->name = animc_arena_strndup(&clip->arena, name, strlen(name));
			if (clip->name && list_used < sizeof list)
				list_used += (size_t)snprintf(list + list_used, sizeof list - list_used,
							      m + 1 < end ? ", '%s'" : " and '%s'", name);
			free(name);
			if (!clip->name) {
				free(refs);
				return ANIMC_ERR_NOMEM;
			}
		}
		if (list_used >= sizeof list)
			memcpy(list + sizeof list - 5, "...", 4);
		animc_diag_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_CLIP_NAME_CLASH, set->clips[refs[g + 1].index]->line, 0,
				  "%u clips are named '%s'; named them %s: give each "
				  "clip its own name to choose the file names", end - g, base, list);
	}
	free(refs);
	return ANIMC_OK;
}

/* ---------------------------------------------------------------- helpers */

void animc_clip_where(const animc_clip *clip, const animc_channel *channel,
		      char *buf, size_t size)
{
	int n = 0;

	if (size == 0)
		return;
	buf[0] = '\0';
	if (clip && clip->name && clip->name[0])
		n = snprintf(buf, size, "clip '%s': ", clip->name);
	if (n < 0 || (size_t)n >= size)
		return;
	if (channel)
		snprintf(buf + n, size - (size_t)n, "bone '%s': ", channel->bone);
}

void animc_clip_vreport_kind(animc_diag_sink *sink, animc_severity severity, animc_warning_kind kind,
			     const animc_clip *clip, const animc_channel *channel, const char *fmt, va_list ap)
{
	/* Room for the longest names a reader keeps (Assimp's: 1,024 bytes). */
	char where[4160], what[1024];

	vsnprintf(what, sizeof what, fmt, ap);
	animc_clip_where(clip, channel, where, sizeof where);
	animc_diag_report_kind(sink, severity, kind, channel ? channel->line : clip ? clip->line : 0, 0, "%s%s", where,
			       what);
}

void animc_clip_vreport(animc_diag_sink *sink, animc_severity severity, const animc_clip *clip,
			const animc_channel *channel, const char *fmt, va_list ap)
{
	animc_clip_vreport_kind(sink, severity, ANIMC_WARN_NONE, clip, channel, fmt, ap);
}

void animc_clip_report_kind(animc_diag_sink *sink, animc_severity severity, animc_warning_kind kind,
			    const animc_clip *clip, const animc_channel *channel, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	animc_clip_vreport_kind(sink, severity, kind, clip, channel, fmt, ap);
	va_end(ap);
}

void animc_clip_report(animc_diag_sink *sink, animc_severity severity, const animc_clip *clip,
		       const animc_channel *channel, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	animc_clip_vreport(sink, severity, clip, channel, fmt, ap);
	va_end(ap);
}

const char *animc_float_class(float f)
{
	if (isnan(f))
		return "NaN";
	if (isinf(f))
		return f < 0 ? "-infinite" : "infinite";
	return "finite";
}

/* A copy of `from` whose key arrays are its own (in the clip's arena). */
animc_status animc_channel_copy(animc_clip *clip, const animc_channel *from, animc_channel *to)
{
	*to = *from;
	if (from->has_time && from->times_s) {
		to->times_s = animc_clip_alloc_floats(clip, from->key_count ? from->key_count : 1);
		if (!to->times_s)
			return ANIMC_ERR_NOMEM;
		memcpy(to->times_s, from->times_s, (size_t)from->key_count * sizeof *to->times_s);
	}
	for (int k = 0; k < ANIMC_TRACK_COUNT; k++) {
		const animc_track *t = &from->tracks[k];
		size_t count = (size_t)t->value_count * animc_track_width[k];

		if (!t->values || count == 0)
			continue;
		to->tracks[k].values = animc_clip_alloc_floats(clip, count);
		if (!to->tracks[k].values)
			return ANIMC_ERR_NOMEM;
		memcpy(to->tracks[k].values, t->values, count * sizeof(float));
	}
	return ANIMC_OK;
}
