/*
 * skeleton.c - the skeleton model: lookup by name and the check that every
 * bone a clip animates exists (the original runtime threw at play time for
 * an unknown bone; animc refuses at build time).  Loading a model into a
 * skeleton is an importer's work (formats/).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <animc/animc.h>
#include "clip_internal.h"

/* A bone's name, or the part of it inside surrounding whitespace. */
typedef struct name_key {
	const char *at;
	size_t len;
	uint32_t bone;
} name_key;

struct animc_skeleton_names {
	name_key *exact, *trimmed;   /* bone_count each, by name, then bone */
};

static void skeleton_names_free(struct animc_skeleton_names *names)
{
	if (names) {
		free(names->exact);
		free(names->trimmed);
		free(names);
	}
}

void animc_skeleton_release(animc_skeleton *skeleton)
{
	if (!skeleton)
		return;
	skeleton_names_free(skeleton->names);
	skeleton->names = NULL;
	free(skeleton->bones);
	animc_arena_release(&skeleton->arena);
	skeleton->bones = NULL;
	skeleton->bone_count = 0;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Equal once surrounding whitespace is left out of both. */
static bool same_trimmed(const char *a, const char *b)
{
	size_t na, nb;

	while (is_space(*a))
		a++;
	while (is_space(*b))
		b++;
	na = strlen(a);
	nb = strlen(b);
	while (na && is_space(a[na - 1]))
		na--;
	while (nb && is_space(b[nb - 1]))
		nb--;
	return na == nb && memcmp(a, b, na) == 0;
}

/* `name` inside its surrounding whitespace: its start, *len its bytes. */
static const char *trimmed(const char *name, size_t *len)
{
	size_t n;

	while (is_space(*name))
		name++;
	n = strlen(name);
	while (n && is_space(name[n - 1]))
		n--;
	*len = n;
	return name;
}

static int compare_text(const char *a, size_t na, const char *b, size_t nb)
{
	int c = memcmp(a, b, na < nb ? na : nb);

	return c ? c : (na > nb) - (na < nb);
}

static int compare_key(const void *pa, const void *pb)
{
	const name_key *a = pa, *b = pb;
	int c = compare_text(a->at, a->len, b->at, b->len);

	return c ? c : (a->bone > b->bone) - (a->bone < b->bone);
}

animc_status animc_skeleton_index(animc_skeleton *skeleton)
{
	struct animc_skeleton_names *names = calloc(1, sizeof *names);
	size_t n = skeleton->bone_count ? skeleton->bone_count : 1;

	skeleton_names_free(skeleton->names);
	skeleton->names = NULL;
	if (!names || !(names->exact = malloc(n * sizeof *names->exact)) ||
	    !(names->trimmed = malloc(n * sizeof *names->trimmed))) {
		skeleton_names_free(names);
		return ANIMC_ERR_NOMEM;
	}
	for (uint32_t i = 0; i < skeleton->bone_count; i++) {
		const char *name = skeleton->bones[i].name;

		names->exact[i] = (name_key){ name, strlen(name), i };
		names->trimmed[i].bone = i;
		names->trimmed[i].at = trimmed(name, &names->trimmed[i].len);
	}
	qsort(names->exact, skeleton->bone_count, sizeof *names->exact, compare_key);
	qsort(names->trimmed, skeleton->bone_count, sizeof *names->trimmed, compare_key);
	skeleton->names = names;
	return ANIMC_OK;
}

/* The first of the keys (sorted) whose text is `at`; NULL when none. */
static const name_key *first_named(const name_key *keys, uint32_t count, const char *at, size_t len)
{
	size_t lo = 0, hi = count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (compare_text(keys[mid].at, keys[mid].len, at, len) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < count && compare_text(keys[lo].at, keys[lo].len, at, len) == 0 ? &keys[lo] : NULL;
}

int64_t animc_skeleton_find(const animc_skeleton *skeleton, const char *name)
{
	if (skeleton->names) {
		size_t len;
		const name_key *k = first_named(skeleton->names->exact, skeleton->bone_count, name, strlen(name));
		const char *inside = trimmed(name, &len);

		if (!k)
			k = first_named(skeleton->names->trimmed, skeleton->bone_count, inside, len);
		return k ? (int64_t)k->bone : -1;
	}
	for (uint32_t i = 0; i < skeleton->bone_count; i++)
		if (strcmp(skeleton->bones[i].name, name) == 0)
			return i;
	/* Importers trim bone names (the original pipeline's output has
	 * "Footsteps" where the source and the model say " Footsteps"). */
	for (uint32_t i = 0; i < skeleton->bone_count; i++)
		if (same_trimmed(skeleton->bones[i].name, name))
			return i;
	return -1;
}

/* Bones named in one error before "and N more". */
#define SKELETON_NAMED_MISSING 5

/* A clip's bone that names more than one bone of the model binds to the
 * first (its rest pose, its place in the hierarchy), as a runtime that
 * finds bones by name would too: said, since the model is ambiguous. */
static void warn_repeated_bone(const animc_skeleton *skeleton, const animc_clip *clip, const animc_channel *ch,
			       uint32_t found, animc_diag_sink *sink)
{
	const char *name = skeleton->bones[found].name;
	uint32_t count = 1;
	char list[96], where[512];
	int used = snprintf(list, sizeof list, "%u", found);
	/* The bones after it of its name: the next keys by name, or a walk. */
	const name_key *key = NULL, *end = NULL;

	if (skeleton->names) {
		key = first_named(skeleton->names->exact, skeleton->bone_count, name, strlen(name));
		end = skeleton->names->exact + skeleton->bone_count;
		while (key && key < end && key->bone <= found)
			key++;
	}
	for (uint32_t j = found + 1; key ? key < end : j < skeleton->bone_count; j++) {
		if (key) {
			if (strcmp(key->at, name) != 0)
				break;
			j = (key++)->bone;
		} else if (strcmp(skeleton->bones[j].name, name) != 0) {
			continue;
		}
		if (++count <= 4 && used > 0 && (size_t)used < sizeof list)
			used += snprintf(list + used, sizeof list - (size_t)used, ", %u", j);
		else if (count == 5 && used > 0 && (size_t)used < sizeof list)
			used += snprintf(list + used, sizeof list - (size_t)used, ", ...");
	}
	if (count == 1)
		return;
	animc_clip_where(clip, NULL, where, sizeof where);
	animc_diag_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_BONE_NAME_CLASH, ch->line, 0,
			       "%sthe skeleton (--skeleton) has %u bones named '%.64s' (bones %s), and the runtime "
			       "finds bones by name; bound bone '%.64s' to the first: give each bone of the model "
			       "its own name", where, count, name, list, ch->bone);
}

animc_status animc_skeleton_check(const animc_skeleton *skeleton, const animc_clip *clip,
				  animc_diag_sink *sink)
{
	uint32_t missing = 0, first = 0;
	char names[1024], where[512];
	size_t used = 0;

	names[0] = '\0';
	for (uint32_t i = 0; i < clip->channel_count; i++) {
		const animc_channel *ch = &clip->channels[i];

		int64_t found = animc_skeleton_find(skeleton, ch->bone);

		if (found >= 0) {
			warn_repeated_bone(skeleton, clip, ch, (uint32_t)found, sink);
			continue;
		}
		if (missing++ == 0)
			first = i;
		if (missing <= SKELETON_NAMED_MISSING && used < sizeof names) {
			int n = snprintf(names + used, sizeof names - used, "%s'%.64s'", missing > 1 ? ", " : "",
					 ch->bone);

			used += n > 0 ? (size_t)n : 0;
		}
	}
	if (missing == 0)
		return ANIMC_OK;
	/* One error a clip, at its first such bone: a wrong --skeleton model
	 * misses most bones of every clip. */
	animc_clip_where(clip, NULL, where, sizeof where);
	const char *none = missing == clip->channel_count ? "; none of its bones is: is that model this clip's?" : "";
	if (missing == 1) {
		animc_diag_report(sink, ANIMC_ERROR, clip->channels[first].line, 0,
				  "%sbone %s is not in the skeleton (--skeleton, %u bone%s)%s", where, names,
				  skeleton->bone_count, skeleton->bone_count == 1 ? "" : "s", none);
		return ANIMC_ERR_NOT_FOUND;
	}
	char more[32] = "";
	if (missing > SKELETON_NAMED_MISSING)
		snprintf(more, sizeof more, " and %u more", missing - SKELETON_NAMED_MISSING);
	animc_diag_report(sink, ANIMC_ERROR, clip->channels[first].line, 0,
			  "%s%u of its %u bones are not in the skeleton (--skeleton, %u bones): %s%s%s", where, missing,
			  clip->channel_count, skeleton->bone_count, names, more, none);
	return ANIMC_ERR_NOT_FOUND;
}
