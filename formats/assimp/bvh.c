/*
 * bvh.c - a BVH file read from its own bytes, as Assimp 5.2's BVHLoader
 * reads it (its tokens, its grammar, its joints in order), for what that
 * reader loses: the position channels of a joint of other than 6 channels,
 * the line of a value that is not a number, the file's line of an error.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bvh.h"

/* One token as Assimp reads it, with its line in the file (LF, CR LF or a
 * lone CR end one) and as Assimp counts them (LF only). */
typedef struct bvh_token {
	const char *text;
	size_t len;
	uint32_t line, assimp_line;
} bvh_token;

typedef struct bvh_lexer {
	const uint8_t *p, *end;
	uint32_t line, assimp_line;
} bvh_lexer;

typedef struct bvh_joint {
	bvh_token name;
	uint32_t channel_count;
	uint64_t first_value;   /* its first value's place in a frame */
	int64_t position[3];    /* its Xposition, Yposition, Zposition channel (the last named), -1 for none */
} bvh_joint;

/* A channel of the hierarchy: its joint and its name. */
typedef struct bvh_channel {
	uint32_t joint;
	const char *name;
} bvh_channel;

/* How far a read got: to the first motion value, to a token Assimp stops
 * at (left for Assimp to say), to a value said to be no number, or out of
 * memory. */
typedef enum bvh_result { BVH_READ, BVH_STOP, BVH_BAD, BVH_NOMEM } bvh_result;

typedef struct bvh_file {
	bvh_lexer lx;
	animc_diag_sink *sink;  /* NULL: values read as Assimp reads them, without a word */
	bvh_joint *joints;      /* Assimp's nodes with channels, in its order */
	uint32_t joint_count, joint_capacity;
	uint32_t *open;         /* the joints whose block is open, innermost last */
	uint32_t open_count, open_capacity;
	bool is_in_end_site;
	bvh_channel *channels;  /* in the file's order */
	uint64_t channel_count, channel_capacity;
	uint64_t values_per_frame;
	uint32_t frames;        /* as Assimp reads Frames: */
	bvh_token stop;         /* the token Assimp stops at (BVH_STOP) */
} bvh_file;

/* isspace() in the C locale, Assimp's separator. */
static bool is_space(uint8_t c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/* The next token (empty at the end of the file): a run of bytes that are
 * not space, a brace that opens one alone. */
static bool lex(bvh_lexer *lx, bvh_token *t)
{
	const uint8_t *p = lx->p;

	for (; p < lx->end && is_space(*p); p++) {
		lx->line += *p == '\n' || (*p == '\r' && (p + 1 == lx->end || p[1] != '\n'));
		lx->assimp_line += *p == '\n';
	}
	t->text = (const char *)p;
	t->line = lx->line;
	t->assimp_line = lx->assimp_line;
	if (p < lx->end && (*p == '{' || *p == '}'))
		p++;
	else
		while (p < lx->end && !is_space(*p))
			p++;
	t->len = (size_t)(p - (const uint8_t *)t->text);
	lx->p = p;
	return t->len > 0;
}

static bool is(const bvh_token *t, const char *word)
{
	return t->len == strlen(word) && memcmp(t->text, word, t->len) == 0;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The end of the digits from c. */
static const char *digits(const char *c, const char *end)
{
	while (c < end && is_digit(*c))
		c++;
	return c;
}

/*
 * Whether Assimp reads token `t` as a number (fast_atoreal_move, all of
 * the token): a sign, then nan, inf or infinity, or digits with a
 * fraction after a point or a comma (`1,5` is 1.5), and an exponent.
 * Its value in *out, as a float, which is what Assimp keeps (NaN or
 * infinite for those words, or a number past a float's range).
 */
static bool bvh_number(const bvh_token *t, double *out)
{
	const char *c = t->text, *end = c + t->len, *at;
	char buf[64], *copy;
	size_t rest;

	c += c < end && (*c == '-' || *c == '+');
	rest = (size_t)(end - c);
	if ((rest == 3 && strncasecmp(c, "nan", 3) == 0) || (rest == 3 && strncasecmp(c, "inf", 3) == 0) ||
	    (rest == 8 && strncasecmp(c, "infinity", 8) == 0)) {
		*out = strncasecmp(c, "nan", 3) == 0 ? NAN : t->text[0] == '-' ? -INFINITY : INFINITY;
		return true;
	}
	at = digits(c, end);
	if (at < end && (*at == '.' || *at == ',') && at + 1 < end && is_digit(at[1]))
		at = digits(at + 1, end);
	else if (at > c && at < end && *at == '.')
		at++;
	else if (at == c)
		return false;
	if (at < end && (*at == 'e' || *at == 'E')) {
		at += at + 1 < end && (at[1] == '-' || at[1] == '+');
		if (at + 1 == end || !is_digit(at[1]))
			return false;
		at = digits(at + 1, end);
	}
	if (at != end)
		return false;
	copy = t->len < sizeof buf ? buf : malloc(t->len + 1);
	if (!copy) {
		*out = NAN;
		return true;
	}
	for (size_t i = 0; i < t->len; i++)
		copy[i] = t->text[i] == ',' ? '.' : t->text[i];
	copy[t->len] = '\0';
	*out = (float)strtod(copy, NULL);
	if (copy != buf)
		free(copy);
	return true;
}

static bvh_result stop(bvh_file *f, const bvh_token *t)
{
	f->stop = *t;
	return BVH_STOP;
}

/* The name of joint `j`, for a message. */
#define JOINT_NAME(f, j) (int)((f)->joints[j].name.len > 64 ? 64 : (f)->joints[j].name.len), (f)->joints[j].name.text

/*
 * A number Assimp reads at `t`, into *out.  With a sink, a word (which
 * Assimp's message gave without a line) is an error at its line, and so
 * is NaN or an infinity when `is_finite`; `what` names the value ("bone
 * 'Spine': its OFFSET").  Without one, a word is where Assimp stops.
 */
static bvh_result number(bvh_file *f, const bvh_token *t, bool is_finite, double *out, const char *what, ...)
	__attribute__((format(printf, 5, 6)));

static bvh_result number(bvh_file *f, const bvh_token *t, bool is_finite, double *out, const char *what, ...)
{
	bool is_number = t->len && bvh_number(t, out);
	char said[256];
	va_list ap;

	if (is_number && (!is_finite || !f->sink || isfinite(*out)))
		return BVH_READ;
	if (!f->sink || !t->len)
		return stop(f, t);
	va_start(ap, what);
	vsnprintf(said, sizeof said, what, ap);
	va_end(ap);
	if (is_number)
		animc_diag_report(f->sink, ANIMC_ERROR, t->line, 0, "%s holds %.*s, which is not a finite number",
				  said, (int)(t->len > 40 ? 40 : t->len), t->text);
	else
		animc_diag_report(f->sink, ANIMC_ERROR, t->line, 0, "%s holds '%.*s', which is not a number", said,
				  (int)(t->len > 40 ? 40 : t->len), t->text);
	return BVH_BAD;
}

static bool expect(bvh_file *f, const char *word)
{
	bvh_token t;

	lex(&f->lx, &t);
	if (!is(&t, word)) {
		f->stop = t;
		return false;
	}
	return true;
}

/* A joint's name and the brace after it: one more joint, whose block is
 * open. */
static bvh_result open_joint(bvh_file *f)
{
	bvh_token name, brace;

	if (!lex(&f->lx, &name) || is(&name, "{"))
		return stop(f, &name);
	if (!lex(&f->lx, &brace) || !is(&brace, "{"))
		return stop(f, &brace);
	if (f->joint_count == f->joint_capacity) {
		uint32_t n = f->joint_capacity ? 2 * f->joint_capacity : 32;
		bvh_joint *more = n > f->joint_capacity ? realloc(f->joints, (size_t)n * sizeof *more) : NULL;

		if (!more)
			return BVH_NOMEM;
		f->joints = more;
		f->joint_capacity = n;
	}
	if (f->open_count == f->open_capacity) {
		uint32_t n = f->open_capacity ? 2 * f->open_capacity : 32;
		uint32_t *more = n > f->open_capacity ? realloc(f->open, (size_t)n * sizeof *more) : NULL;

		if (!more)
			return BVH_NOMEM;
		f->open = more;
		f->open_capacity = n;
	}
	f->joints[f->joint_count] = (bvh_joint){ .name = name, .position = { -1, -1, -1 } };
	f->open[f->open_count++] = f->joint_count++;
	return BVH_READ;
}

/* The three numbers of an OFFSET, of joint `j` or of its End Site. */
static bvh_result read_offset(bvh_file *f, uint32_t j)
{
	bvh_result r = BVH_READ;
	bvh_token t;
	double v;

	for (int i = 0; i < 3 && r == BVH_READ; i++) {
		lex(&f->lx, &t);
		r = number(f, &t, true, &v, "bone '%.*s': %s", JOINT_NAME(f, j),
			   f->is_in_end_site ? "the OFFSET of its End Site" : "its OFFSET");
	}
	return r;
}

static bool add_channel(bvh_file *f, uint32_t j, const char *name)
{
	if (f->channel_count == f->channel_capacity) {
		uint64_t n = f->channel_capacity ? 2 * f->channel_capacity : 64;
		bvh_channel *more = n < SIZE_MAX / sizeof *more ? realloc(f->channels, (size_t)n * sizeof *more) : NULL;

		if (!more)
			return false;
		f->channels = more;
		f->channel_capacity = n;
	}
	f->channels[f->channel_count++] = (bvh_channel){ j, name };
	return true;
}

/* CHANNELS N and its N channel names, added to joint `at`'s. */
static bvh_result read_channels(bvh_file *f, uint32_t at)
{
	static const char *const names[] = { "Xposition", "Yposition", "Zposition",
					     "Xrotation", "Yrotation", "Zrotation" };
	bvh_joint *j = &f->joints[at];
	bvh_token t;
	double count;
	bvh_result r;

	lex(&f->lx, &t);
	r = number(f, &t, true, &count, "bone '%.*s': its CHANNELS count", JOINT_NAME(f, at));
	if (r != BVH_READ)
		return r;
	if (!(count >= 0 && count < 4294967296.0))
		return stop(f, &t);
	for (uint32_t c = 0; c < (uint32_t)count; c++) {
		int k = 0;

		lex(&f->lx, &t);
		while (k < 6 && !is(&t, names[k]))
			k++;
		if (k == 6)
			return stop(f, &t);
		if (!add_channel(f, at, names[k]))
			return BVH_NOMEM;
		if (k < 3)
			j->position[k] = j->channel_count;
		j->channel_count++;
	}
	return BVH_READ;
}

/*
 * CHANNELS of joint `j` after a JOINT in its block (every joint opened
 * after j is inside it while its block is open).  BVH lists a joint's
 * channels before its children, and Assimp's reader, which keeps a
 * reference into its list of nodes across the children it adds, writes
 * these channels through a stale one: the file is refused before it reads.
 */
static bvh_result channels_after_child(bvh_file *f, uint32_t j, const bvh_token *t)
{
	if (!f->sink)
		return stop(f, t);
	animc_diag_report(f->sink, ANIMC_ERROR, t->line, 0,
			  "bone '%.*s': its CHANNELS come after its child joint '%.*s'; BVH lists a joint's "
			  "CHANNELS before its JOINTs (move the line up)", JOINT_NAME(f, j), JOINT_NAME(f, j + 1));
	return BVH_BAD;
}

/* One entry of the open block: OFFSET, CHANNELS, JOINT, End Site or the
 * closing brace.  An End Site holds an OFFSET only. */
static bvh_result read_entry(bvh_file *f)
{
	uint32_t j = f->open[f->open_count - 1];
	bvh_token t;

	lex(&f->lx, &t);
	if (is(&t, "OFFSET"))
		return read_offset(f, j);
	if (is(&t, "}")) {
		if (f->is_in_end_site)
			f->is_in_end_site = false;
		else
			f->open_count--;
		return BVH_READ;
	}
	if (f->is_in_end_site)
		return stop(f, &t);
	if (is(&t, "CHANNELS") && f->joint_count > j + 1)
		return channels_after_child(f, j, &t);
	if (is(&t, "CHANNELS"))
		return read_channels(f, j);
	if (is(&t, "JOINT"))
		return open_joint(f);
	if (!is(&t, "End"))
		return stop(f, &t);
	if (!expect(f, "Site") || !expect(f, "{"))
		return BVH_STOP;
	f->is_in_end_site = true;
	return BVH_READ;
}

/* The hierarchy and the motion's header, up to its first value. */
static bvh_result read_head(bvh_file *f)
{
	bvh_result r;
	bvh_token t;
	double n;

	if (!expect(f, "HIERARCHY") || !expect(f, "ROOT"))
		return BVH_STOP;
	r = open_joint(f);
	while (r == BVH_READ && f->open_count)
		r = read_entry(f);
	if (r != BVH_READ)
		return r;
	if (!expect(f, "MOTION") || !expect(f, "Frames:"))
		return BVH_STOP;
	lex(&f->lx, &t);
	if (!t.len || !bvh_number(&t, &n) || !(n >= 0 && n < 4294967296.0))
		return stop(f, &t);
	f->frames = (uint32_t)(float)n;
	if (!expect(f, "Frame") || !expect(f, "Time:"))
		return BVH_STOP;
	lex(&f->lx, &t);
	r = number(f, &t, false, &n, "Frame Time");
	if (r != BVH_READ)
		return r;
	for (uint32_t i = 0; i < f->joint_count; i++) {
		f->joints[i].first_value = f->values_per_frame;
		f->values_per_frame += f->joints[i].channel_count;
	}
	return BVH_READ;
}

static bvh_result bvh_read(bvh_file *f, const uint8_t *data, size_t size, animc_diag_sink *sink)
{
	memset(f, 0, sizeof *f);
	f->lx = (bvh_lexer){ data, data + size, 1, 1 };
	f->sink = sink;
	return read_head(f);
}

static void bvh_release(bvh_file *f)
{
	free(f->joints);
	free(f->open);
	free(f->channels);
}

/* ------------------------------------------------------------- checking */

/* Value `v` of a frame: the joint and channel it is, for a message. */
static const bvh_channel *value_channel(const bvh_file *f, uint64_t v)
{
	uint32_t j = 0;
	uint64_t nth = 0;

	while (j + 1 < f->joint_count && f->joints[j + 1].first_value <= v)
		j++;
	for (uint64_t c = 0; c < f->channel_count; c++)
		if (f->channels[c].joint == j && nth++ == v - f->joints[j].first_value)
			return &f->channels[c];
	return NULL;
}

/* The values of the frames Assimp reads, each a finite number. */
static bvh_result check_values(bvh_file *f)
{
	bvh_token t;
	double v;

	for (uint32_t fr = 0; fr < f->frames; fr++) {
		for (uint64_t i = 0; i < f->values_per_frame; i++) {
			const bvh_channel *c;

			if (!lex(&f->lx, &t))
				return stop(f, &t);   /* fewer than Frames: says, said apart */
			if (bvh_number(&t, &v) && isfinite(v))
				continue;
			c = value_channel(f, i);
			return number(f, &t, true, &v, "bone '%.*s': its %s channel", JOINT_NAME(f, c ? c->joint : 0),
				      c ? c->name : "");
		}
	}
	return BVH_READ;
}

bool animc_bvh_check(const uint8_t *data, size_t size, animc_diag_sink *sink)
{
	bvh_file f;
	bvh_result r = bvh_read(&f, data, size, sink);

	if (r == BVH_READ)
		r = check_values(&f);
	bvh_release(&f);
	return r != BVH_BAD;
}

/* ---------------------------------------------------------------- lines */

uint32_t animc_bvh_line(const uint8_t *data, size_t size, uint32_t assimp_line)
{
	const uint8_t *p = data, *end = data + size;
	uint32_t line = 1, at = 1;
	bvh_file f;
	bvh_result r = bvh_read(&f, data, size, NULL);
	bool is_one_line = true;

	bvh_release(&f);
	if (r == BVH_STOP && f.stop.assimp_line == assimp_line)
		return f.stop.line;
	for (; p < end && at < assimp_line; p++) {
		line += *p == '\n' || (*p == '\r' && (p + 1 == end || p[1] != '\n'));
		at += *p == '\n';
	}
	if (at < assimp_line)
		return 0;
	for (; p < end && *p != '\n'; p++)
		is_one_line &= *p != '\r' || (p + 1 < end && p[1] == '\n');
	return is_one_line ? line : 0;
}

/* ------------------------------------------------------------- mending */

/* A channel given keys of its own, and Assimp's, which it gets back. */
typedef struct mended {
	struct aiNodeAnim *na;
	struct aiVectorKey *assimp_keys;
	unsigned assimp_count;
	uint32_t joint;
} mended;

struct animc_bvh {
	mended *channels;
	uint32_t count;
};

/* Assimp 5.2 reads position keys only from a joint of exactly 6 channels
 * (and fails one of 6 without all three); any other joint gets one key,
 * its OFFSET. */
static bool loses_position(const bvh_joint *j)
{
	return j->channel_count != 6 && (j->position[0] >= 0 || j->position[1] >= 0 || j->position[2] >= 0);
}

/* Whether the scene's animation is the file's joints in order, as Assimp
 * made it. */
static bool is_scene_of(const bvh_file *f, const struct aiAnimation *anim)
{
	if (!anim || !anim->mChannels || anim->mNumChannels != f->joint_count)
		return false;
	for (uint32_t i = 0; i < f->joint_count; i++) {
		const struct aiNodeAnim *na = anim->mChannels[i];

		if (!na || na->mNodeName.length != f->joints[i].name.len ||
		    memcmp(na->mNodeName.data, f->joints[i].name.text, f->joints[i].name.len) != 0 ||
		    (loses_position(&f->joints[i]) && (na->mNumPositionKeys != 1 || !na->mPositionKeys)))
			return false;
	}
	return true;
}

/* Keys for the joints that lose their positions, each key its OFFSET
 * (Assimp's one key) where an axis has no channel. */
static bvh_result alloc_keys(const bvh_file *f, const struct aiAnimation *anim, animc_bvh *bvh)
{
	for (uint32_t i = 0; i < f->joint_count; i++)
		bvh->count += loses_position(&f->joints[i]);
	bvh->channels = calloc(bvh->count, sizeof *bvh->channels);
	if (!bvh->channels)
		return BVH_NOMEM;
	for (uint32_t i = 0, n = 0; i < f->joint_count; i++) {
		struct aiNodeAnim *na = anim->mChannels[i];
		struct aiVectorKey *keys;

		if (!loses_position(&f->joints[i]))
			continue;
		keys = malloc((size_t)f->frames * sizeof *keys);
		if (!keys)
			return BVH_NOMEM;
		for (uint32_t fr = 0; fr < f->frames; fr++)
			keys[fr] = (struct aiVectorKey){ fr, na->mPositionKeys[0].mValue };
		bvh->channels[n++] = (mended){ na, na->mPositionKeys, na->mNumPositionKeys, i };
		na->mPositionKeys = keys;
		na->mNumPositionKeys = f->frames;
	}
	return BVH_READ;
}

/* Which mended channel and axis each value of a frame is, -1 for none. */
static int64_t *value_slots(const bvh_file *f, const animc_bvh *bvh)
{
	int64_t *slot = malloc((size_t)f->values_per_frame * sizeof *slot);

	if (!slot)
		return NULL;
	for (uint64_t v = 0; v < f->values_per_frame; v++)
		slot[v] = -1;
	for (uint32_t n = 0; n < bvh->count; n++) {
		const bvh_joint *j = &f->joints[bvh->channels[n].joint];

		for (int k = 0; k < 3; k++)
			if (j->position[k] >= 0)
				slot[j->first_value + (uint64_t)j->position[k]] = 3 * (int64_t)n + k;
	}
	return slot;
}

/* The motion's values into the mended keys. */
static bvh_result read_positions(bvh_file *f, animc_bvh *bvh)
{
	int64_t *slot = value_slots(f, bvh);
	bvh_token t;
	double v;

	if (!slot)
		return BVH_NOMEM;
	for (uint32_t fr = 0; fr < f->frames; fr++) {
		for (uint64_t i = 0; i < f->values_per_frame; i++) {
			if (!lex(&f->lx, &t) || !bvh_number(&t, &v)) {
				free(slot);
				return stop(f, &t);
			}
			if (slot[i] < 0)
				continue;
			struct aiVector3D *at = &bvh->channels[slot[i] / 3].na->mPositionKeys[fr].mValue;
			float *axis[3] = { &at->x, &at->y, &at->z };
			*axis[slot[i] % 3] = (float)v;
		}
	}
	free(slot);
	return BVH_READ;
}

animc_status animc_bvh_open(const uint8_t *data, size_t size, const struct aiScene *scene, animc_bvh **out)
{
	const struct aiAnimation *anim = scene->mNumAnimations && scene->mAnimations ? scene->mAnimations[0] : NULL;
	animc_bvh *bvh;
	bvh_file f;
	bvh_result r = bvh_read(&f, data, size, NULL);
	uint32_t lost = 0;

	*out = NULL;
	for (uint32_t i = 0; r == BVH_READ && i < f.joint_count; i++)
		lost += loses_position(&f.joints[i]);
	if (r != BVH_READ || !lost || f.frames == 0 || !is_scene_of(&f, anim)) {
		bvh_release(&f);
		return r == BVH_NOMEM ? ANIMC_ERR_NOMEM : ANIMC_OK;
	}
	bvh = calloc(1, sizeof *bvh);
	r = bvh ? alloc_keys(&f, anim, bvh) : BVH_NOMEM;
	if (r == BVH_READ)
		r = read_positions(&f, bvh);
	bvh_release(&f);
	if (r != BVH_READ) {
		animc_bvh_close(bvh);
		return r == BVH_NOMEM ? ANIMC_ERR_NOMEM : ANIMC_OK;
	}
	*out = bvh;
	return ANIMC_OK;
}

void animc_bvh_close(animc_bvh *bvh)
{
	if (!bvh)
		return;
	for (uint32_t n = 0; n < bvh->count; n++) {
		mended *m = &bvh->channels[n];

		if (!m->na)
			continue;
		free(m->na->mPositionKeys);
		m->na->mPositionKeys = m->assimp_keys;
		m->na->mNumPositionKeys = m->assimp_count;
	}
	free(bvh->channels);
	free(bvh);
}
