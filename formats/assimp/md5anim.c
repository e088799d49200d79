/*
 * md5anim.c - a Doom 3 .md5anim read from its own bytes, token by token,
 * before Assimp reads it: the layout of its frames (each joint's flags and
 * startIndex against numAnimatedComponents and each frame's values), which
 * Assimp 5.2.5's reader does not check; and a .md5camera's cuts against
 * its frames, which it does not check either.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "md5anim.h"

/* A token: a quoted string (quotes included), one of ( ) { }, or a run of
 * other bytes; `line` its line in the file. */
typedef struct md5_token {
	const char *at;
	size_t len;      /* 0: none */
	uint32_t line;
} md5_token;

typedef struct md5_reader {
	const uint8_t *p, *end;
	uint32_t line;   /* the line `p` is on */
} md5_reader;

typedef struct md5_joint {
	md5_token name;
	unsigned long long flags, start;
} md5_joint;

/* What the file says, as far as it is read. */
typedef struct md5_file {
	md5_token num_frames;    /* numFrames's value; len 0 when not given */
	unsigned long long frame_count_declared;
	size_t frame_count;      /* frame sections read */
	md5_token components;    /* numAnimatedComponents's value; len 0 when not given */
	unsigned long long component_count;
	md5_joint *joints;
	size_t joint_count, joint_capacity;
	unsigned long long needed; /* values a frame must hold for the joints read */
	md5_token not_number;    /* the first value that is not a number; len 0 for none */
	const char *not_number_in; /* "frame N", "baseframe", "bounds" */
	md5_token not_number_frame; /* that frame's number */
	size_t not_number_index; /* and the value's index in its block */
	md5_token odd_frame;     /* the first frame of other than the values needed */
	size_t odd_count;        /* the values that one holds */
	bool is_lost;            /* a part this reader does not follow, or no memory */
} md5_file;

static bool is_line_end(const uint8_t *q, const uint8_t *end)
{
	return *q == '\n' || (*q == '\r' && (q + 1 == end || q[1] != '\n'));
}

/* The next token of `r` into `t`; false at the end.  // comments are
 * skipped; a line ends at LF, CR LF or a lone CR. */
static bool md5_next(md5_reader *r, md5_token *t)
{
	const uint8_t *q = r->p;

	for (;;) {
		for (; q < r->end && (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\n'); q++)
			r->line += is_line_end(q, r->end);
		if (r->end - q < 2 || q[0] != '/' || q[1] != '/')
			break;
		while (q < r->end && *q != '\n' && *q != '\r')
			q++;
	}
	r->p = q;
	if (q == r->end)
		return false;
	t->at = (const char *)q;
	t->line = r->line;
	if (*q == '"') {
		for (q++; q < r->end && *q != '"' && *q != '\n' && *q != '\r'; q++)
			;
		q += q < r->end && *q == '"';
	} else if (memchr("(){}", *q, 4)) {
		q++;
	} else {
		while (q < r->end && !memchr(" \t\r\n(){}\"", *q, 9))
			q++;
	}
	t->len = (size_t)(q - (const uint8_t *)t->at);
	r->p = q;
	return true;
}

static bool md5_is(const md5_token *t, const char *word)
{
	return t->len == strlen(word) && memcmp(t->at, word, t->len) == 0;
}

/* Whether `t` is a whole number (`is_signed`: a leading '-' too), its
 * value in *value (capped past 2^32). */
static bool md5_whole(const md5_token *t, bool is_signed, unsigned long long *value)
{
	size_t k = is_signed && t->len > 1 && t->at[0] == '-';

	*value = 0;
	if (t->len == 0 || k == t->len)
		return false;
	for (; k < t->len; k++) {
		if (t->at[k] < '0' || t->at[k] > '9')
			return false;
		if (*value <= UINT32_MAX)
			*value = *value * 10 + (unsigned long long)(t->at[k] - '0');
	}
	return true;
}

static unsigned bits_set(unsigned long long flags)
{
	unsigned n = 0;

	for (unsigned bit = 0; bit < 6; bit++)
		n += (flags >> bit) & 1;
	return n;
}

/* Whether `t` is a finite decimal number, as Assimp's and Doom 3's
 * readers take one (1, -0.5, .5, 1e-3). */
static bool md5_number(const md5_token *t)
{
	char number[64], *stop;
	double value;

	if (t->len == 0 || t->len >= sizeof number)
		return false;
	memcpy(number, t->at, t->len);
	number[t->len] = '\0';
	if (strspn(number, "0123456789+-.eE") < t->len)
		return false;   /* strtod's hex, inf and nan are not numbers here */
	value = strtod(number, &stop);
	return *stop == '\0' && isfinite(value);
}

/* Note value `t`, the `index`th of the block `in` (`frame`: its number),
 * when it is the first not a number. */
static void note_value(md5_file *f, const md5_token *t, const char *in, const md5_token *frame, size_t index)
{
	if (f->not_number.len || md5_number(t))
		return;
	f->not_number = *t;
	f->not_number_in = in;
	if (frame)
		f->not_number_frame = *frame;
	f->not_number_index = index;
}

/* The numbers of a `baseframe` or `bounds` block, `(` and `)` apart (its
 * word read); false when it opens no block. */
static bool read_numbers(md5_reader *r, md5_file *f, const char *in)
{
	md5_token t;
	size_t index = 0;

	if (!md5_next(r, &t) || !md5_is(&t, "{"))
		return false;
	while (md5_next(r, &t) && !md5_is(&t, "}"))
		if (!md5_is(&t, "(") && !md5_is(&t, ")"))
			note_value(f, &t, in, NULL, index++);
	return true;
}

/* Past a `{ ... }` block whose `{` was read (nested ones too). */
static void skip_block(md5_reader *r)
{
	md5_token t;
	unsigned depth = 1;

	while (depth && md5_next(r, &t))
		depth += md5_is(&t, "{") ? 1 : md5_is(&t, "}") ? -1u : 0;
}

/* One hierarchy line, `"NAME" PARENT FLAGS STARTINDEX`, its name read. */
static bool read_joint(md5_reader *r, md5_file *f, const md5_token *name)
{
	md5_token parent, flags, start;
	unsigned long long value;
	md5_joint *j;

	if (name->len < 2 || name->at[0] != '"' || !md5_next(r, &parent) || !md5_whole(&parent, true, &value) ||
	    !md5_next(r, &flags) || !md5_next(r, &start))
		return false;
	if (f->joint_count == f->joint_capacity) {
		size_t capacity = f->joint_capacity ? 2 * f->joint_capacity : 64;
		md5_joint *more = realloc(f->joints, capacity * sizeof *more);

		if (!more)
			return false;
		f->joints = more;
		f->joint_capacity = capacity;
	}
	j = &f->joints[f->joint_count++];
	j->name = *name;
	if (!md5_whole(&flags, false, &j->flags) || !md5_whole(&start, false, &j->start))
		return false;
	if ((j->flags & 63) && j->start + bits_set(j->flags) > f->needed)
		f->needed = j->start + bits_set(j->flags);
	return true;
}

static bool read_hierarchy(md5_reader *r, md5_file *f)
{
	md5_token t;

	if (!md5_next(r, &t) || !md5_is(&t, "{"))
		return false;
	while (md5_next(r, &t) && !md5_is(&t, "}"))
		if (!read_joint(r, f, &t))
			return false;
	return true;
}

/* `frame N { values }`, "frame" read (at `frame`). */
static bool read_frame(md5_reader *r, md5_file *f, const md5_token *frame)
{
	md5_token t, number;
	size_t values = 0;
	unsigned long long want = f->components.len ? f->component_count : f->needed;

	if (!md5_next(r, &number) || !md5_next(r, &t) || !md5_is(&t, "{"))
		return false;
	f->frame_count++;
	while (md5_next(r, &t) && !md5_is(&t, "}"))
		note_value(f, &t, "frame", &number, values++);
	/* Fewer values than the joints read make Assimp read past them;
	 * other than the count declared, Doom 3 refuses the file. */
	if (!f->odd_frame.len && (values < f->needed || (f->components.len && values != want))) {
		f->odd_frame = *frame;
		f->odd_count = values;
	}
	return true;
}

static void md5_read(md5_reader *r, md5_file *f)
{
	md5_token t;

	while (!f->is_lost && md5_next(r, &t)) {
		if (md5_is(&t, "hierarchy"))
			f->is_lost = !read_hierarchy(r, f);
		else if (md5_is(&t, "frame"))
			f->is_lost = !read_frame(r, f, &t);
		else if (md5_is(&t, "numFrames"))
			f->is_lost = !md5_next(r, &f->num_frames) ||
				     !md5_whole(&f->num_frames, false, &f->frame_count_declared);
		else if (md5_is(&t, "numAnimatedComponents"))
			f->is_lost = !md5_next(r, &f->components) ||
				     !md5_whole(&f->components, false, &f->component_count);
		else if (md5_is(&t, "baseframe") || md5_is(&t, "bounds"))
			f->is_lost = !read_numbers(r, f, md5_is(&t, "bounds") ? "bounds" : "baseframe");
		else if (md5_is(&t, "{"))
			skip_block(r);
	}
}

/* Each joint's components against numAnimatedComponents, and each
 * frame's values against them: the first fault said. */
static bool check_layout(const md5_file *f, animc_diag_sink *sink)
{
	for (size_t i = 0; f->components.len && i < f->joint_count; i++) {
		const md5_joint *j = &f->joints[i];
		unsigned n = bits_set(j->flags);

		if (!(j->flags & 63) || j->start + n <= f->component_count)
			continue;
		animc_diag_report(sink, ANIMC_ERROR, j->name.line, 0, "joint %.*s (flags %llu, startIndex %llu) "
				  "reads components %llu to %llu of each frame, but numAnimatedComponents is %llu: "
				  "Assimp would read past the frame's values", (int)(j->name.len > 64 ? 64 : j->name.len),
				  j->name.at, j->flags, j->start, j->start, j->start + n - 1, f->component_count);
		return false;
	}
	if (f->not_number.len) {
		const md5_token *v = &f->not_number, *frame = &f->not_number_frame;
		int n = (int)(v->len > 40 ? 40 : v->len);

		if (strcmp(f->not_number_in, "frame") == 0)
			animc_diag_report(sink, ANIMC_ERROR, v->line, 0, "'%.*s' is not a number (frame %.*s, "
					  "component %zu)", n, v->at, (int)(frame->len > 20 ? 20 : frame->len), frame->at,
					  f->not_number_index);
		else
			animc_diag_report(sink, ANIMC_ERROR, v->line, 0, "'%.*s' is not a number (%s, entry %zu)", n,
					  v->at, f->not_number_in, f->not_number_index / 6);
		return false;
	}
	if (f->odd_frame.len) {
		animc_diag_report(sink, ANIMC_ERROR, f->odd_frame.line, 0, "this frame holds %zu values, but %s "
				  "%llu: each frame holds one value for each animated component", f->odd_count,
				  f->components.len ? "numAnimatedComponents is" : "the hierarchy's joints read",
				  f->components.len ? f->component_count : f->needed);
		return false;
	}
	return true;
}

/* numFrames against the frames there: fewer is a file cut short (Assimp
 * reads the frames it finds, and the clip ends early); more are read,
 * though Doom 3 plays numFrames of them. */
static bool check_frame_count(const md5_file *f, animc_diag_sink *sink)
{
	unsigned long long declared = f->frame_count_declared, found = f->frame_count;

	if (!f->num_frames.len || declared == found || found == 0)
		return true;
	if (declared > found) {
		animc_diag_report(sink, ANIMC_ERROR, f->num_frames.line, 0, "numFrames %llu, but the file holds %llu "
				  "frame%s: a file cut short? Assimp would read the clip %llu frame%s short", declared,
				  found, found == 1 ? "" : "s", declared - found, declared - found == 1 ? "" : "s");
		return false;
	}
	animc_diag_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_WRONG_FRAME_COUNT, f->num_frames.line, 0,
			       "numFrames %llu, but the file holds %llu frames: all are read, where Doom 3 plays "
			       "the first %llu; give their count", declared, found, declared);
	return true;
}

bool animc_md5anim_check(const uint8_t *data, size_t size, animc_diag_sink *sink)
{
	md5_reader r = { data, data + size, 1 };
	md5_file f = { 0 };
	bool ok = true;

	if (!data)
		return true;
	md5_read(&r, &f);
	if (!f.is_lost)
		ok = check_layout(&f, sink) && check_frame_count(&f, sink);
	free(f.joints);
	return ok;
}

/* A .md5camera's cuts and frames, as Assimp 5.2.5's reader takes them:
 * each line of the `cuts` block one cut (its leading number), each line of
 * the `camera` block one frame. */
typedef struct md5_camera {
	md5_token *cuts;
	size_t cut_count, cut_capacity;
	size_t frame_count;
	md5_token last_frame;    /* the first token of the camera block's last line */
	bool is_lost;            /* no memory */
} md5_camera;

/* The lines of a block whose `{` is next: `line` is given the first token
 * of each. */
static void read_lines(md5_reader *r, md5_camera *c, void (*line)(md5_camera *, const md5_token *))
{
	md5_token t;
	uint32_t last = 0;

	if (!md5_next(r, &t) || !md5_is(&t, "{"))
		return;
	while (!c->is_lost && md5_next(r, &t) && !md5_is(&t, "}"))
		if (t.line != last)
			last = t.line, line(c, &t);
}

static void add_cut(md5_camera *c, const md5_token *t)
{
	if (c->cut_count == c->cut_capacity) {
		size_t capacity = c->cut_capacity ? 2 * c->cut_capacity : 16;
		md5_token *more = realloc(c->cuts, capacity * sizeof *more);

		if (!more) {
			c->is_lost = true;
			return;
		}
		c->cuts = more;
		c->cut_capacity = capacity;
	}
	c->cuts[c->cut_count++] = *t;
}

static void add_frame(md5_camera *c, const md5_token *t)
{
	(void)t;
	c->frame_count++;
}

/* A cut's frame as Assimp reads it: its leading digits (none: 0). */
static unsigned long long cut_frame(const md5_token *t)
{
	unsigned long long value = 0;

	for (size_t k = 0; k < t->len && t->at[k] >= '0' && t->at[k] <= '9'; k++)
		if (value <= UINT32_MAX)
			value = value * 10 + (unsigned long long)(t->at[k] - '0');
	return value;
}

/* Each cut after the one before it and within the frames: Assimp makes a
 * clip from each cut to the next, reading the frames between, and reads
 * past the frames for a cut beyond them (another pose each run) or
 * allocates for a count gone negative for one out of order. */
static bool check_cuts(const md5_camera *c, animc_diag_sink *sink)
{
	unsigned long long before = 0;

	for (size_t i = 0; i < c->cut_count; i++) {
		const md5_token *t = &c->cuts[i];
		unsigned long long frame = cut_frame(t);

		if (i > 0 && frame <= before) {
			animc_diag_report(sink, ANIMC_ERROR, t->line, 0, "cut %llu is not after the cut before it "
					  "(%llu): cuts go in frame order", frame, before);
			return false;
		}
		if (frame >= c->frame_count) {
			animc_diag_report(sink, ANIMC_ERROR, t->line, 0, "cut %llu lies past the camera's %zu "
					  "frame%s (0 to %zu): Assimp would read past them", frame, c->frame_count,
					  c->frame_count == 1 ? "" : "s", c->frame_count - 1);
			return false;
		}
		before = frame;
	}
	return true;
}

bool animc_md5camera_check(const uint8_t *data, size_t size, animc_diag_sink *sink)
{
	md5_reader r = { data, data + size, 1 };
	md5_camera c = { 0 };
	md5_token t;
	bool ok = true;

	if (!data)
		return true;
	while (!c.is_lost && md5_next(&r, &t)) {
		if (md5_is(&t, "cuts"))
			read_lines(&r, &c, add_cut);
		else if (md5_is(&t, "camera"))
			read_lines(&r, &c, add_frame);
		else if (md5_is(&t, "{"))
			skip_block(&r);
	}
	/* No frames: Assimp says so itself. */
	if (!c.is_lost && c.frame_count > 0)
		ok = check_cuts(&c, sink);
	free(c.cuts);
	return ok;
}

/* ------------------------------------------------------- camera shots */

void animc_md5camera_start_shots_at_zero(const struct aiScene *scene)
{
	for (unsigned a = 0; scene && scene->mAnimations && a < scene->mNumAnimations; a++) {
		struct aiAnimation *anim = scene->mAnimations[a];
		double start = INFINITY;

		for (unsigned c = 0; anim && anim->mChannels && c < anim->mNumChannels; c++) {
			const struct aiNodeAnim *na = anim->mChannels[c];

			if (na && na->mPositionKeys && na->mNumPositionKeys)
				start = fmin(start, na->mPositionKeys[0].mTime);
			if (na && na->mRotationKeys && na->mNumRotationKeys)
				start = fmin(start, na->mRotationKeys[0].mTime);
		}
		if (!(start > 0) || !isfinite(start))
			continue;
		for (unsigned c = 0; c < anim->mNumChannels; c++) {
			struct aiNodeAnim *na = anim->mChannels[c];

			for (unsigned k = 0; na && na->mPositionKeys && k < na->mNumPositionKeys; k++)
				na->mPositionKeys[k].mTime -= start;
			for (unsigned k = 0; na && na->mRotationKeys && k < na->mNumRotationKeys; k++)
				na->mRotationKeys[k].mTime -= start;
		}
		anim->mDuration = fmax(0, anim->mDuration - start);
	}
}

/* The first token of the camera block's last line, and the lines' count. */
static void note_frame(md5_camera *c, const md5_token *t)
{
	c->last_frame = *t;
	c->frame_count++;
}

/* The camera's last frame, `( x y z ) ( qx qy qz ) fov`, from its first
 * token on: position and rotation's x y z into v; false when it is not
 * that. */
static bool read_camera_frame(const md5_camera *c, const uint8_t *end, double v[6])
{
	md5_reader r = { (const uint8_t *)c->last_frame.at, end, c->last_frame.line };
	md5_token t;
	char number[64];

	for (int i = 0; i < 6; i++) {
		if ((i == 0 || i == 3) && (!md5_next(&r, &t) || !md5_is(&t, "(")))
			return false;
		if (!md5_next(&r, &t) || !md5_number(&t) || t.line != c->last_frame.line)
			return false;
		memcpy(number, t.at, t.len);
		number[t.len] = '\0';
		v[i] = strtod(number, NULL);
		if ((i == 2 || i == 5) && (!md5_next(&r, &t) || !md5_is(&t, ")")))
			return false;
	}
	return true;
}

/* The .md5camera's frame count and last frame, when the last frame ends
 * a shot of more than itself: no cut at the frame before it (then Assimp's
 * last clip ends at that cut, the last frame a shot of its own, and it
 * belongs to no clip).  False when it cannot be read, or is not that. */
static bool camera_last_frame(const uint8_t *data, size_t size, size_t *count, double v[6])
{
	md5_reader r = { data, data + size, 1 };
	md5_camera c = { 0 };
	md5_token t;
	bool ok;

	while (data && !c.is_lost && md5_next(&r, &t)) {
		if (md5_is(&t, "cuts"))
			read_lines(&r, &c, add_cut);
		else if (md5_is(&t, "camera"))
			read_lines(&r, &c, note_frame);
		else if (md5_is(&t, "{"))
			skip_block(&r);
	}
	*count = c.frame_count;
	ok = !c.is_lost && c.frame_count > 0 && read_camera_frame(&c, data + size, v);
	for (size_t i = 0; ok && i < c.cut_count; i++)
		ok = cut_frame(&c.cuts[i]) + 2 != c.frame_count;
	free(c.cuts);
	return ok;
}

/* Track `kind` of channel 0 of `clip` with one more key, at `time`, of
 * `value`; false (the track unchanged) without memory. */
static bool add_key(animc_clip *clip, animc_track_kind kind, float time, const float *value)
{
	animc_track *t = &clip->channels[0].tracks[kind];
	size_t width = kind == ANIMC_ROTATION ? 4 : 3, n = t->value_count;
	float *times = animc_clip_alloc_floats(clip, n + 1), *values = animc_clip_alloc_values(clip, kind, n + 1);

	if (!times || !values)
		return false;
	memcpy(times, t->times_s, n * sizeof *times);
	memcpy(values, t->values, n * width * sizeof *values);
	times[n] = time;
	memcpy(&values[n * width], value, width * sizeof *values);
	t->times_s = times, t->values = values, t->value_count = (uint32_t)(n + 1);
	return true;
}

/* Whether `clip` is Assimp's last shot of a camera of `frames` frames,
 * every key of its one channel where Assimp puts it (one a frame, from 0
 * on, the last frame left out); its keys in *keys. */
static bool is_last_shot(const animc_clip *clip, size_t frames, uint32_t *keys)
{
	unsigned index, from, to;
	int end = 0;
	const animc_track *t = clip->channel_count == 1 ? clip->channels[0].tracks : NULL;

	if (!clip->name || sscanf(clip->name, "anim%u_from_%u_to_%u%n", &index, &from, &to, &end) != 3 ||
	    clip->name[end] != '\0' || (size_t)to + 1 != frames || from >= to || !t || !(clip->ticks_per_second > 0))
		return false;
	*keys = to - from;
	for (int k = ANIMC_TRANSLATION; k <= ANIMC_ROTATION; k++)
		if (!t[k].is_present || t[k].value_count != *keys || !t[k].times_s ||
		    fabsf(t[k].times_s[*keys - 1] - (float)((*keys - 1) / clip->ticks_per_second)) > 1e-5f)
			return false;
	return true;
}

void animc_md5camera_end_at_last_frame(const uint8_t *data, size_t size, animc_clip_set *set, uint32_t first)
{
	animc_clip *clip = set && set->count > first ? set->clips[set->count - 1] : NULL;
	size_t frames;
	uint32_t keys;
	double v[6], w;

	if (!clip || !camera_last_frame(data, size, &frames, v) || !is_last_shot(clip, frames, &keys))
		return;
	/* Its rotation as Assimp rebuilds a frame's, w = -sqrt(1 - x² - y² - z²). */
	w = 1 - v[3] * v[3] - v[4] * v[4] - v[5] * v[5];
	w = w > 0 ? -sqrt(w) : 0;
	double len = sqrt(v[3] * v[3] + v[4] * v[4] + v[5] * v[5] + w * w);
	const float position[3] = { (float)v[0], (float)v[1], (float)v[2] };
	const float rotation[4] = { (float)(v[3] / len), (float)(v[4] / len), (float)(v[5] / len), (float)(w / len) };
	float time = (float)(keys / clip->ticks_per_second);

	if (!(len > 0) || !add_key(clip, ANIMC_TRANSLATION, time, position) ||
	    !add_key(clip, ANIMC_ROTATION, time, rotation))
		return;
	clip->duration_s = time;
	clip->channels[0].duration_s = time;
}
