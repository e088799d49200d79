/*
 * xna_import.c - the XNA IntermediateSerializer importer: an <XnaContent>
 * document whose <Asset> is AnimationData, SkinningData or ModelData (named
 * clips whose keyframes mix bones, split here into one channel per bone) or
 * RobotGame's AnimationSequence (one clip, the same one its XmlSerializer
 * twin gives).  Streamed through the XML element reader; NOTES.md states the
 * grammar.  Keys stay in document order per bone: sorting them is the sort
 * pass's work, which warns naming the bone.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <animc/animc_xform.h>
#include <animc/animc_formats.h>
#include "robotgame/sequence.h"
#include "xml/xml.h"

/* XnaContent > Asset > clips > entry > Value > Keyframes > keyframe > member > item */
#define MAX_DEPTH 10

/* ------------------------------------------------------------- grammar */

typedef enum asset_type {
	A_NONE = 0,
	A_ANIMATION_DATA,  /* AnimationClassLibrary.AnimationData: Euler keys */
	A_SKINNING_DATA,   /* SkinnedModel.SkinningData: matrix keys */
	A_MODEL_DATA,      /* CustomModelAnimation.ModelData: matrix keys, root clips */
	A_SEQUENCE,        /* RobotGameData.GameObject.AnimationSequence */
	A_COUNT
} asset_type;

static const char *const asset_names[A_COUNT] = {
	[A_ANIMATION_DATA] = "AnimationClassLibrary.AnimationData",
	[A_SKINNING_DATA] = "SkinnedModel.SkinningData",
	[A_MODEL_DATA] = "CustomModelAnimation.ModelData",
	[A_SEQUENCE] = "RobotGameData.GameObject.AnimationSequence",
};

#define T_AD (1u << A_ANIMATION_DATA)
#define T_MATRIX ((1u << A_SKINNING_DATA) | (1u << A_MODEL_DATA))
#define T_CLIPS (T_AD | T_MATRIX)
#define T_SEQ (1u << A_SEQUENCE)

typedef enum kind {
	K_UNKNOWN = 0,
	K_ROOT,
	K_ASSET,
	K_CLIPS,           /* a dictionary of clips (which one in `index`) */
	K_ENTRY,           /* one Key/Value pair */
	K_KEY,
	K_VALUE,
	K_CLIP_DURATION,
	K_KEYFRAMES,
	K_KEYFRAME,
	K_KF_BONE,
	K_KF_TIME,
	K_KF_VECTOR,       /* Position, Rotation (Euler), Scale */
	K_KF_TRANSFORM,
	K_MATRICES,        /* BindPose, InverseBindPose */
	K_HIERARCHY,
	K_LIST_ITEM,       /* an item of a number list written item by item */
	K_SEQ_COUNT,
	K_SEQ_DURATION,
	K_SEQUENCES,
	K_SEQUENCE,
	K_SEQ_MEMBER,      /* BoneName, KeyCount, ..., Has..., Fixed... (which in `index`) */
	K_SEQ_LIST,        /* Translation, Rotation, Scale, Time */
	K_NULL,            /* an element Null="true": none, its content skipped */
} kind;

enum { V_POSITION, V_ROTATION, V_SCALE };

typedef struct rule {
	kind parent;
	const char *name;   /* NULL: an item of a collection, whatever its name */
	kind kind;
	unsigned types;     /* the asset types it belongs to */
	int index;          /* which dictionary, vector, flag or list */
	bool is_required;
	bool may_be_null;   /* Null="true" reads as empty (lists, dictionaries) */
} rule;

static const rule rules[] = {
	{ K_ASSET, "AnimationClips", K_CLIPS, T_AD | (1u << A_SKINNING_DATA), 0, false, true },
	{ K_ASSET, "ModelAnimationClips", K_CLIPS, 1u << A_MODEL_DATA, 0, false, true },
	{ K_ASSET, "RootAnimationClips", K_CLIPS, 1u << A_MODEL_DATA, 1, false, true },
	{ K_ASSET, "BindPose", K_MATRICES, T_MATRIX, 0, false, true },
	{ K_ASSET, "InverseBindPose", K_MATRICES, T_MATRIX, 1, false, true },
	{ K_ASSET, "SkeletonHierarchy", K_HIERARCHY, T_MATRIX, 0, false, true },
	{ K_ASSET, "KeyFrameSequenceCount", K_SEQ_COUNT, T_SEQ, 0, false, false },
	{ K_ASSET, "Duration", K_SEQ_DURATION, T_SEQ, 0, true, false },
	{ K_ASSET, "KeyFrameSequences", K_SEQUENCES, T_SEQ, 0, false, true },
	{ K_CLIPS, NULL, K_ENTRY, T_CLIPS, 0, false, false },
	{ K_ENTRY, "Key", K_KEY, T_CLIPS, 0, true, false },
	{ K_ENTRY, "Value", K_VALUE, T_CLIPS, 0, true, false },
	{ K_VALUE, "Duration", K_CLIP_DURATION, T_CLIPS, 0, true, false },
	{ K_VALUE, "Keyframes", K_KEYFRAMES, T_CLIPS, 0, true, true },
	{ K_KEYFRAMES, NULL, K_KEYFRAME, T_CLIPS, 0, false, false },
	{ K_KEYFRAME, "BoneIndex", K_KF_BONE, T_AD, 0, true, false },
	{ K_KEYFRAME, "Bone", K_KF_BONE, T_MATRIX, 0, true, false },
	{ K_KEYFRAME, "Time", K_KF_TIME, T_CLIPS, 0, true, false },
	{ K_KEYFRAME, "Position", K_KF_VECTOR, T_AD, V_POSITION, true, false },
	{ K_KEYFRAME, "Rotation", K_KF_VECTOR, T_AD, V_ROTATION, true, false },
	{ K_KEYFRAME, "Scale", K_KF_VECTOR, T_AD, V_SCALE, true, false },
	{ K_KEYFRAME, "Transform", K_KF_TRANSFORM, T_MATRIX, 0, true, false },
	{ K_MATRICES, NULL, K_LIST_ITEM, T_MATRIX, 0, false, false },
	{ K_HIERARCHY, NULL, K_LIST_ITEM, T_MATRIX, 0, false, false },
	{ K_SEQUENCES, NULL, K_SEQUENCE, T_SEQ, 0, false, false },
	/* The members of a KeyFrameSequence, as the XmlSerializer dialect has
	 * them (robotgame/sequence.h reads them and checks the required ones). */
	{ K_SEQUENCE, "BoneName", K_SEQ_MEMBER, T_SEQ, ANIMC_RG_BONE_NAME, false, false },
	{ K_SEQUENCE, "KeyCount", K_SEQ_MEMBER, T_SEQ, ANIMC_RG_KEY_COUNT, false, false },
	{ K_SEQUENCE, "Duration", K_SEQ_MEMBER, T_SEQ, ANIMC_RG_DURATION, false, false },
	{ K_SEQUENCE, "KeyInterval", K_SEQ_MEMBER, T_SEQ, ANIMC_RG_KEY_INTERVAL, false, false },
#define FLAG_RULE(id, field) { K_SEQUENCE, field, K_SEQ_MEMBER, T_SEQ, ANIMC_RG_FLAG0 + XNB_FLAG_##id, false, false },
	XNB_FLAGS(FLAG_RULE)
#undef FLAG_RULE
#define LIST_RULE(id, field, noun, type, width) { K_SEQUENCE, field, K_SEQ_LIST, T_SEQ, XNB_LIST_##id, false, true },
	XNB_LISTS(LIST_RULE)
#undef LIST_RULE
	{ K_SEQ_LIST, NULL, K_LIST_ITEM, T_SEQ, 0, false, false },
};

#define RULE_COUNT ((int)(sizeof rules / sizeof rules[0]))
_Static_assert(sizeof rules / sizeof rules[0] <= 64, "one bit of frame.seen per rule");

/* ------------------------------------------------------------- state */

typedef struct frame {
	kind kind;
	int rule;
	const char *name;       /* libxml2's interned name, valid through the parse */
	uint64_t seen;          /* bit per member rule seen inside; K_NULL: content said */
	const char *item_name;  /* the name the first item of a collection used */
	uint32_t line, column;
} frame;

typedef struct keyframe {
	int32_t bone;
	int64_t ticks;
	/* AnimationData: position, Euler angles (X pitch, Y yaw, Z roll), scale;
	 * the matrix types: the 16 elements of Transform. */
	float v[16];
	uint32_t line;                      /* the keyframe element */
	uint32_t bone_line, bone_column;
	uint32_t time_line, time_column;
	uint32_t value_line, value_column;  /* Transform */
} keyframe;

/* A namespace alias declared on <XnaContent>. */
typedef struct alias {
	char *prefix, *uri;
} alias;

/* What later checks need of each clip built. */
typedef struct clip_info {
	size_t clip;                    /* index in the set */
	int dictionary;                 /* 0: the model's clips, 1: RootAnimationClips */
	char *raw_key;                  /* the Key as written, when trimming changed it */
	uint32_t key_line, key_column;
	int32_t max_bone;               /* -1 when the clip has no keys */
	uint32_t bone_line, bone_column;
} clip_info;

typedef struct xna {
	const animc_import_options *options;
	animc_diag_sink *sink;
	animc_clip_set *out;
	animc_status status;
	asset_type type;
	frame stack[MAX_DEPTH];
	bool asset_seen;
	uint32_t root_line, asset_line;
	alias *aliases;            /* the xmlns: of <XnaContent>, all of them */
	size_t alias_count, alias_capacity;
	animc_rg_floats numbers;   /* the number list being read */
	int32_t *ints;             /* SkeletonHierarchy being read */
	size_t int_count, int_capacity;
	/* the clip entry being read */
	int dictionary;            /* 0: the model's clips, 1: RootAnimationClips */
	char *key;                 /* trimmed */
	char *raw_key;             /* as written, when trimming changed it */
	uint32_t key_line, key_column;
	int64_t duration_ticks;
	keyframe *keys;
	size_t key_count, key_capacity;
	keyframe key_now;
	clip_info *infos;
	size_t info_count, info_capacity;
	/* SkinningData/ModelData members */
	bool has_matrices[2], has_hierarchy;
	size_t matrix_count[2];
	uint32_t matrices_line[2], matrices_column[2], hierarchy_line, hierarchy_column;
	int32_t *hierarchy;
	size_t hierarchy_count;
	/* AnimationSequence */
	animc_clip *seq_clip;
	animc_rg_sequence seq;
	bool seq_count_seen;
	/* The <Asset> type, when it is not one of the types above. */
	char other_type[160];
} xna;

static animc_xml_action fail_at(xna *x, animc_status status, uint32_t line, uint32_t column,
				const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static animc_xml_action fail_at(xna *x, animc_status status, uint32_t line, uint32_t column,
				const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	animc_diag_vreport(x->sink, ANIMC_ERROR, line, column, -1, fmt, ap);
	va_end(ap);
	if (x->status == ANIMC_OK)
		x->status = status;
	return ANIMC_XML_STOP;
}

#define fail(x, status, el, ...) fail_at((x), (status), (el)->line, (el)->column, __VA_ARGS__)

/* Stop on an error already reported. */
static animc_xml_action stop(xna *x, animc_status status)
{
	if (x->status == ANIMC_OK)
		x->status = status;
	return ANIMC_XML_STOP;
}

static animc_xml_action nomem(xna *x, const animc_xml_element *el)
{
	return fail(x, ANIMC_ERR_NOMEM, el, "out of memory");
}

/* Grow an array of `count` items of `size` bytes to hold one more. */
static bool grow(void **items, size_t *capacity, size_t count, size_t size, size_t first)
{
	size_t cap;
	void *grown;

	if (count < *capacity)
		return true;
	cap = *capacity ? *capacity : first;
	if (cap > SIZE_MAX / 2 / size)
		return false;
	cap = *capacity ? cap * 2 : cap;
	grown = realloc(*items, cap * size);
	if (!grown)
		return false;
	*items = grown;
	*capacity = cap;
	return true;
}

/* A copy of text[0..len) trimmed of XML whitespace, NUL-terminated. */
static char *trimmed_copy(const char *text, size_t len)
{
	const char *t = animc_xs_trim(text, &len);
	char *copy = malloc(len + 1);

	if (copy) {
		memcpy(copy, t, len);
		copy[len] = '\0';
	}
	return copy;
}

/* ------------------------------------------------------------ values */

/* Exactly `want` xs:float numbers (a Vector3, a Matrix). */
static bool parse_vector(xna *x, const animc_xml_element *el, const char *text, size_t len,
			 float *out, size_t want)
{
	const char *cursor = text, *end = text + len, *token;
	size_t n, count = 0;

	while (animc_xs_list_next(&cursor, end, &token, &n)) {
		if (count == want) {
			fail(x, ANIMC_ERR_PARSE, el, "<%s> has more than %zu numbers", el->name, want);
			return false;
		}
		if (!animc_xs_float(token, n, &out[count])) {
			fail(x, ANIMC_ERR_PARSE, el, "<%s> holds '%.*s', which is not an xs:float",
			     el->name, ANIMC_XML_QUOTE_LEN(n), token);
			return false;
		}
		count++;
	}
	if (count < want) {
		fail(x, ANIMC_ERR_PARSE, el, "<%s> has %zu number%s; it needs %zu", el->name, count,
		     count == 1 ? "" : "s", want);
		return false;
	}
	return true;
}

/* Move *pos, the place in the document of *from, on to `at`, further in
 * the same element's text, counting lines and characters.  A comment, CDATA
 * section or character reference earlier in the text, which the text no
 * longer shows as written, shifts the place. */
static void advance_place(animc_xml_element *pos, const char **from, const char *at)
{
	for (const char *p = *from; p < at; p++) {
		if (*p == '\n') {
			pos->line++;
			pos->column = 1;
		} else if ((*p & 0xC0) != 0x80) {
			pos->column++;
		}
	}
	*from = at;
}

/* Value v, just read into a sequence list at `at`: kept for the sequence's
 * end when it is NaN or infinite, or completes a rotation not of unit length
 * (`key_at`: where that key's first number is). */
static void note_sequence_value(xna *x, int list, float v, const animc_xml_element *at,
				animc_xml_element *key_at)
{
	size_t i = x->numbers.count - 1;

	animc_rg_sequence_note_value(&x->seq, list, i, v, at);
	if (list != XNB_LIST_ROTATION)
		return;
	if (i % 4 == 0)
		*key_at = *at;
	else if (i % 4 == 3)
		animc_rg_sequence_note_rotation(&x->seq, i / 4, &x->numbers.v[i - 3], key_at);
}

/* Append the numbers of a list's text to x->numbers (xs:float) or x->ints
 * (xs:int); *added says how many.  A sequence list's values are noted with
 * their own places (note_sequence_value). */
static bool parse_list(xna *x, const animc_xml_element *el, const char *text, size_t len, const rule *r,
		       size_t *added)
{
	const char *cursor = text, *end = text + len, *token, *scanned = text;
	animc_xml_element at = *el, key_at = *el;
	bool is_int = r->kind == K_HIERARCHY;
	size_t n;

	*added = 0;
	while (animc_xs_list_next(&cursor, end, &token, &n)) {
		if (is_int) {
			int32_t v;

			if (!animc_xs_int(token, n, &v, NULL)) {
				fail(x, ANIMC_ERR_PARSE, el, "<%s> holds '%.*s', which is not an xs:int",
				     el->name, ANIMC_XML_QUOTE_LEN(n), token);
				return false;
			}
			if (!grow((void **)&x->ints, &x->int_capacity, x->int_count, sizeof *x->ints, 64)) {
				nomem(x, el);
				return false;
			}
			x->ints[x->int_count++] = v;
		} else {
			float v;

			if (!animc_xs_float(token, n, &v)) {
				fail(x, ANIMC_ERR_PARSE, el, "<%s> holds '%.*s', which is not an xs:float",
				     el->name, ANIMC_XML_QUOTE_LEN(n), token);
				return false;
			}
			if (!animc_rg_floats_push(&x->numbers, &v, 1)) {
				nomem(x, el);
				return false;
			}
			if (r->kind == K_SEQ_LIST) {
				advance_place(&at, &scanned, token);
				note_sequence_value(x, r->index, v, &at, &key_at);
			}
		}
		(*added)++;
	}
	return true;
}

/* A TimeSpan: xs:duration in ticks, not negative. */
static bool parse_time(xna *x, const animc_xml_element *el, const char *text, size_t len, int64_t *ticks)
{
	if (!animc_xs_duration(text, len, ticks)) {
		text = animc_xs_trim(text, &len);
		fail(x, ANIMC_ERR_PARSE, el, "<%s> holds '%.*s', which is not an xs:duration a TimeSpan holds (such "
		     "as PT1.5S, each number within int32)",
		     el->name, ANIMC_XML_QUOTE_LEN(len), text);
		return false;
	}
	if (*ticks < 0) {
		fail(x, ANIMC_ERR_INVALID, el, "<%s> is negative (%.*s)", el->name, ANIMC_XML_QUOTE_LEN(len),
		     animc_xs_trim(text, &len));
		return false;
	}
	return true;
}

static float ticks_to_seconds(int64_t ticks)
{
	return (float)((double)ticks / ANIMC_TICKS_PER_SECOND);
}

/* --------------------------------------------------------------- clips */

static const char *const dictionary_prefix[2] = { "", "root." };

/* Translation, rotation and scale of one key; false once reported. */
static bool key_values(xna *x, const keyframe *k, float t[3], float r[4], float s[3])
{
	const animc_import_options *o = x->options;
	bool is_euler = x->type == A_ANIMATION_DATA;
	double m[16];
	animc_decompose_result result;

	if (is_euler) {
		/* Rotation holds (pitch, yaw, roll) as X, Y, Z. */
		animc_quat_from_yaw_pitch_roll(k->v[4], k->v[3], k->v[5], r);
		if (!o->relative_to_bind) {
			memcpy(t, &k->v[0], 3 * sizeof *t);
			memcpy(s, &k->v[6], 3 * sizeof *s);
			return true;
		}
		double pos[3] = { k->v[0], k->v[1], k->v[2] };
		double rot[4] = { r[0], r[1], r[2], r[3] };
		double scl[3] = { k->v[6], k->v[7], k->v[8] };

		animc_mat4_compose(pos, rot, scl, m);
	} else {
		for (int i = 0; i < 16; i++)
			m[i] = k->v[i];
	}
	if (o->relative_to_bind) {
		/* As the design's player did: keyframe transform x original bone transform. */
		double rest[16];

		for (int i = 0; i < 16; i++)
			rest[i] = o->skeleton->bones[k->bone].local[i];
		animc_mat4_multiply(m, rest, m);
	}
	result = animc_mat4_decompose(m, t, r, s);
	if (result == ANIMC_DECOMPOSE_OK)
		return true;
	if (is_euler)
		fail_at(x, ANIMC_ERR_INVALID, k->line, 0,
			"the key of bone %d composed with its rest transform does not split into "
			"scale, rotation and translation: %s", k->bone, animc_decompose_result_string(result));
	else
		fail_at(x, ANIMC_ERR_INVALID, k->value_line, k->value_column,
			"<Transform>%s does not split into scale, rotation and translation: %s",
			o->relative_to_bind ? " composed with the bone's rest transform" : "",
			animc_decompose_result_string(result));
	return false;
}

/* A key's place in the split: by bone, then as written (the sort pass
 * orders times, warning). */
typedef struct key_ref {
	int32_t bone;
	uint32_t index;
} key_ref;

static int compare_key_refs(const void *pa, const void *pb)
{
	const key_ref *a = pa, *b = pb;

	if (a->bone != b->bone)
		return a->bone < b->bone ? -1 : 1;
	return (a->index > b->index) - (a->index < b->index);
}

/* The name of bone `bone`: the skeleton's, trimmed like the names of the
 * other importers (Grund.glb has " Footsteps"), else Bone<N>; numbered[24]
 * holds the latter. */
static const char *bone_name(const xna *x, int32_t bone, char *numbered, size_t *len)
{
	const animc_skeleton *skel = x->options->skeleton;
	const char *name = numbered;

	if (skel)
		name = skel->bones[bone].name;
	else
		snprintf(numbered, 24, "Bone%d", bone);
	*len = strlen(name);
	return animc_xs_trim(name, len);
}

/* A key by bone, time and place, for finding keys of one bone at one time. */
typedef struct timed_ref {
	int32_t bone;
	int64_t ticks;
	uint32_t index;
} timed_ref;

static int compare_timed_refs(const void *pa, const void *pb)
{
	const timed_ref *a = pa, *b = pb;

	if (a->bone != b->bone)
		return a->bone < b->bone ? -1 : 1;
	if (a->ticks != b->ticks)
		return a->ticks < b->ticks ? -1 : 1;
	return (a->index > b->index) - (a->index < b->index);
}

/*
 * Keyframes of one bone at one time: XNA's players apply a clip's keyframes
 * in order, so of those the last one written is what shows; the earlier
 * ones go from order[0..*n) (by bone, then as written), with a warning per
 * bone at the first of them, as the sort pass drops keys of one track at one
 * time.  False when out of memory (reported).
 */
static bool drop_shared_times(xna *x, const char *clip_name, key_ref *order, size_t *n, const animc_xml_element *el)
{
	timed_ref *timed = malloc(*n * sizeof *timed);
	bool *dropped = calloc(*n ? *n : 1, sizeof *dropped);
	size_t kept = 0;

	if (!timed || !dropped) {
		free(timed);
		free(dropped);
		nomem(x, el);
		return false;
	}
	for (size_t i = 0; i < *n; i++)
		timed[i] = (timed_ref){ order[i].bone, x->keys[order[i].index].ticks, order[i].index };
	qsort(timed, *n, sizeof *timed, compare_timed_refs);
	for (size_t i = 0; i + 1 < *n; i++)
		if (timed[i].bone == timed[i + 1].bone && timed[i].ticks == timed[i + 1].ticks)
			dropped[timed[i].index] = true;
	for (size_t i = 0, j; i < *n; i = j) {
		size_t count = 0, first = 0;

		for (j = i; j < *n && order[j].bone == order[i].bone; j++)
			if (dropped[order[j].index] && count++ == 0)
				first = order[j].index;
		if (count) {
			const keyframe *k = &x->keys[first];
			char numbered[24];
			size_t len;
			const char *bone = bone_name(x, k->bone, numbered, &len);

			animc_diag_report_kind(x->sink, ANIMC_WARNING, ANIMC_WARN_SHARED_KEY_TIME, k->time_line, k->time_column,
					  "clip '%s': bone '%.*s': %zu key%s shared a time with a later key; kept the "
					  "later value: export one key per time (a step is two keys a frame apart)",
					  clip_name, (int)len, bone, count, count == 1 ? "" : "s");
		}
	}
	for (size_t i = 0; i < *n; i++)
		if (!dropped[order[i].index])
			order[kept++] = order[i];
	*n = kept;
	free(timed);
	free(dropped);
	return true;
}

/* One channel for keys order[0..n) of one bone. */
static bool add_channel(xna *x, animc_clip *clip, const key_ref *order, uint32_t n)
{
	const keyframe *first = &x->keys[order[0].index];
	char numbered[24];
	size_t bone_len;
	const char *bone = bone_name(x, first->bone, numbered, &bone_len);
	animc_channel *ch;
	float *times, *values[ANIMC_TRACK_COUNT];
	int64_t index;

	index = animc_clip_add_channel(clip, bone, bone_len);
	times = animc_clip_alloc_floats(clip, n);
	for (int k = 0; k < ANIMC_TRACK_COUNT; k++)
		values[k] = animc_clip_alloc_values(clip, (animc_track_kind)k, n);
	if (index < 0 || !times || !values[0] || !values[1] || !values[2]) {
		fail_at(x, ANIMC_ERR_NOMEM, first->line, 0, "out of memory");
		return false;
	}
	ch = &clip->channels[index];
	/* Where the bone's first key is: the sort pass's warning points there. */
	ch->line = first->line;
	ch->key_count = n;
	ch->has_time = true;
	ch->times_s = times;
	ch->duration_s = clip->duration_s;
	for (int k = 0; k < ANIMC_TRACK_COUNT; k++) {
		ch->tracks[k].is_present = true;
		ch->tracks[k].value_count = n;
		ch->tracks[k].values = values[k];
	}
	for (uint32_t i = 0; i < n; i++) {
		const keyframe *key = &x->keys[order[i].index];

		times[i] = ticks_to_seconds(key->ticks);
		if (!key_values(x, key, &values[ANIMC_TRANSLATION][i * 3], &values[ANIMC_ROTATION][i * 4],
				&values[ANIMC_SCALE][i * 3]))
			return false;
	}
	return true;
}

/* The end of a dictionary entry: the clip of its Key and Value. */
static animc_xml_action end_entry(xna *x, const animc_xml_element *el)
{
	const char *prefix = dictionary_prefix[x->dictionary];
	size_t name_len = strlen(prefix) + strlen(x->key);
	char *name = malloc(name_len + 1);
	animc_clip *clip;
	key_ref *order = NULL;
	clip_info *info;
	size_t late = 0, first_late = 0;
	animc_status status;

	if (!name)
		return nomem(x, el);
	snprintf(name, name_len + 1, "%s%s", prefix, x->key);
	clip = animc_clip_create(name);
	free(name);
	if (!clip || !grow((void **)&x->infos, &x->info_capacity, x->info_count, sizeof *x->infos, 8)) {
		animc_clip_destroy(clip);
		return nomem(x, el);
	}
	clip->line = el->line;
	clip->duration_s = ticks_to_seconds(x->duration_ticks);
	info = &x->infos[x->info_count];
	memset(info, 0, sizeof *info);
	info->key_line = x->key_line;
	info->key_column = x->key_column;
	info->max_bone = -1;

	if (x->key_count > UINT32_MAX) {
		animc_clip_destroy(clip);
		return fail(x, ANIMC_ERR_LIMIT, el, "clip '%s' has more than %u keyframes", x->key, UINT32_MAX);
	}
	if (x->key_count) {
		order = malloc(x->key_count * sizeof *order);
		if (!order) {
			animc_clip_destroy(clip);
			return nomem(x, el);
		}
		for (size_t i = 0; i < x->key_count; i++)
			order[i] = (key_ref){ x->keys[i].bone, (uint32_t)i };
		qsort(order, x->key_count, sizeof *order, compare_key_refs);
	}
	size_t used = x->key_count;
	if (order && !drop_shared_times(x, clip->name, order, &used, el)) {
		free(order);
		animc_clip_destroy(clip);
		return ANIMC_XML_STOP;
	}
	for (size_t i = 0, j; i < used; i = j) {
		for (j = i + 1; j < used && order[j].bone == order[i].bone; j++)
			;
		if (!add_channel(x, clip, &order[i], (uint32_t)(j - i))) {
			free(order);
			animc_clip_destroy(clip);
			return ANIMC_XML_STOP;
		}
	}
	for (size_t i = 0; i < x->key_count; i++) {
		const keyframe *k = &x->keys[i];

		if (k->bone > info->max_bone) {
			info->max_bone = k->bone;
			info->bone_line = k->bone_line;
			info->bone_column = k->bone_column;
		}
		if (k->ticks > x->duration_ticks && late++ == 0)
			first_late = i;
	}
	free(order);
	if (late) {
		const keyframe *k = &x->keys[first_late];

		animc_diag_report_kind(x->sink, ANIMC_WARNING, ANIMC_WARN_KEYS_PAST_DURATION, k->time_line, k->time_column,
				  "clip '%s': %zu key%s past the clip's Duration (%g s), the first at %g s: "
				  "check the Duration or the key times",
				  clip->name, late, late == 1 ? " lies" : "s lie", (double)clip->duration_s,
				  (double)ticks_to_seconds(k->ticks));
	}
	if (x->key_count == 0)
		animc_diag_report_kind(x->sink, ANIMC_WARNING, ANIMC_WARN_EMPTY_CLIP, el->line, el->column,
				  "clip '%s' has no keyframes: it plays the rest pose; "
				  "re-export it or leave it out", clip->name);
	/* Every channel is the split's own: the count is the one it made. */
	clip->declared_channel_count = clip->channel_count;
	info->clip = x->out->count;
	status = animc_clip_set_add(x->out, clip);
	if (status != ANIMC_OK)
		return fail(x, status, el, "out of memory");
	info->dictionary = x->dictionary;
	info->raw_key = x->raw_key;
	x->raw_key = NULL;
	x->info_count++;
	return ANIMC_XML_CONTINUE;
}

/* The end of a keyframe: check it and keep it for its clip. */
static animc_xml_action end_keyframe(xna *x, const animc_xml_element *el)
{
	const animc_skeleton *skel = x->options->skeleton;
	keyframe *k = &x->key_now;

	if (skel && (uint32_t)k->bone >= skel->bone_count)
		return fail_at(x, ANIMC_ERR_INVALID, k->bone_line, k->bone_column,
			       "bone index %d is not in the skeleton (%u bones)", k->bone, skel->bone_count);
	if (!grow((void **)&x->keys, &x->key_capacity, x->key_count, sizeof *x->keys, 64))
		return nomem(x, el);
	x->keys[x->key_count++] = *k;
	return ANIMC_XML_CONTINUE;
}

/* ------------------------------------------------------------ elements */

static int find_rule(const xna *x, kind parent, const char *name)
{
	for (int i = 0; i < RULE_COUNT; i++) {
		const rule *r = &rules[i];

		if (r->parent == parent && (r->types & (1u << x->type)) &&
		    (!r->name || strcmp(r->name, name) == 0))
			return i;
	}
	return -1;
}

static const char *alias_uri(const xna *x, const animc_xml_element *el, const char *prefix)
{
	const char *uri = animc_xml_namespace(el, prefix);

	for (size_t i = 0; !uri && i < x->alias_count; i++)
		if (strcmp(x->aliases[i].prefix, prefix) == 0)
			uri = x->aliases[i].uri;
	return uri;
}

/* <Asset Type="...">: the full type name, through a namespace alias if one is used. */
static animc_xml_action start_asset(xna *x, const animc_xml_element *el)
{
	const char *type, *colon;
	size_t len;
	char full[512];

	if (x->asset_seen)
		return fail(x, ANIMC_ERR_PARSE, el, "a second <Asset>");
	x->asset_seen = true;
	x->asset_line = el->line;
	if (animc_xml_attribute_is_true(el, "Null", NULL))
		return fail(x, ANIMC_ERR_INVALID, el, "the <Asset> is Null");
	if (!animc_xml_attribute(el, "Type", NULL, &type, &len))
		return fail(x, ANIMC_ERR_PARSE, el, "<Asset> has no Type attribute");
	type = animc_xs_trim(type, &len);
	colon = memchr(type, ':', len);
	if (colon) {
		char prefix[256];
		size_t prefix_len = (size_t)(colon - type);
		const char *uri;

		if (prefix_len >= sizeof prefix) {
			snprintf(x->other_type, sizeof x->other_type, "%.*s", ANIMC_XML_QUOTE_LEN(len), type);
			return stop(x, ANIMC_ERR_NOT_FOUND);
		}
		memcpy(prefix, type, prefix_len);
		prefix[prefix_len] = '\0';
		uri = alias_uri(x, el, prefix);
		if (!uri)
			return fail(x, ANIMC_ERR_PARSE, el,
				    "Type '%.*s' uses the alias '%s', which no xmlns:%s declares",
				    ANIMC_XML_QUOTE_LEN(len), type, prefix, prefix);
		/* The alias stands for a CLR namespace: Alias:Name is Namespace.Name. */
		snprintf(full, sizeof full, "%s.%.*s", uri, (int)(len - prefix_len - 1), colon + 1);
	} else {
		snprintf(full, sizeof full, "%.*s", (int)(len < sizeof full ? len : sizeof full - 1), type);
	}
	for (int t = A_NONE + 1; t < A_COUNT; t++)
		if (strcmp(full, asset_names[t]) == 0)
			x->type = (asset_type)t;
	/* A Content folder holds fonts, game data, clip-split definitions...:
	 * not animation, as a texture is not (the caller skips or refuses). */
	if (x->type == A_NONE) {
		snprintf(x->other_type, sizeof x->other_type, "%.150s", full);
		return stop(x, ANIMC_ERR_NOT_FOUND);
	}
	if (x->type == A_SEQUENCE) {
		x->seq_clip = animc_clip_create("");
		if (!x->seq_clip)
			return nomem(x, el);
		x->seq_clip->line = el->line;
		x->seq_clip->is_sequence_source = true;
	}
	return ANIMC_XML_CONTINUE;
}

static animc_xml_action start_root(xna *x, const animc_xml_element *el)
{
	if (strcmp(el->name, "XnaContent") != 0)
		return fail(x, ANIMC_ERR_PARSE, el, "the root element is <%s>, not <XnaContent>", el->name);
	if (el->uri)
		return fail(x, ANIMC_ERR_PARSE, el, "the root element <XnaContent> is in the namespace '%s'; "
			    "XNA's IntermediateSerializer reads it in none (remove the xmlns)", el->uri);
	x->root_line = el->line;
	/* The aliases Type attributes may use; libxml2's arrays last only this call. */
	for (int i = 0; i < el->namespace_count; i++) {
		const char *prefix = el->namespaces[i * 2], *uri = el->namespaces[i * 2 + 1];
		char *p, *u;

		if (!prefix || !uri)
			continue;
		p = strdup(prefix);
		u = strdup(uri);
		if (!p || !u) {
			free(p);
			free(u);
			return nomem(x, el);
		}
		if (!grow((void **)&x->aliases, &x->alias_capacity, x->alias_count, sizeof *x->aliases, 8)) {
			free(p);
			free(u);
			return nomem(x, el);
		}
		x->aliases[x->alias_count++] = (alias){ p, u };
	}
	x->stack[0] = (frame){ .kind = K_ROOT, .name = el->name, .line = el->line, .column = el->column };
	return ANIMC_XML_CONTINUE;
}

/* An element Null="true": empty where the member allows it, else an error.
 * Its content is skipped. */
static animc_xml_action start_null(xna *x, const animc_xml_element *el, const rule *r)
{
	if (!r->may_be_null)
		return fail(x, ANIMC_ERR_INVALID, el, "<%s> is Null; it needs a value", el->name);
	switch (r->kind) {
	case K_SEQ_LIST:
		x->seq.list_line[r->index] = el->line;
		x->seq.list_column[r->index] = el->column;
		x->seq.lists[r->index].count = 0;
		break;
	default:
		/* Dictionaries, lists of keyframes, sequences, matrices: none. */
		break;
	}
	x->stack[el->depth] = (frame){ .kind = K_NULL, .name = el->name, .line = el->line, .column = el->column };
	return ANIMC_XML_CONTINUE;
}

/* What an element Null="true" holds: IntermediateSerializer reads the
 * member as null and skips the element whole, and so does animc, saying
 * so once. */
static void warn_null_content(xna *x, frame *f)
{
	if (f->seen)
		return;
	f->seen = 1;
	animc_diag_report_kind(x->sink, ANIMC_WARNING, ANIMC_WARN_NIL_CONTENT, f->line, f->column,
			       "<%s> is Null=\"true\" (none), and what it holds is ignored: remove Null, "
			       "or the content", f->name);
}

static animc_xml_action on_start(void *user, const animc_xml_element *el)
{
	xna *x = user;
	frame *parent, *f;
	const rule *r;
	int i;

	if (el->depth == 0)
		return start_root(x, el);
	parent = &x->stack[el->depth - 1];
	if (parent->kind == K_NULL) {
		warn_null_content(x, parent);
		return ANIMC_XML_SKIP;
	}
	if (parent->kind == K_ROOT && strcmp(el->name, "Asset") == 0) {
		if (start_asset(x, el) == ANIMC_XML_STOP)
			return ANIMC_XML_STOP;
		x->stack[1] = (frame){ .kind = K_ASSET, .name = el->name, .line = el->line,
				       .column = el->column };
		return ANIMC_XML_CONTINUE;
	}
	i = parent->kind == K_ROOT ? -1 : find_rule(x, parent->kind, el->name);
	if (i < 0 && parent->kind == K_ROOT && strcmp(el->name, "Resources") == 0) {
		animc_diag_report_kind(x->sink, ANIMC_WARNING, ANIMC_WARN_UNKNOWN_ELEMENT, el->line, el->column,
				       "<Resources> ignored: animc does not read IntermediateSerializer's shared "
				       "resources, and no member it reads may refer to one");
		return ANIMC_XML_SKIP;
	}
	if (i < 0) {
		animc_diag_report_kind(x->sink, ANIMC_WARNING, ANIMC_WARN_UNKNOWN_ELEMENT, el->line, el->column,
				  "unknown element <%s> in <%s> ignored: check its "
				  "spelling (names are case-sensitive)", el->name, parent->name);
		return ANIMC_XML_SKIP;
	}
	r = &rules[i];
	if (r->name) {
		if (parent->seen & ((uint64_t)1 << i))
			return fail(x, ANIMC_ERR_PARSE, el, "a second <%s> in <%s>", el->name, parent->name);
		parent->seen |= (uint64_t)1 << i;
	} else if (!parent->item_name) {
		parent->item_name = el->name;
	} else if (strcmp(parent->item_name, el->name) != 0) {
		/* IntermediateSerializer names every item of a collection alike. */
		return fail(x, ANIMC_ERR_PARSE, el, "an item <%s> in <%s>, whose items are <%s>", el->name,
			    parent->name, parent->item_name);
	}
	if (animc_xml_attribute_is_true(el, "Null", NULL))
		return start_null(x, el, r);
	f = &x->stack[el->depth];
	*f = (frame){ .kind = r->kind, .rule = i, .name = el->name, .line = el->line, .column = el->column };
	switch (r->kind) {
	case K_CLIPS:
		x->dictionary = r->index;
		break;
	case K_ENTRY:
		free(x->key);
		free(x->raw_key);
		x->key = x->raw_key = NULL;
		x->key_count = 0;
		x->duration_ticks = 0;
		break;
	case K_KEYFRAME:
		memset(&x->key_now, 0, sizeof x->key_now);
		x->key_now.line = el->line;
		break;
	case K_MATRICES:
	case K_HIERARCHY:
	case K_SEQ_LIST:
		x->numbers.count = 0;
		x->int_count = 0;
		if (r->kind == K_SEQ_LIST) {
			x->seq.list_line[r->index] = el->line;
			x->seq.list_column[r->index] = el->column;
		}
		break;
	case K_SEQUENCE:
		animc_rg_sequence_begin(&x->seq, el->line);
		break;
	default:
		break;
	}
	return ANIMC_XML_CONTINUE;
}

/* Members a container must have, as IntermediateSerializer requires them. */
static animc_xml_action check_required(xna *x, const frame *f)
{
	for (int i = 0; i < RULE_COUNT; i++) {
		const rule *r = &rules[i];

		if (r->parent == f->kind && r->is_required && (r->types & (1u << x->type)) &&
		    !(f->seen & ((uint64_t)1 << i)))
			return fail_at(x, ANIMC_ERR_INVALID, f->line, f->column, "<%s> has no <%s>", f->name,
				       r->name);
	}
	return ANIMC_XML_CONTINUE;
}

static bool is_container(kind k)
{
	switch (k) {
	case K_ROOT:
	case K_ASSET:
	case K_CLIPS:
	case K_ENTRY:
	case K_VALUE:
	case K_KEYFRAMES:
	case K_KEYFRAME:
	case K_SEQUENCES:
	case K_SEQUENCE:
		return true;
	default:
		return false;
	}
}

/* Numbers per item of a number list: a matrix, an int, a vector or a float. */
static size_t item_width(const rule *r)
{
	if (r->kind == K_MATRICES)
		return 16;
	return r->kind == K_HIERARCHY ? 1 : xnb_list_width[r->index];
}

/* A member written as a reference to a shared resource ("#Resource1",
 * IntermediateSerializer's form for a SharedResource member, whose value
 * lies in <Resources> at the end of the document): refused, saying so.
 * False when the text is no such reference. */
static bool is_resource_reference(xna *x, const animc_xml_element *el, const char *text, size_t len)
{
	size_t n = len;
	const char *t = animc_xs_trim(text, &n);

	if (n < 2 || t[0] != '#')
		return false;
	fail(x, ANIMC_ERR_UNSUPPORTED, el,
	     "<%s> refers to the shared resource '%.*s': animc does not read IntermediateSerializer's shared "
	     "resources (<Resources>); write the value in place of the reference", el->name,
	     ANIMC_XML_QUOTE_LEN(n), t);
	return true;
}

/* The end of a number list written whole or item by item. */
static animc_xml_action end_list(xna *x, const animc_xml_element *el, const frame *f,
				 const char *text, size_t len)
{
	const rule *r = &rules[f->rule];
	size_t added, width = item_width(r);
	size_t count;

	if (f->item_name) {
		size_t n = len;

		animc_xs_trim(text, &n);
		if (n)
			return fail(x, ANIMC_ERR_PARSE, el, "text mixed with elements inside <%s>", el->name);
	}
	if (!f->item_name && is_resource_reference(x, el, text, len))
		return ANIMC_XML_STOP;
	if (!parse_list(x, el, text, len, r, &added))
		return ANIMC_XML_STOP;
	count = r->kind == K_HIERARCHY ? x->int_count : x->numbers.count;
	if (count % width)
		return fail(x, ANIMC_ERR_PARSE, el, "<%s> has %zu numbers, not a multiple of %zu", el->name,
			    count, width);
	switch (r->kind) {
	case K_MATRICES:
		for (size_t i = 0; i < count; i++)
			if (!isfinite(x->numbers.v[i]))
				return fail(x, ANIMC_ERR_INVALID, el, "matrix %zu of <%s> is not finite",
					    i / 16, el->name);
		x->has_matrices[r->index] = true;
		x->matrix_count[r->index] = count / 16;
		x->matrices_line[r->index] = el->line;
		x->matrices_column[r->index] = el->column;
		break;
	case K_HIERARCHY:
		/* Parents come before their children; -1 marks a root. */
		for (size_t i = 0; i < count; i++)
			if (x->ints[i] < -1 || (x->ints[i] >= 0 && (size_t)x->ints[i] >= i))
				return fail(x, ANIMC_ERR_INVALID, el,
					    "<%s>: bone %zu has parent %d; a parent must be -1 or a bone before it",
					    el->name, i, x->ints[i]);
		free(x->hierarchy);
		x->hierarchy = x->ints;
		x->hierarchy_count = count;
		x->ints = NULL;
		x->int_count = x->int_capacity = 0;
		x->has_hierarchy = true;
		x->hierarchy_line = el->line;
		x->hierarchy_column = el->column;
		break;
	default: {
		animc_rg_floats *dst = &x->seq.lists[r->index];

		/* Swap buffers: the list keeps what was read, `numbers` gets the old one. */
		animc_rg_floats tmp = *dst;
		*dst = x->numbers;
		x->numbers = tmp;
		x->numbers.count = 0;
		break;
	}
	}
	return ANIMC_XML_CONTINUE;
}

/* An item of a number list written item by item: one value of the list's width. */
static animc_xml_action end_list_item(xna *x, const animc_xml_element *el, const frame *list,
				      const char *text, size_t len)
{
	const rule *r = &rules[list->rule];
	size_t added, width = item_width(r);

	if (!parse_list(x, el, text, len, r, &added))
		return ANIMC_XML_STOP;
	if (added != width)
		return fail(x, ANIMC_ERR_PARSE, el, "<%s> in <%s> has %zu number%s; it needs %zu", el->name,
			    list->name, added, added == 1 ? "" : "s", width);
	return ANIMC_XML_CONTINUE;
}

static animc_xml_action end_leaf(xna *x, const animc_xml_element *el, const frame *f,
				 const char *text, size_t len)
{
	const rule *r = &rules[f->rule];
	keyframe *k = &x->key_now;
	animc_status status;

	switch (f->kind) {
	case K_KEY:
		free(x->key);
		free(x->raw_key);
		x->raw_key = NULL;
		x->key = trimmed_copy(text, len);
		if (!x->key)
			return nomem(x, el);
		/* XNA's Dictionary tells " Walk" from "Walk": kept for finding
		 * one Key given twice (name_clips). */
		if (strlen(x->key) != len && (x->raw_key = strndup(text, len)) == NULL)
			return nomem(x, el);
		/* The Key is the name the game loads the clip by, and its file's
		 * name: a clip without one would be written under a made-up name
		 * that another clip may carry. */
		if (!x->key[0])
			return fail(x, ANIMC_ERR_INVALID, el,
				    "<%s> is empty: a clip's Key is the name the game loads it by; "
				    "give the clip its name", el->name);
		x->key_line = el->line;
		x->key_column = el->column;
		break;
	case K_CLIP_DURATION:
		if (!parse_time(x, el, text, len, &x->duration_ticks))
			return ANIMC_XML_STOP;
		break;
	case K_KF_BONE:
		if (!animc_xml_leaf_int(el, text, len, &k->bone, x->sink))
			return stop(x, ANIMC_ERR_PARSE);
		if (k->bone < 0)
			return fail(x, ANIMC_ERR_INVALID, el, "bone index %d is below 0", k->bone);
		k->bone_line = el->line;
		k->bone_column = el->column;
		break;
	case K_KF_TIME:
		if (!parse_time(x, el, text, len, &k->ticks))
			return ANIMC_XML_STOP;
		k->time_line = el->line;
		k->time_column = el->column;
		break;
	case K_KF_VECTOR:
		if (!parse_vector(x, el, text, len, &k->v[r->index * 3], 3))
			return ANIMC_XML_STOP;
		/* Caught here, where the value is, rather than in the channel it lands in. */
		for (int i = 0; i < 3; i++)
			if (!isfinite(k->v[r->index * 3 + i]))
				return fail(x, ANIMC_ERR_INVALID, el, "<%s> holds a number that is not finite",
					    el->name);
		break;
	case K_KF_TRANSFORM:
		if (!parse_vector(x, el, text, len, k->v, 16))
			return ANIMC_XML_STOP;
		k->value_line = el->line;
		k->value_column = el->column;
		break;
	case K_SEQ_COUNT: {
		int32_t v;

		if (!animc_xml_leaf_int(el, text, len, &v, x->sink))
			return stop(x, ANIMC_ERR_PARSE);
		x->seq_clip->declared_channel_count = v;
		x->seq_count_seen = true;
		break;
	}
	case K_SEQ_DURATION:
		status = animc_rg_clip_duration(el, text, len, &x->seq_clip->duration_s, x->sink);
		if (status != ANIMC_OK)
			return stop(x, status);
		break;
	case K_SEQ_MEMBER:
		status = animc_rg_sequence_member(&x->seq, (animc_rg_member)r->index, el, text, len,
						  x->sink);
		if (status != ANIMC_OK)
			return stop(x, status);
		break;
	default:
		break;
	}
	return ANIMC_XML_CONTINUE;
}

static animc_xml_action on_end(void *user, const animc_xml_element *el, const char *text,
			       size_t len, bool stray)
{
	xna *x = user;
	frame *f = &x->stack[el->depth];

	if (f->kind == K_NULL) {
		size_t n = len;

		animc_xs_trim(text, &n);
		if (stray || n)
			warn_null_content(x, f);
		return ANIMC_XML_CONTINUE;
	}
	if (stray)
		return fail(x, ANIMC_ERR_PARSE, el, "text mixed with elements inside <%s>", el->name);
	if (is_container(f->kind)) {
		size_t n = len;

		animc_xs_trim(text, &n);
		if (n && is_resource_reference(x, el, text, len))
			return ANIMC_XML_STOP;
		if (n)
			return fail(x, ANIMC_ERR_PARSE, el, "unexpected text inside <%s>", el->name);
		if (check_required(x, f) == ANIMC_XML_STOP)
			return ANIMC_XML_STOP;
	}
	switch (f->kind) {
	case K_ENTRY:
		return end_entry(x, el);
	case K_KEYFRAME:
		return end_keyframe(x, el);
	case K_SEQUENCE: {
		animc_status status = animc_rg_sequence_end(&x->seq, x->seq_clip, el, x->sink);

		return status == ANIMC_OK ? ANIMC_XML_CONTINUE : stop(x, status);
	}
	case K_MATRICES:
	case K_HIERARCHY:
	case K_SEQ_LIST:
		return end_list(x, el, f, text, len);
	case K_LIST_ITEM:
		return end_list_item(x, el, &x->stack[el->depth - 1], text, len);
	default:
		return is_container(f->kind) ? ANIMC_XML_CONTINUE : end_leaf(x, el, f, text, len);
	}
}

/* ------------------------------------------------------- whole document */

/* A clip's name and its Key, for finding names given twice. */
typedef struct name_ref {
	const char *name;
	const char *key;    /* as written */
	int dictionary;
	bool is_made;       /* the name is not the Key as written: trimmed, or root.<Key> */
	size_t order;       /* in x->infos */
} name_ref;

static int compare_order(const name_ref *a, const name_ref *b)
{
	return (a->order > b->order) - (a->order < b->order);
}

/* By name, dictionary and Key as written: one Key twice in a dictionary are neighbours. */
static int compare_keys(const void *pa, const void *pb)
{
	const name_ref *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);

	if (!c)
		c = (a->dictionary > b->dictionary) - (a->dictionary < b->dictionary);
	if (!c)
		c = strcmp(a->key, b->key);
	return c ? c : compare_order(a, b);
}

/* By name; of one name, the clips whose Key is that name as written
 * first, then the others, each as written. */
static int compare_owners(const void *pa, const void *pb)
{
	const name_ref *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);

	if (!c)
		c = (int)a->is_made - (int)b->is_made;
	return c ? c : compare_order(a, b);
}

/* refs are in name order; a name_ref begins with its name. */
static int compare_name_key(const void *key, const void *ref)
{
	return strcmp(key, *(const char *const *)ref);
}

static bool name_taken(const name_ref *refs, size_t n, const char *name)
{
	return bsearch(name, refs, n, sizeof *refs, compare_name_key) != NULL;
}

/*
 * The clips of each run refs[g..end) of one name after the first are named
 * NAME.1, NAME.2, ... (past any name a clip has), with one warning at the
 * first one's Key.  refs keep the names as they were (the clips' arenas
 * keep the strings), so a new name is checked against those: one can only
 * meet a name the document gave, never another new one.
 */
static animc_status rename_clashes(xna *x, const name_ref *refs, size_t n)
{
	for (size_t g = 0, end; g < n; g = end) {
		const char *base = refs[g].name;
		size_t base_len = strlen(base), used;
		unsigned suffix = 0;
		char list[512];

		for (end = g + 1; end < n && strcmp(refs[end].name, base) == 0; end++)
			;
		if (end - g < 2)
			continue;
		used = (size_t)snprintf(list, sizeof list, "'%s'", base);
		for (size_t m = g + 1; m < end; m++) {
			animc_clip *clip = x->out->clips[x->infos[refs[m].order].clip];
			char *name = malloc(base_len + 16);

			if (!name)
				return ANIMC_ERR_NOMEM;
			do
				snprintf(name, base_len + 16, "%s.%u", base, ++suffix);
			while (name_taken(refs, n, name));
			clip->name = animc_arena_strndup(&clip->arena, name, strlen(name));
			if (clip->name && used < sizeof list)
				used += (size_t)snprintf(list + used, sizeof list - used,
							 m + 1 < end ? ", '%s'" : " and '%s'", name);
			free(name);
			if (!clip->name)
				return ANIMC_ERR_NOMEM;
		}
		if (used >= sizeof list)
			memcpy(list + sizeof list - 5, "...", 4);
		const clip_info *info = &x->infos[refs[g + 1].order];
		animc_diag_report_kind(x->sink, ANIMC_WARNING, ANIMC_WARN_CLIP_NAME_CLASH, info->key_line,
				       info->key_column,
				       "%zu clips are named '%s' (animc trims each Key and names a root clip "
				       "root.<Key>); named them %s: give each clip its own name to choose the "
				       "file names", end - g, base, list);
	}
	return ANIMC_OK;
}

/*
 * Clip names given twice.  One Key twice in one dictionary is an error, as
 * XNA's Dictionary refuses it.  Clips whose names meet only as animc makes
 * them (Keys alike once trimmed, a root clip's root.<Key> and a model clip
 * of that Key) are distinct clips to XNA: renamed, a clip whose Key is its
 * name as written keeping it, so the name a game loads a clip by is never
 * taken by one whose name animc made.
 */
static animc_status name_clips(xna *x)
{
	size_t n = x->info_count;
	name_ref *refs;
	animc_status status = ANIMC_OK;

	if (n < 2)
		return ANIMC_OK;
	refs = malloc(n * sizeof *refs);
	if (!refs)
		return ANIMC_ERR_NOMEM;
	for (size_t i = 0; i < n; i++) {
		const clip_info *info = &x->infos[i];
		const char *name = x->out->clips[info->clip]->name;
		const char *key = info->raw_key ? info->raw_key
						: name + strlen(dictionary_prefix[info->dictionary]);

		refs[i] = (name_ref){ name, key, info->dictionary, info->raw_key || info->dictionary, i };
	}
	qsort(refs, n, sizeof *refs, compare_keys);
	for (size_t i = 1; i < n; i++) {
		const name_ref *a = &refs[i - 1], *b = &refs[i];

		if (a->dictionary == b->dictionary && strcmp(a->key, b->key) == 0 && strcmp(a->name, b->name) == 0) {
			const clip_info *info = &x->infos[b->order];

			animc_diag_report(x->sink, ANIMC_ERROR, info->key_line, info->key_column,
					  "a second clip named '%s': a dictionary holds each Key once", b->name);
			status = ANIMC_ERR_INVALID;
		}
	}
	if (status == ANIMC_OK) {
		qsort(refs, n, sizeof *refs, compare_owners);
		status = rename_clashes(x, refs, n);
	}
	free(refs);
	return status;
}

/* Without --skeleton, the bones the keys number are named Bone<N>, which
 * no model's bone is: a game binding the clips by bone name (RobotGame's
 * AnimationBinder, animrt's binding) moves nothing.  Said once per source,
 * at the first clip's first bone. */
static void warn_numbered_bones(xna *x)
{
	if (x->options->skeleton)
		return;
	for (size_t i = 0; i < x->out->count; i++) {
		const animc_clip *clip = x->out->clips[i];

		if (!clip->channel_count)
			continue;
		animc_diag_report_kind(x->sink, ANIMC_WARNING, ANIMC_WARN_NUMBERED_BONES, clip->channels[0].line, 0,
				       "clip '%s': bones are given by number and no --skeleton names them, so "
				       "their sequences are named Bone<N> ('%s'), which a game binding clips by "
				       "bone name finds on no model: give --skeleton MODEL, the model the clips animate",
				       clip->name, clip->channels[0].bone);
		return;
	}
}

/* Checks that need the whole document: clip names, bone indices against the
 * model members, the AnimationSequence's root fields. */
static animc_status finish(xna *x)
{
	animc_status status = ANIMC_OK;

	if (!x->asset_seen) {
		animc_diag_report(x->sink, ANIMC_ERROR, x->root_line, 0, "no <Asset> in <XnaContent>");
		return ANIMC_ERR_PARSE;
	}
	if (x->type == A_SEQUENCE) {
		if (!x->seq_count_seen)
			animc_diag_report_kind(x->sink, ANIMC_WARNING, ANIMC_WARN_MISSING_SEQUENCE_COUNT, x->asset_line, 0,
					  "<Asset> has no <KeyFrameSequenceCount>; wrote the "
					  "number of sequences: add the element, which the original pipeline needs");
		x->out->is_single_asset = true;
		status = animc_clip_set_add(x->out, x->seq_clip);
		x->seq_clip = NULL;
		return status;
	}
	status = name_clips(x);
	if (status == ANIMC_ERR_NOMEM)
		return status;
	/* BindPose, InverseBindPose and SkeletonHierarchy describe one skeleton. */
	for (int m = 0; m < 2; m++) {
		static const char *const names[2] = { "BindPose", "InverseBindPose" };

		if (x->has_matrices[m] && x->has_hierarchy && x->matrix_count[m] != x->hierarchy_count) {
			animc_diag_report(x->sink, ANIMC_ERROR, x->matrices_line[m], x->matrices_column[m],
					  "<%s> has %zu matrices but <SkeletonHierarchy> has %zu bones",
					  names[m], x->matrix_count[m], x->hierarchy_count);
			status = ANIMC_ERR_INVALID;
		}
	}
	if (x->has_matrices[0] && x->has_matrices[1] && x->matrix_count[0] != x->matrix_count[1]) {
		animc_diag_report(x->sink, ANIMC_ERROR, x->matrices_line[1], x->matrices_column[1],
				  "<InverseBindPose> has %zu matrices but <BindPose> has %zu",
				  x->matrix_count[1], x->matrix_count[0]);
		status = ANIMC_ERR_INVALID;
	}
	if (x->has_hierarchy || x->has_matrices[0] || x->has_matrices[1]) {
		size_t bones = x->has_hierarchy ? x->hierarchy_count
						: x->matrix_count[x->has_matrices[0] ? 0 : 1];

		for (size_t i = 0; i < x->info_count; i++) {
			const clip_info *info = &x->infos[i];

			if (info->max_bone >= 0 && (size_t)info->max_bone >= bones) {
				animc_diag_report(x->sink, ANIMC_ERROR, info->bone_line, info->bone_column,
						  "clip '%s': bone index %d is not in the asset's skeleton (%zu bones)",
						  x->out->clips[info->clip]->name, info->max_bone, bones);
				status = ANIMC_ERR_INVALID;
			}
		}
	}
	/* The model given with --skeleton should be the one the asset describes. */
	if (status == ANIMC_OK && x->has_hierarchy && x->options->skeleton) {
		const animc_skeleton *skel = x->options->skeleton;

		for (size_t i = 0; i < x->hierarchy_count && i < skel->bone_count; i++) {
			if (skel->bones[i].parent != x->hierarchy[i]) {
				animc_diag_report_kind(x->sink, ANIMC_WARNING, ANIMC_WARN_SKELETON_MISMATCH, x->hierarchy_line, x->hierarchy_column,
						  "<SkeletonHierarchy> gives bone %zu the parent %d, the model %d: "
						  "the bone names may not be the ones the clips mean: "
						  "check that --skeleton is this asset's model",
						  i, x->hierarchy[i], skel->bones[i].parent);
				break;
			}
		}
	}
	if (status == ANIMC_OK)
		warn_numbered_bones(x);
	if (status == ANIMC_OK && x->info_count == 0)
		return ANIMC_ERR_NOT_FOUND;
	return status;
}

static void release(xna *x)
{
	for (size_t i = 0; i < x->alias_count; i++) {
		free(x->aliases[i].prefix);
		free(x->aliases[i].uri);
	}
	free(x->aliases);
	free(x->numbers.v);
	free(x->ints);
	free(x->key);
	free(x->raw_key);
	free(x->keys);
	for (size_t i = 0; i < x->info_count; i++)
		free(x->infos[i].raw_key);
	free(x->infos);
	free(x->hierarchy);
	animc_rg_sequence_release(&x->seq);
	animc_clip_destroy(x->seq_clip);
}

static animc_status import_xna(const animc_import_request *req, animc_clip_set *out,
			       animc_diag_sink *sink)
{
	static const animc_xml_handler handler = { on_start, on_end };
	static const animc_import_options defaults;
	xna x;
	animc_status status;

	memset(&x, 0, sizeof x);
	x.options = req->options ? req->options : &defaults;
	x.sink = sink;
	x.out = out;
	if (x.options->relative_to_bind && !x.options->skeleton) {
		animc_diag_report(sink, ANIMC_ERROR, 0, 0,
				  "keys relative to the bind pose need the model's rest transforms (a skeleton)");
		return ANIMC_ERR_ARGUMENT;
	}
	status = animc_xml_parse(req->data, req->size, MAX_DEPTH, &handler, &x, sink);
	if (x.status != ANIMC_OK)
		status = x.status;
	if (status == ANIMC_OK)
		status = finish(&x);
	release(&x);
	if (status != ANIMC_OK) {
		/* Nothing of a source that failed is compiled. */
		animc_clip_set_release(out);
		memset(out, 0, sizeof *out);
	}
	if (status == ANIMC_ERR_NOT_FOUND && x.other_type[0])
		snprintf(out->holds, sizeof out->holds,
			 "an XnaContent asset of type '%s', not an animation type animc compiles",
			 x.other_type);
	return status;
}

/* Whether `path` ends in .xml, any case. */
static bool is_xml_named(const char *path)
{
	size_t n = path ? strlen(path) : 0;

	return n > 4 && strcasecmp(path + n - 4, ".xml") == 0;
}

/* Whether the `size` bytes at `p` are all XML white space. */
static bool is_space_only(const uint8_t *p, size_t size)
{
	for (size_t i = 0; i < size; i++)
		if (!animc_xml_is_space((char)p[i]))
			return false;
	return true;
}

static animc_probe probe_xna(const char *path, const uint8_t *head, size_t size)
{
	char root[64];

	if (animc_xml_root_name(head, size, root, sizeof root))
		return strcmp(root, "XnaContent") == 0 ? ANIMC_PROBE_CONTENT : ANIMC_PROBE_NO;
	/* XML whose root starts past the probe head (a comment of more than
	 * ANIMC_PROBE_HEAD_MAX_BYTES before it, or white space filling the
	 * head, which the head does not grow for): no probe can tell, and such
	 * an .xml file was refused, or skipped in a folder without a word.  It
	 * is read here by its name, and its root said. */
	if (!is_xml_named(path))
		return ANIMC_PROBE_NO;
	if (size >= ANIMC_PROBE_HEAD_MAX_BYTES && animc_xml_root_is_cut(head, size))
		return ANIMC_PROBE_EXTENSION;
	return size >= ANIMC_PROBE_HEAD_BYTES && is_space_only(head, size) ? ANIMC_PROBE_EXTENSION : ANIMC_PROBE_NO;
}

const animc_importer animc_importer_xna = {
	.name = "xna",
	.description = "XNA IntermediateSerializer XML (<XnaContent>)",
	.probe = probe_xna,
	.import = import_xna,
};
