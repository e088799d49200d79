/*
 * author.c - the authoring options of a build and the clip-split sidecar:
 * parsing --split, --clips, --root-motion, --up-axis and
 * --additive-reference, finding STEM_Anims.xml beside a source, and running
 * the authoring passes of lib/animc on a source's imported clips.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "author.h"


/* "12.5", "40f", "1.5s": false when it is none. */
static bool parse_time(const char *s, size_t len, animc_split_time *out)
{
	char buf[64], *end;

	if (!len || len >= sizeof buf)
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	out->is_frame = buf[len - 1] == 'f';
	if (buf[len - 1] == 'f' || buf[len - 1] == 's')
		buf[--len] = '\0';
	if (!len)
		return false;
	errno = 0;
	out->value = strtod(buf, &end);
	return *end == '\0' && errno == 0 && isfinite(out->value) && out->value >= 0;
}

/* [TAKE/]NAME=START:END into its parts (pointers into arg). */
typedef struct split_arg {
	const char *take;
	size_t take_len;
	const char *name;
	size_t name_len;
	animc_split_time start, end;
} split_arg;

static bool parse_split(const char *arg, split_arg *out)
{
	const char *eq = strrchr(arg, '='), *colon, *slash;

	memset(out, 0, sizeof *out);
	if (!eq)
		return false;
	colon = strchr(eq, ':');
	if (!colon || !parse_time(eq + 1, (size_t)(colon - eq - 1), &out->start) ||
	    !parse_time(colon + 1, strlen(colon + 1), &out->end))
		return false;
	slash = memrchr(arg, '/', (size_t)(eq - arg));
	if (slash) {
		out->take = arg;
		out->take_len = (size_t)(slash - arg);
		out->name = slash + 1;
	} else {
		out->name = arg;
	}
	out->name_len = (size_t)(eq - out->name);
	return out->name_len > 0 && (!slash || out->take_len > 0);
}

char *build_author_split_spelt_alike(const char *arg)
{
	split_arg s;
	char *out;

	if (!parse_split(arg, &s))
		return NULL;
	if (asprintf(&out, "%.*s%s%.*s=%.17g%s:%.17g%s", (int)s.take_len, s.take ? s.take : "", s.take ? "/" : "",
		     (int)s.name_len, s.name, s.start.value, s.start.is_frame ? "f" : "", s.end.value,
		     s.end.is_frame ? "f" : "") < 0)
		return NULL;
	return out;
}

bool build_author_split(build_author_options *a, const char *arg, cli_error *err)
{
	split_arg s;

	if (!parse_split(arg, &s))
		return cli_error_set(err, "--split '%s': give [TAKE/]NAME=START:END, times in seconds or frames with "
			   "'f' (Run=40f:85f)", arg);
	if (!cli_strings_push(&a->splits, arg))
		return cli_error_set(err, "out of memory");
	return true;
}

bool build_author_root_motion(build_author_options *a, const char *arg, cli_error *err)
{
	const char *comma = strrchr(arg, ',');

	/* One bone's motion is taken out; a second would silently win. */
	if (a->root_bone)
		return cli_error_set(err, "--root-motion '%s': given already, for bone '%s'; give it once",
				     arg, a->root_bone);
	a->root_yaw = comma && strcmp(comma, ",yaw") == 0;
	if (comma && !a->root_yaw)
		return cli_error_set(err, "--root-motion '%s': give BONE or BONE,yaw", arg);
	if (!arg[0] || comma == arg)
		return cli_error_set(err, "--root-motion: the bone's name is empty");
	a->root_bone = strndup(arg, a->root_yaw ? (size_t)(comma - arg) : strlen(arg));
	return a->root_bone ? true : cli_error_set(err, "out of memory");
}

bool build_author_up_axis(build_author_options *a, const char *arg, cli_error *err)
{
	if (strcmp(arg, "x") == 0)
		a->up = ANIMC_UP_X;
	else if (strcmp(arg, "y") == 0)
		a->up = ANIMC_UP_Y;
	else if (strcmp(arg, "z") == 0)
		a->up = ANIMC_UP_Z;
	else
		return cli_error_set(err, "--up-axis '%s': use x, y or z", arg);
	return true;
}

bool build_author_additive(build_author_options *a, const char *arg, cli_error *err)
{
	a->has_additive = true;
	a->additive_clip = NULL;
	if (strcmp(arg, "first-frame") == 0)
		a->additive = ANIMC_ADDITIVE_FIRST_FRAME;
	else if (strcmp(arg, "bind") == 0)
		a->additive = ANIMC_ADDITIVE_BIND;
	else if (arg[0])
		a->additive = ANIMC_ADDITIVE_CLIP, a->additive_clip = arg;
	else
		return cli_error_set(err, "--additive-reference is empty: give first-frame, bind or a clip's name");
	return true;
}

bool build_author_check(const build_author_options *a, cli_error *err)
{
	if (a->clips_path && a->splits.count)
		return cli_error_set(err, "--clips and --split contradict each other: give the parts in one place");
	if (a->up != ANIMC_UP_DEFAULT && !a->root_bone)
		return cli_error_set(err, "--up-axis needs --root-motion BONE: it is the up axis of the root motion");
	return true;
}

void build_author_release(build_author_options *a)
{
	cli_strings_release(&a->splits);
	free(a->root_bone);
	memset(a, 0, sizeof *a);
}

char *build_sidecar_path(const char *source)
{
	const char *base = cli_basename(source);
	size_t stem = (size_t)(base - source) + cli_stem_length(base);
	char *out = malloc(stem + sizeof BUILD_SIDECAR_SUFFIX);

	if (out) {
		memcpy(out, source, stem);
		memcpy(out + stem, BUILD_SIDECAR_SUFFIX, sizeof BUILD_SIDECAR_SUFFIX);
	}
	return out;
}

/* Whether the file at `path` is a sidecar: its type in its first bytes.
 * One there that cannot be read counts as one, so that its source fails
 * naming it rather than build its takes whole, which would replace (and
 * with --prune remove) the parts it wrote.  A symbolic link that leads
 * nowhere (its share not mounted, repointed before its target is copied)
 * is there and cannot be read: open() says ENOENT, lstat() finds it.  So
 * is a file that is not a regular one (a FIFO opens, and reads as empty).
 * So is an empty one: an editor saving it truncates it first, and its
 * source would be built whole meanwhile (animc watch builds then). */
static bool holds_definition(const char *path)
{
	uint8_t *head = malloc(BUILD_SIDECAR_PROBE_BYTES);
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	size_t size = 0;
	ssize_t n = 0;
	struct stat st;
	bool holds;

	if (fd < 0 || !head || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		/* Not opened: there (lstat finds it) or not, whatever open
		 * said (EMFILE for a moment is no word on the file). */
		holds = fd >= 0 ? head != NULL : lstat(path, &st) == 0 || (errno != ENOENT && errno != ENOTDIR);
		if (fd >= 0)
			close(fd);
		free(head);
		return holds;
	}
	while (size < BUILD_SIDECAR_PROBE_BYTES && (n = read(fd, head + size, BUILD_SIDECAR_PROBE_BYTES - size)) > 0)
		size += (size_t)n;
	close(fd);
	holds = n < 0 || size == 0 || animc_split_doc_probe(head, size);
	free(head);
	return holds;
}

const char *build_sidecar_named(const char *name, const char *const *siblings, size_t count)
{
	size_t n = strlen(name), suffix = sizeof BUILD_SIDECAR_SUFFIX - 1, stem;

	if (n <= suffix || strcmp(name + n - suffix, BUILD_SIDECAR_SUFFIX) != 0)
		return NULL;
	stem = n - suffix;
	for (size_t i = 0; i < count; i++) {
		const char *s = siblings[i];

		if (strcmp(s, name) != 0 && cli_stem_length(s) == stem && strncmp(s, name, stem) == 0)
			return s;
	}
	return NULL;
}

char *build_sidecar_source_but_case(const char *path)
{
	const char *base = cli_basename(path);
	size_t n = strlen(base), suffix = sizeof BUILD_SIDECAR_SUFFIX - 1, stem = n - suffix;
	char *dir, *found = NULL;
	struct dirent *e;
	DIR *d;

	if (n <= suffix || strcasecmp(base + stem, BUILD_SIDECAR_SUFFIX) != 0 ||
	    !(dir = strndup(path, (size_t)(base - path))))
		return NULL;
	d = opendir(dir[0] ? dir : ".");
	free(dir);
	while (d && (e = readdir(d))) {
		const char *s = e->d_name;

		if (cli_stem_length(s) == stem && strncasecmp(s, base, stem) == 0 && strncmp(s, base, stem) != 0 &&
		    strcasecmp(s + stem, BUILD_SIDECAR_SUFFIX) != 0 && (!found || strcmp(s, found) < 0)) {
			free(found);
			found = strdup(s);
		}
	}
	if (d)
		closedir(d);
	return found;
}

bool build_sidecar_of(const char *dir, const char *name, const char *const *siblings, size_t count,
		      const char **source)
{
	const char *s = build_sidecar_named(name, siblings, count);
	char *path;
	bool is_sidecar;

	if (!s)
		return false;
	path = cli_path_join(dir, name, NULL);
	is_sidecar = path && holds_definition(path);
	free(path);
	if (is_sidecar)
		*source = s;
	return is_sidecar;
}

char *build_author_sidecar(const build_author_options *a, const char *source, bool is_explicit)
{
	char *path;

	if (is_explicit && (a->clips_path || a->splits.count))
		return NULL;
	path = build_sidecar_path(source);
	if (path && holds_definition(path))
		return path;
	free(path);
	return NULL;
}

/* ------------------------------------------------------------------ apply */

/* Whether two --split values cut the same take.  Without TAKE/ a value
 * means the source's only take, `only_take` (NULL when the source holds
 * several), so "NAME=..." and "TAKE/NAME=..." are parts of one take when
 * TAKE is that take. */
static bool same_take(const split_arg *a, const split_arg *b, const char *only_take)
{
	const char *ta = a->take ? a->take : only_take, *tb = b->take ? b->take : only_take;
	size_t la = a->take ? a->take_len : only_take ? strlen(only_take) : 0;
	size_t lb = b->take ? b->take_len : only_take ? strlen(only_take) : 0;

	if (!ta || !tb)
		return ta == tb;
	return la == lb && memcmp(ta, tb, la) == 0;
}

/* --split values grouped by take into splits (pointing into `arena`). */
static animc_status splits_from_args(const cli_strings *args, const char *only_take, animc_arena *arena,
				     animc_split **out, uint32_t *count)
{
	animc_split *splits = animc_arena_alloc(arena, args->count, sizeof *splits);
	animc_split_part *parts = animc_arena_alloc(arena, args->count, sizeof *parts);
	bool *used = animc_arena_alloc(arena, args->count, sizeof *used);
	uint32_t n = 0, p = 0;

	if (!splits || !parts || !used)
		return ANIMC_ERR_NOMEM;
	for (size_t i = 0; i < args->count; i++) {
		split_arg a;

		if (used[i] || !parse_split(args->items[i], &a))
			continue;
		splits[n].take = a.take ? animc_arena_strndup(arena, a.take, a.take_len) : NULL;
		splits[n].parts = parts + p;
		for (size_t j = i; j < args->count; j++) {
			split_arg b;

			if (used[j] || !parse_split(args->items[j], &b) || !same_take(&a, &b, only_take))
				continue;
			used[j] = true;
			parts[p].name = animc_arena_strndup(arena, b.name, b.name_len);
			parts[p].start = b.start;
			parts[p].end = b.end;
			if (!parts[p].name)
				return ANIMC_ERR_NOMEM;
			p++;
			splits[n].part_count++;
		}
		n++;
	}
	*out = splits;
	*count = n;
	return ANIMC_OK;
}

/* A document that cannot be opened because it is a symbolic link that
 * leads nowhere or loops: the message names where it leads, since the
 * link itself is there for the user to see. */
static void say_link_target(const char *path, cli_error *err)
{
	char target[1024];
	int error;
	struct stat st;
	ssize_t n;

	if (stat(path, &st) == 0)
		return;
	error = errno;
	if (lstat(path, &st) != 0 || !S_ISLNK(st.st_mode) ||
	    (n = readlink(path, target, sizeof target - 1)) < 0)
		return;
	target[n] = '\0';
	if (error == ELOOP)
		cli_error_set(err, "cannot open: it is a symbolic link to '%s', which loops (%s)", target,
			      strerror(error));
	else
		cli_error_set(err, "cannot open: it is a symbolic link to '%s', which is not there (%s)", target,
			      strerror(error));
}

static animc_status read_split_doc(const char *path, animc_split_doc *doc, animc_diag_sink *sink,
				   const build_author_hooks *hooks)
{
	animc_diag_sink doc_sink = *sink;
	uint8_t *data;
	size_t size;
	cli_error err;
	animc_status status;

	doc_sink.path = path;
	/* Read or not: one not there (a link leading nowhere yet) is a
	 * file the failed source waits for, which animc watch watches. */
	if (hooks && hooks->on_file_read)
		hooks->on_file_read(hooks->user, path);
	if (!cli_read_file(path, &data, &size, &err)) {
		say_link_target(path, &err);
		animc_diag_report(&doc_sink, ANIMC_ERROR, 0, 0, "%s", err.message);
		status = ANIMC_ERR_IO;
	} else if (size == 0) {
		/* Not "no sidecar": an editor saving it truncates it first. */
		animc_diag_report(&doc_sink, ANIMC_ERROR, 0, 0, "the file is empty (one being saved is, for a "
				  "moment): the source keeps the outputs its last build wrote");
		status = ANIMC_ERR_INVALID;
		free(data);
	} else {
		status = animc_split_doc_parse(path, data, size, doc, &doc_sink);
		free(data);
	}
	sink->error_count = doc_sink.error_count;
	sink->warning_count = doc_sink.warning_count;
	return status;
}

static animc_status apply_split(const build_author_options *a, const char *source, bool is_explicit,
				animc_clip_set *set, animc_diag_sink *sink, const build_author_hooks *hooks)
{
	animc_split_doc doc = { 0 };
	animc_arena arena = { 0 };
	animc_split *splits = NULL;
	uint32_t count = 0;
	animc_status status = ANIMC_OK;
	char *sidecar = NULL;
	bool has_doc = false;

	if (is_explicit && a->clips_path) {
		status = read_split_doc(a->clips_path, &doc, sink, hooks);
		has_doc = status == ANIMC_OK;
	} else if (is_explicit && a->splits.count) {
		status = splits_from_args(&a->splits, set->count == 1 ? set->clips[0]->name : NULL, &arena,
					  &splits, &count);
	} else if ((sidecar = build_author_sidecar(a, source, is_explicit))) {
		status = read_split_doc(sidecar, &doc, sink, hooks);
		has_doc = status == ANIMC_OK;
	}
	if (has_doc) {
		splits = &doc.split;
		count = 1;
	}
	for (uint32_t i = 0; status == ANIMC_OK && count && i < set->count; i++)
		status = animc_clip_prepare(set->clips[i], sink);
	if (status == ANIMC_OK && count)
		status = animc_clip_set_split(set, splits, count, sink);
	if (status == ANIMC_OK && count)
		status = animc_clip_set_name_unique(set, sink);
	if (status == ANIMC_OK && count && hooks && hooks->on_cut)
		hooks->on_cut(hooks->user, sidecar ? sidecar : has_doc ? "--clips" : "--split");
	for (uint32_t p = 0; status == ANIMC_OK && has_doc && hooks && hooks->on_part && p < doc.split.part_count; p++)
		hooks->on_part(hooks->user, doc.parts[p].name, doc.split.path,
			       doc.name_lines ? doc.name_lines[p] : doc.parts[p].line);
	animc_split_doc_release(&doc);
	animc_arena_release(&arena);
	free(sidecar);
	return status;
}

animc_status build_author_apply(const build_author_options *a, const char *source, bool is_explicit,
				animc_clip_set *set, animc_diag_sink *sink, const build_author_hooks *hooks)
{
	return apply_split(a, source, is_explicit, set, sink, hooks);
}

/* The pose at 0 of `from`, as a clip of one key per bone. */
static animc_clip *snapshot(const animc_clip *from)
{
	animc_clip *pose = animc_clip_create(from->name);

	if (!pose)
		return NULL;
	for (uint32_t c = 0; c < from->channel_count; c++) {
		const animc_channel *ch = &from->channels[c];
		int64_t i = animc_clip_add_channel(pose, ch->bone, strlen(ch->bone));
		float v[ANIMC_TRACK_COUNT][4];

		if (i < 0)
			goto fail;
		animc_channel_sample(ch, 0, v[0], v[1], v[2]);
		pose->channels[i].key_count = 1;
		for (int k = 0; k < ANIMC_TRACK_COUNT; k++) {
			animc_track *t = &pose->channels[i].tracks[k];

			t->is_present = true;
			t->is_fixed = true;
			t->value_count = 1;
			t->values = animc_clip_alloc_values(pose, (animc_track_kind)k, 1);
			if (!t->values)
				goto fail;
			memcpy(t->values, v[k], animc_track_width[k] * sizeof(float));
		}
	}
	return pose;
fail:
	animc_clip_destroy(pose);
	return NULL;
}

/*
 * The up axis of a clip's root motion without --up-axis: the source's (the
 * one it declares, else z for a RobotGame sequence and y for the rest:
 * animc_clip_up_axis) turned as the conversion
 * turned the bone, so that after --rotate 90,0,0 a Y-up walk's ground is
 * still the ground (up is then z).  A turn that leaves it off every axis
 * (not by quarter turns) has no ground plane of x, y and z to name:
 * ANIMC_UP_DEFAULT, and the caller asks for --up-axis.  `out` is where
 * the up axis points.
 */
static animc_up_axis default_up(const animc_clip *clip, const build_author_frame *frame, double out[3])
{
	const double *turn = frame && frame->is_turned ? frame->turn : NULL;
	animc_up_axis source = frame && frame->world_up != ANIMC_UP_DEFAULT ? frame->world_up : animc_clip_up_axis(clip);
	int up = source == ANIMC_UP_X ? 0 : source == ANIMC_UP_Z ? 2 : 1;
	double v[3] = { 0, 0, 0 }, c[3];

	v[up] = 1;
	memcpy(out, v, sizeof v);
	if (!turn)
		return source;
	/* v + 2w (u x v) + 2 u x (u x v), u the turn's axis part. */
	c[0] = turn[1] * v[2] - turn[2] * v[1];
	c[1] = turn[2] * v[0] - turn[0] * v[2];
	c[2] = turn[0] * v[1] - turn[1] * v[0];
	out[0] = v[0] + 2 * (turn[3] * c[0] + turn[1] * c[2] - turn[2] * c[1]);
	out[1] = v[1] + 2 * (turn[3] * c[1] + turn[2] * c[0] - turn[0] * c[2]);
	out[2] = v[2] + 2 * (turn[3] * c[2] + turn[0] * c[1] - turn[1] * c[0]);
	/* Pointing either way along an axis: the ground plane is the same. */
	for (int k = 0; k < 3; k++)
		if (fabs(out[k]) > 1 - 1e-6)
			return k == 0 ? ANIMC_UP_X : k == 1 ? ANIMC_UP_Y : ANIMC_UP_Z;
	return ANIMC_UP_DEFAULT;
}

/* a then b as one turn, b * a (Hamilton; x y z w). */
static void turn_then(const double a[4], const double b[4], double out[4])
{
	double r[4] = {
		b[3] * a[0] + b[0] * a[3] + b[1] * a[2] - b[2] * a[1],
		b[3] * a[1] - b[0] * a[2] + b[1] * a[3] + b[2] * a[0],
		b[3] * a[2] + b[0] * a[1] - b[1] * a[0] + b[2] * a[3],
		b[3] * a[3] - b[0] * a[0] - b[1] * a[1] - b[2] * a[2],
	};

	memcpy(out, r, sizeof r);
}

/* The turn of the world's up axis into the frame of `bone`'s parent in
 * `tree`: the inverse of the parents' rest rotation.  False when none. */
static bool parents_turn(const animc_skeleton *tree, const char *bone, double out[4])
{
	double parents[4] = { 0, 0, 0, 1 }, n;
	int64_t b = tree->bone_count ? animc_skeleton_find(tree, bone) : -1;

	/* world = R_root * ... * R_parent: each parent's turn after the
	 * frames below it.  Parents come before their children (pre-order). */
	for (int32_t p = b >= 0 ? tree->bones[b].parent : -1, below = (int32_t)b; p >= 0 && p < below;
	     below = p, p = tree->bones[p].parent) {
		const float *r = tree->bones[p].rotation;
		double q[4] = { r[0], r[1], r[2], r[3] };

		n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
		if (!(n > 0.5 && n < 2))
			continue;
		for (int k = 0; k < 4; k++)
			q[k] /= n;
		turn_then(parents, q, parents);
	}
	if (!(fabs(fabs(parents[3]) - 1) > 1e-9))
		return false;
	out[0] = -parents[0], out[1] = -parents[1], out[2] = -parents[2], out[3] = parents[3];
	return true;
}

/* The first error a tree's loader reports, for the warning that it did not load. */
static void keep_first_error(void *user, const animc_diag *d)
{
	char *why = user;

	if (d->severity == ANIMC_ERROR && !why[0])
		snprintf(why, 256, "%s", d->message);
}

static bool has_bone(const animc_clip *clip, const char *bone)
{
	for (uint32_t c = 0; c < clip->channel_count; c++)
		if (strcmp(clip->channels[c].bone, bone) == 0)
			return true;
	return false;
}

/* How many of the set's clips animate `bone`. */
static uint32_t clips_with_bone(const animc_clip_set *set, const char *bone)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < set->count; i++)
		n += has_bone(set->clips[i], bone);
	return n;
}

void build_author_frame_of(const build_author_options *a, const animc_clip_set *set, const animc_importer *importer,
			   const char *path, const animc_skeleton *model, const double *units_turn,
			   build_author_frame *out, animc_diag_sink *sink)
{
	animc_skeleton tree = { 0 };
	const animc_skeleton *frame = NULL;
	char why[256] = "";

	memset(out, 0, sizeof *out);
	if (!a->root_bone)
		return;
	/* BONE's parents are the model's when it has BONE (the clip plays
	 * on it), else those of the source's own tree as read; read only
	 * when something needs them. */
	if (model && model->bone_count && animc_skeleton_find(model, a->root_bone) >= 0) {
		/* The model's world, as its parents turn it: not the source's. */
		frame = model;
		out->world_up = model->declared_up != ANIMC_UP_DEFAULT ? model->declared_up : ANIMC_UP_Y;
	} else if (a->up == ANIMC_UP_DEFAULT && importer &&
		   importer->load_skeleton) {
		animc_diag_sink catch = { keep_first_error, why, path, 0, 0 };

		if (importer->load_skeleton(path, &tree, &catch) == ANIMC_OK)
			frame = &tree;
		else if (a->up == ANIMC_UP_DEFAULT)
			animc_diag_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_ROOT_MOTION_FRAME, 0, 0,
					       "--root-motion: the source's node tree cannot be read (%s): the rest "
					       "rotation of the parents of '%s' is not known, and the model's up axis "
					       "is taken unturned by them; give --up-axis if that is wrong",
					       why[0] ? why : "no reason given", a->root_bone);
	}
	if (frame && a->up == ANIMC_UP_DEFAULT)
		out->is_turned = parents_turn(frame, a->root_bone, out->turn);
	/* Known when a clip animates it; a node no clip animates (the
	 * Armature, picked for the hips) is a mistake to say, unless the
	 * --skeleton model has the bone (the caller). */
	out->knows_bone = clips_with_bone(set, a->root_bone) > 0;
	animc_skeleton_release(&tree);
	/* The tree as read: the units turn comes after. */
	if (units_turn && out->is_turned)
		turn_then(out->turn, units_turn, out->turn);
	else if (units_turn)
		memcpy(out->turn, units_turn, sizeof out->turn);
	out->is_turned = out->is_turned || units_turn;
}

animc_status build_author_finish(const build_author_options *a, animc_clip_set *set,
				 const animc_skeleton *skeleton, const animc_clip *reference,
				 const animc_skeleton *rest, const build_author_frame *frame, animc_clip ***motions,
				 animc_diag_sink *sink)
{
	animc_status status = ANIMC_OK;
	bool failed = false;
	/* BONE is animated by a clip of the source: one that leaves it alone
	 * (an upper-body layer beside the walks) plays in place, its motion
	 * none. */
	bool knows_bone = a->root_bone && ((frame && frame->knows_bone) || clips_with_bone(set, a->root_bone) > 0);

	*motions = NULL;
	if (!a->root_bone && !a->has_additive)
		return ANIMC_OK;
	for (uint32_t i = 0; i < set->count && status == ANIMC_OK; i++)
		status = animc_clip_prepare(set->clips[i], sink);
	/* The conversion turns every clip alike: one error for the source. */
	for (uint32_t i = 0; status == ANIMC_OK && a->root_bone && a->up == ANIMC_UP_DEFAULT && i < set->count; i++) {
		double v[3];

		if (default_up(set->clips[i], frame, v) != ANIMC_UP_DEFAULT)
			continue;
		animc_diag_report(sink, ANIMC_ERROR, 0, 0,
				  "--root-motion: the model's up axis, %c, is (%.3g, %.3g, %.3g) in the frame of the "
				  "parent of '%s' (turned by the parents' rest rotation, --rotate or the item's "
				  "RotationX/Y/Z), along none of x, y and z: give --up-axis x|y|z, the axis of that "
				  "frame that is up",
				  "xyz"[animc_clip_up_axis(set->clips[i]) - ANIMC_UP_X], v[0], v[1], v[2], a->root_bone);
		return ANIMC_ERR_ARGUMENT;
	}
	if (status == ANIMC_OK && a->root_bone && set->count) {
		*motions = calloc(set->count, sizeof **motions);
		if (!*motions)
			return ANIMC_ERR_NOMEM;
		for (uint32_t i = 0; i < set->count; i++) {
			animc_root_motion_options o = { a->root_bone, a->up, a->root_yaw, a->recompose_error };
			animc_status s;
			double v[3];

			if (o.up == ANIMC_UP_DEFAULT)
				o.up = default_up(set->clips[i], frame, v);
			if (knows_bone && !has_bone(set->clips[i], a->root_bone)) {
				s = animc_clip_still_motion(set->clips[i], a->root_bone, &(*motions)[i]);
				animc_clip_report(sink, ANIMC_NOTE, set->clips[i], NULL,
						  "--root-motion: animates no bone '%s': it plays in place, and its "
						  "motion file holds no motion", a->root_bone);
			} else {
				s = animc_clip_extract_motion(set->clips[i], &o, &(*motions)[i], sink);
			}
			if (s == ANIMC_ERR_NOMEM)
				status = s;
			else if (s != ANIMC_OK)
				(*motions)[i] = NULL, failed = true;
		}
	}
	/* A clip without the bone fails alone (reported): the others are
	 * written, and the source still fails. */
	for (uint32_t i = set->count; failed && status == ANIMC_OK && i-- > 0;)
		if (!(*motions)[i]) {
			animc_clip_set_remove(set, i);
			memmove(&(*motions)[i], &(*motions)[i + 1], (set->count - i) * sizeof **motions);
		}
	if (status == ANIMC_OK && a->has_additive) {
		animc_additive_options o = { a->additive, skeleton, NULL, NULL };

		if (a->additive == ANIMC_ADDITIVE_CLIP)
			o.reference = reference, o.rest = rest;
		for (uint32_t i = 0; i < set->count && status == ANIMC_OK; i++)
			status = animc_clip_make_additive(set->clips[i], &o, sink);
	}
	return status;
}

animc_status build_author_reference(const build_author_options *a, const animc_clip_set *set, animc_clip **out,
				    animc_diag_sink *sink)
{
	char list[1024];
	size_t used = 0;

	*out = NULL;
	if (!a->has_additive || a->additive != ANIMC_ADDITIVE_CLIP)
		return ANIMC_OK;
	for (uint32_t i = 0; i < set->count; i++)
		if (strcmp(set->clips[i]->name, a->additive_clip) == 0)
			return (*out = snapshot(set->clips[i])) ? ANIMC_OK : ANIMC_ERR_NOMEM;
	/* One clip without a name (a RobotGame or XNA AnimationSequence) has
	 * no name to list: say what can be given instead. */
	if (set->count == 1 && !set->clips[0]->name[0]) {
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "--additive-reference: no clip '%s' in this source, "
				  "which is one unnamed clip: give --additive-reference first-frame or bind",
				  a->additive_clip);
		return ANIMC_ERR_NOT_FOUND;
	}
	list[0] = '\0';
	for (uint32_t i = 0; i < set->count && used < sizeof list; i++)
		used += (size_t)snprintf(list + used, sizeof list - used, "%s'%s'", i ? ", " : "", set->clips[i]->name);
	animc_diag_report(sink, ANIMC_ERROR, 0, 0, "--additive-reference: no clip '%s' in this source; the clips are: %s",
			  a->additive_clip, set->count ? list : "none");
	return ANIMC_ERR_NOT_FOUND;
}

bool build_author_reference_lacks(const animc_clip_set *set, const animc_clip *reference)
{
	for (uint32_t i = 0; reference && i < set->count; i++)
		for (uint32_t c = 0; c < set->clips[i]->channel_count; c++) {
			const char *bone = set->clips[i]->channels[c].bone;
			uint32_t r = 0;

			while (r < reference->channel_count && strcmp(reference->channels[r].bone, bone) != 0)
				r++;
			if (r == reference->channel_count)
				return true;
		}
	return false;
}

void build_author_motions_release(animc_clip **motions, uint32_t count)
{
	for (uint32_t i = 0; motions && i < count; i++)
		animc_clip_destroy(motions[i]);
	free(motions);
}

char *build_motion_name(const char *clip_output)
{
	const char *base = cli_basename(clip_output);
	const char *dot = strchr(base, '.');
	size_t stem = dot ? (size_t)(dot - clip_output) : strlen(clip_output);
	char *out = NULL;

	/* The clip's name may hold dots ("Run.1"); its extension is what the
	 * writer appends: .xnb or .xnb.zst. */
	if (strlen(clip_output) >= 8 && strcmp(clip_output + strlen(clip_output) - 8, ".xnb.zst") == 0)
		stem = strlen(clip_output) - 8;
	else if (strlen(clip_output) >= 4 && strcmp(clip_output + strlen(clip_output) - 4, ".xnb") == 0)
		stem = strlen(clip_output) - 4;
	if (asprintf(&out, "%.*s.motion%s", (int)stem, clip_output, clip_output + stem) < 0)
		return NULL;
	return out;
}

const char *build_author_additive_name(const build_author_options *a)
{
	if (!a->has_additive)
		return NULL;
	return a->additive == ANIMC_ADDITIVE_FIRST_FRAME ? "first-frame"
	       : a->additive == ANIMC_ADDITIVE_BIND	 ? "bind"
							 : a->additive_clip;
}

char *build_author_split_by(const build_author_options *a, const char *source, bool is_explicit)
{
	if (is_explicit && a->clips_path)
		return strdup(a->clips_path);
	if (is_explicit && a->splits.count)
		return strdup("--split");
	return build_author_sidecar(a, source, is_explicit);
}
