/*
 * compile.c - one job into one result: read the source, find its importer,
 * import, keep the clips --clip asks for, process, check against the
 * skeleton, serialise, name the outputs, hash them, and compute the
 * source's key.  Prints nothing, counts nothing, writes no file: whatever
 * happens lands in the result, which commit and report use.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "compile.h"
#include "engine.h"
#include "fold.h"
#include "isolate.h"

/* Longest file name most file systems take (ext4, XFS, btrfs, NTFS). */
#define NAME_BYTES_MAX 255

/* A part a clip-split document names: its name, the document and the line. */
typedef struct part_place {
	char *name, *path;
	uint32_t line;
} part_place;

typedef struct compile_state {
	const build_ctx *ctx;
	const build_job *job;
	build_result *r;
	cli_strings reads;   /* other files the import read */
	cli_strings missing; /* those of them not there (a failed import's) */
	cli_strings absent;  /* files the import looked for and did not find */
	animc_process_options process;  /* the run's, with a converted skeleton */
	int64_t import_start_ns;        /* CLOCK_REALTIME, as file times are */
	const char *changed;            /* a file read that changed during the import, or NULL */
	char *cut_by;                   /* what cut the source into parts (build_author_hooks), or NULL */
	part_place *parts;              /* where a document names each part it cut */
	size_t part_count;
	bool is_motion_turned;          /* the conversion turned the --root-motion bone: */
	double motion_turn[4];          /* by this, which turns its default up axis */
} compile_state;

static void collect_diag(void *user, const animc_diag *d)
{
	compile_state *cs = user;

	/* About another file (a clip-split sidecar): its name and line lead
	 * the message, which the report prints under the source. */
	if (d->path && strcmp(d->path, cs->job->path) != 0) {
		if (d->line)
			build_result_diag_kind(cs->r, d->severity, d->kind, 0, 0, -1, "%s:%u: %s", d->path, d->line,
					       d->message);
		else
			build_result_diag_kind(cs->r, d->severity, d->kind, 0, 0, -1, "%s: %s", d->path, d->message);
		return;
	}
	build_result_diag_kind(cs->r, d->severity, d->kind, d->line, d->column, d->byte_offset, "%s", d->message);
}

static void compile_state_release(compile_state *cs)
{
	cli_strings_release(&cs->reads);
	cli_strings_release(&cs->missing);
	cli_strings_release(&cs->absent);
	free(cs->cut_by);
	for (size_t i = 0; i < cs->part_count; i++)
		free(cs->parts[i].name), free(cs->parts[i].path);
	free(cs->parts);
}

static void collect_cut(void *user, const char *by)
{
	compile_state *cs = user;

	free(cs->cut_by);
	cs->cut_by = strdup(by);
}

static void collect_part(void *user, const char *name, const char *path, uint32_t line)
{
	compile_state *cs = user;
	part_place *grown = realloc(cs->parts, (cs->part_count + 1) * sizeof *grown);

	if (!grown)
		return;   /* said at the take's line instead */
	cs->parts = grown;
	grown[cs->part_count] = (part_place){ strdup(name), strdup(path), line };
	if (grown[cs->part_count].name && grown[cs->part_count].path)
		cs->part_count++;
	else
		free(grown[cs->part_count].name), free(grown[cs->part_count].path);
}

/* Add `path` to `list` unless it holds it already (an importer opens or
 * looks for a file more than once). */
static void push_once(cli_strings *list, const char *path)
{
	for (size_t i = 0; i < list->count; i++)
		if (strcmp(list->items[i], path) == 0)
			return;
	cli_strings_push(list, path);
}

static void collect_read(void *user, const char *path)
{
	push_once(&((compile_state *)user)->reads, path);
}

static void collect_absent(void *user, const char *path)
{
	push_once(&((compile_state *)user)->absent, path);
}

/* What a source depends on besides its import's reads.  An item depends
 * on its project's files (for depfiles, watches and --prune); what they
 * say of it is in its facts (build_is_project_file).  Every source depends
 * on what loading the --skeleton model read beside it (an Ogre mesh's
 * .skeleton.xml), whose bones its outputs name. */
static void collect_run_reads(compile_state *cs)
{
	const build_ctx *ctx = cs->ctx;
	const build_job *job = cs->job;

	for (size_t i = 0; job->project && i < job->project->file_count; i++)
		collect_read(cs, job->project->files[i]);
	for (size_t i = 0; i < ctx->skeleton_reads.count; i++)
		collect_read(cs, ctx->skeleton_reads.items[i]);
	for (size_t i = 0; i < ctx->skeleton_absent.count; i++)
		collect_absent(cs, ctx->skeleton_absent.items[i]);
}

/* Windows reserves these device names, alone or before a '.', and with
 * spaces after them, which it drops before it looks: COM and LPT with a
 * digit or a superscript one, two or three (UTF-8 C2 B9, C2 B2, C2 B3)
 * too. */
static bool is_reserved_on_windows(const char *name)
{
	static const char *const reserved[] = { "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$" };
	size_t n = strcspn(name, ".");
	char upper[8];

	while (n > 0 && name[n - 1] == ' ')
		n--;

	if (n < 3 || n > 7)
		return false;
	for (size_t i = 0; i < n; i++)
		upper[i] = (char)(name[i] >= 'a' && name[i] <= 'z' ? name[i] - 'a' + 'A' : name[i]);
	upper[n] = '\0';
	for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++)
		if (strcmp(upper, reserved[i]) == 0)
			return true;
	bool port = n >= 4 && (memcmp(upper, "COM", 3) == 0 || memcmp(upper, "LPT", 3) == 0);
	unsigned char a = (unsigned char)upper[3], b = n == 5 ? (unsigned char)upper[4] : 0;

	return port && ((n == 4 && a >= '0' && a <= '9') ||
			(n == 5 && a == 0xC2 && (b == 0xB9 || b == 0xB2 || b == 0xB3)));
}

char *build_safe_name(const char *name, uint32_t index)
{
	size_t n = strlen(name);
	char *out;

	if (!n) {
		out = malloc(24);
		if (out)
			snprintf(out, 24, "clip%u", index);
		return out;
	}
	out = malloc(n + 2);
	if (!out)
		return NULL;
	memcpy(out, name, n + 1);
	for (unsigned char *p = (unsigned char *)out; *p; p++)
		if (*p < 0x20 || *p == 0x7F || strchr("/\\:*?\"<>|", *p))
			*p = '_';
	/* Leading dots would hide the file ("." and ".." would not even be
	 * files): each becomes '_'. */
	for (char *p = out; *p == '.'; p++)
		*p = '_';
	if (is_reserved_on_windows(out)) {
		size_t stem = strcspn(out, ".");

		memmove(out + stem + 1, out + stem, n - stem + 1);
		out[stem] = '_';
	}
	return out;
}

static uint64_t total_keys(const animc_clip *clip)
{
	uint64_t keys = 0;

	for (uint32_t i = 0; i < clip->channel_count; i++)
		keys += clip->channels[i].key_count;
	return keys;
}

/* The clips as "no clip" lists them: 'Walk', 'walk' (written as walk.1.xnb). */
static void list_clips(const animc_clip_set *set, char *const *files, char *list, size_t size)
{
	size_t used = 0;

	list[0] = '\0';
	for (uint32_t i = 0; i < set->count && used < size; i++) {
		char *safe = files[i] ? build_safe_name(files[i], i) : NULL;

		used += (size_t)snprintf(list + used, size - used, "%s'%s'%s%s%s", i ? ", " : "", set->clips[i]->name,
					 safe ? " (written as " : "", safe ? safe : "", safe ? ".xnb)" : "");
		free(safe);
	}
}

/* The names of every clip of `set` into r->held_clips: a --clip run that
 * compiles the source knows which clips it holds now, and so which of the
 * outputs it leaves out are of clips gone.  Left empty (not known) when
 * memory runs out. */
static void hold_clip_names(const animc_clip_set *set, build_result *r)
{
	r->held_clips = set->count ? calloc(set->count, sizeof *r->held_clips) : NULL;
	for (uint32_t i = 0; r->held_clips && i < set->count; i++) {
		if (!(r->held_clips[i] = strdup(set->clips[i]->name))) {
			for (uint32_t k = 0; k < i; k++)
				free(r->held_clips[k]);
			free(r->held_clips);
			r->held_clips = NULL;
			return;
		}
	}
	r->held_clip_count = r->held_clips ? set->count : 0;
}

/* Keep only the clips --clip asked for, each by its own name, and their
 * file names (`files`, parallel to the clips), noting in r every clip
 * held; false (reported) when one is missing. */
static bool filter_clips(const build_options *o, animc_clip_set *set, char **files, build_result *r,
			 animc_diag_sink *sink)
{
	bool ok = true;

	if (!o->clip_names.count || set->is_single_asset)
		return true;
	hold_clip_names(set, r);
	for (size_t n = 0; n < o->clip_names.count; n++) {
		bool found = false;

		for (uint32_t i = 0; i < set->count && !found; i++)
			found = strcmp(set->clips[i]->name, o->clip_names.items[n]) == 0;
		if (!found) {
			char list[1024];

			list_clips(set, files, list, sizeof list);
			animc_diag_report(sink, ANIMC_ERROR, 0, 0, "no clip '%s'; the clips are: %s",
					  o->clip_names.items[n], set->count ? list : "none");
			ok = false;
		}
	}
	for (uint32_t i = set->count; ok && i-- > 0;) {
		bool wanted = false;

		for (size_t n = 0; n < o->clip_names.count && !wanted; n++)
			wanted = strcmp(set->clips[i]->name, o->clip_names.items[n]) == 0;
		if (wanted)
			continue;
		free(files[i]);
		memmove(&files[i], &files[i + 1], (size_t)(set->count - i - 1) * sizeof *files);
		animc_clip_set_remove(set, i);
	}
	return ok;
}

/* Process, check and serialise one clip into `out`; false (reported) when
 * it fails. */
static bool prepare_clip(const build_ctx *ctx, const animc_process_options *process, animc_clip *clip,
			 animc_diag_sink *sink, build_output *out)
{
	const build_options *o = ctx->options;
	unsigned errors_before = sink->error_count;
	uint8_t *bytes = NULL;
	size_t size = 0;
	animc_status status = animc_clip_process(clip, process, sink, &out->passes);

	if (status == ANIMC_OK && o->skeleton_path)
		status = animc_skeleton_check(&ctx->skeleton_model, clip, sink);
	if (status == ANIMC_OK)
		status = animc_xnb_write(clip, &o->xnb, &bytes, &size, sink);
	if (status != ANIMC_OK) {
		const char *at = clip->name[0] ? "clip '" : "", *end = clip->name[0] ? "': " : "";

		/* Said as --memory-limit's help says it (the limit is the
		 * likely cause, and the one the user can change). */
		build_memory_cap cap = build_memory_cap_of(o->memory_limit_bytes);

		if (sink->error_count == errors_before && status == ANIMC_ERR_NOMEM && cap.bytes)
			animc_diag_report(sink, ANIMC_ERROR, 0, 0, "%s%s%sran out of memory: compiling it needs "
					  "more than the limit of %llu MiB (%s)", at, clip->name, end,
					  (unsigned long long)(cap.bytes >> 20), cap.by);
		else if (sink->error_count == errors_before)
			animc_diag_report(sink, ANIMC_ERROR, 0, 0, "%s%s%s%s", at, clip->name, end,
					  status == ANIMC_ERR_NOMEM ? "ran out of memory" : "cannot compile");
		free(bytes);
		return false;
	}
	out->bytes = bytes;
	out->size = size;
	build_hash_bytes(bytes, size, &out->hash);
	out->bones = clip->channel_count;
	out->keys = total_keys(clip);
	out->duration_s = clip->duration_s;
	out->ticks_per_second = clip->ticks_per_second;
	return true;
}

/* The root motion `motion` of the clip written as `clip` into `out`,
 * called as the build lines call it ("Walk.motion"; "motion" beside an
 * unnamed clip), in its diagnostics too: under its clip's name a warning
 * about it read as one about the clip.  `out` stays zeroed on failure. */
static void prepare_motion(const build_ctx *ctx, const animc_process_options *process, animc_clip *motion,
			   const build_output *clip, build_output *out, animc_diag_sink *sink)
{
	if (asprintf(&out->clip, "%s%smotion", clip->clip, clip->clip[0] ? "." : "") < 0) {
		out->clip = NULL;
		return;
	}
	/* A game that loops the clip adds the motion at its end once per
	 * loop.  So the motion is written in the original layout under
	 * --layout compact too, reduced within the same bounds but with its
	 * end keys as extracted and no travel on the up axis (keep_ends):
	 * the compact grid's end was off by up to the bound each loop (13
	 * degrees after 1000 loops of a walk), and a reduced end key nudged
	 * within the bound sank 0.7 mm a loop. */
	animc_process_options original = *process;
	original.layout = ANIMC_LAYOUT_ORIGINAL;
	original.reduce.keep_ends = true;
	motion->name = animc_arena_strndup(&motion->arena, out->clip, strlen(out->clip));
	if (motion->name && prepare_clip(ctx, &original, motion, sink, out)) {
		out->name = build_motion_name(clip->name);
		out->is_motion = true;
	}
	if (!out->name) {
		free(out->bytes), free(out->clip);
		memset(out, 0, sizeof *out);
	}
}

/* The place a document names the part `clip`, or NULL (a take, a clip of
 * the source, a part of --split). */
static const part_place *part_of(const compile_state *cs, const animc_clip *clip)
{
	for (size_t i = 0; i < cs->part_count; i++)
		if (strcmp(cs->parts[i].name, clip->name) == 0)
			return &cs->parts[i];
	return NULL;
}

/* The output's name under the job's folder, made from `file` (NULL: the
 * clip's name); NULL (reported) when that cannot be a file name.  With
 * `has_motion`, the clip's root motion (CLIP.motion.xnb beside it) must fit
 * as well: the clip is refused whole rather than written without it. */
static char *output_name(const build_ctx *ctx, const build_job *job, const animc_clip_set *set,
			 uint32_t index, const char *file, bool has_motion, const part_place *part,
			 animc_diag_sink *sink)
{
	const char *ext = ctx->options->xnb.compression == ANIMC_COMPRESSION_ZSTD ? ".xnb.zst" : ".xnb";
	const char *clip = file ? file : set->clips[index]->name;
	char *safe, *name, longest[32];
	size_t size;

	/* The longest file name the clip writes ends so. */
	snprintf(longest, sizeof longest, "%s%s", has_motion ? ".motion" : "", ext);
	if (set->is_single_asset) {
		size = strlen(job->out_base) + strlen(ext) + 1;
		name = malloc(size);
		if (name)
			snprintf(name, size, "%s%s", job->out_base, ext);
		if (name && strlen(job->stem) + strlen(longest) > NAME_BYTES_MAX) {
			animc_diag_report(sink, ANIMC_ERROR, 0, 0,
					  "the output name '%s%s' is %zu bytes, more than the %d a file "
					  "name may have", job->stem, longest, strlen(job->stem) + strlen(longest),
					  NAME_BYTES_MAX);
			free(name);
			return NULL;
		}
		return name;
	}
	safe = build_safe_name(clip, index);
	if (!safe)
		return NULL;
	if (strlen(safe) + strlen(longest) > NAME_BYTES_MAX) {
		/* A part's name is said where its document gives it. */
		animc_diag_sink doc = *sink;

		if (part)
			doc.path = part->path;
		animc_diag_report(&doc, ANIMC_ERROR, part ? part->line : set->clips[index]->line, 0,
				  "%s '%.*s...' (%zu bytes): its name is too long for a file name "
				  "(at most %zu bytes with '%s'); not written", part ? "part" : "clip",
				  40, clip, strlen(clip), NAME_BYTES_MAX - strlen(longest), longest);
		sink->error_count = doc.error_count;
		sink->warning_count = doc.warning_count;
		free(safe);
		return NULL;
	}
	size = strlen(job->out_base) + strlen(safe) + strlen(ext) + 2;
	name = malloc(size);
	if (name)
		snprintf(name, size, "%s/%s%s", job->out_base, safe, ext);
	free(safe);
	return name;
}

/* The name of another file in the key: relative to the source's folder
 * when it lies under it, else its own name (a --clips document, a
 * project's file), so that the key depends neither on where the tree is
 * nor on how a path to it was typed.  Its bytes are in the key too. */
static const char *dep_name(const char *source, const char *dep)
{
	const char *base = cli_basename(source);
	size_t dir_len = (size_t)(base - source);

	return dir_len && strncmp(dep, source, dir_len) == 0 ? dep + dir_len : cli_basename(dep);
}

/* Hash the other files the import read into the result and the key. */
/* A project's file as the run took it (build_project_dep) into `d`;
 * false when it took none. */
static bool taken_dep(const compile_state *cs, const char *path, build_dep *d)
{
	const build_dep *taken = cs->job->project ? build_project_dep(cs->ctx, path) : NULL;

	if (!taken)
		return false;
	*d = *taken;
	d->path = strdup(taken->path);
	return true;
}

static void add_deps(compile_state *cs, XXH3_state_t *key)
{
	build_result *r = cs->r;
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	int64_t now_ns = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;

	if (!cs->reads.count)
		return;
	qsort(cs->reads.items, cs->reads.count, sizeof *cs->reads.items, cli_compare_strings);
	r->deps = calloc(cs->reads.count, sizeof *r->deps);
	if (!r->deps)
		return;
	for (size_t i = 0; i < cs->reads.count; i++) {
		build_dep *d = &r->deps[r->dep_count];
		cli_source src;
		uint8_t *data = NULL;
		size_t size = 0;
		struct stat st;
		cli_error err;

		if (taken_dep(cs, cs->reads.items[i], d)) {
			r->dep_count += d->path != NULL;
			continue;
		}
		/* Read where the import may have read it, as the checks of a
		 * record read it: not through a folder swapped for a link since. */
		int fd = build_dep_open(cs->ctx->options, cs->job, cs->reads.items[i]);

		if (!cli_source_take(&src, fd, cs->reads.items[i], &err)) {
			/* Missing (the import failed on it), or gone since:
			 * the next run sees the change.  One that now lies
			 * where it may not be read is not what the import
			 * read: as a file changed meanwhile, nothing is
			 * recorded of it, nor written. */
			if (src.open_error == ENOENT || src.open_error == ENOTDIR)
				cli_strings_push(&cs->missing, cs->reads.items[i]);
			else if (src.open_error == EPERM && !cs->changed)
				cs->changed = cs->reads.items[i];
			continue;
		}
		if (fstat(src.fd, &st) != 0 || !cli_source_read_rest(&src, &data, &size, &err)) {
			cli_source_close(&src);
			continue;
		}
		d->path = strdup(cs->reads.items[i]);
		if (!d->path) {
			free(data);
			continue;
		}
		build_source_state_from(&st, &d->state);
		/* Written while the import ran: what it read may not be these
		 * bytes, and recording them would call a stale output up to
		 * date.  (A time past now is a clock's, not a write's.) */
		if (build_file_written_between(&st, cs->import_start_ns, now_ns) && !cs->changed)
			cs->changed = cs->reads.items[i];
		build_file_state_distrust_recent(&d->state);
		build_hash_bytes(data, size, &d->hash);
		if (!build_is_project_file(cs->ctx->options, d->path))
			build_key_file("file", dep_name(cs->job->path, d->path), data, size, build_key_emit_xxh3,
				       key);
		free(data);
		r->dep_count++;
	}
}

/* The files the import looked for and did not find join the key and the
 * result, with no state (build_dep_is_absent): a file made under such a
 * name (an SMD's STEM_animation.txt) compiles the source again.  One that
 * is there now came while the import ran. */
static void add_absent_deps(compile_state *cs, XXH3_state_t *key)
{
	build_result *r = cs->r;
	build_dep *grown;

	if (!cs->absent.count)
		return;
	qsort(cs->absent.items, cs->absent.count, sizeof *cs->absent.items, cli_compare_strings);
	grown = realloc(r->deps, (r->dep_count + cs->absent.count) * sizeof *grown);
	if (!grown)
		return;
	r->deps = grown;
	for (size_t i = 0; i < cs->absent.count; i++) {
		build_dep *d = &r->deps[r->dep_count];

		if (!build_path_is_absent(cs->absent.items[i])) {
			if (!cs->changed)
				cs->changed = cs->absent.items[i];
			continue;
		}
		memset(d, 0, sizeof *d);
		d->path = strdup(cs->absent.items[i]);
		if (!d->path)
			continue;
		build_key_absent(dep_name(cs->job->path, d->path), build_key_emit_xxh3, key);
		r->dep_count++;
	}
}

/* A failed import's files that were not there (a glTF's buffer not
 * copied in yet) are its dependencies too, recorded with no state: a
 * failed source is compiled again by every run anyway, and `animc watch`
 * watches them, to build it again once they are there. */
static void add_missing_deps(compile_state *cs)
{
	build_result *r = cs->r;
	build_dep *grown;

	if (!cs->missing.count)
		return;
	grown = realloc(r->deps, (r->dep_count + cs->missing.count) * sizeof *grown);
	if (!grown)
		return;
	r->deps = grown;
	for (size_t i = 0; i < cs->missing.count; i++) {
		build_dep *d = &r->deps[r->dep_count];

		memset(d, 0, sizeof *d);
		d->path = strdup(cs->missing.items[i]);
		if (d->path)
			r->dep_count++;
	}
}

/* "ran out of memory", said plainly, when an import hit the worker's cap
 * (C++ readers say it as std::bad_alloc). */
static void explain_memory(const build_ctx *ctx, build_result *r, uint64_t read_bytes, const cli_strings *reads)
{
	struct stat st;

	/* What the import read: the source, and a glTF's buffers (by their
	 * size: one past the memory left is no dependency). */
	for (size_t i = 0; i < reads->count; i++)
		if (stat(reads->items[i], &st) == 0 && st.st_size > 0)
			read_bytes += (uint64_t)st.st_size;
	/* The error that says it, said once and plainly (a second error for
	 * the same cause counted the failure twice). */
	for (uint32_t i = 0; i < r->diag_count; i++) {
		build_diag *d = &r->diags[i];
		char *said;

		if (d->severity != ANIMC_ERROR)
			continue;
		if (strstr(d->message, "ran out of memory"))
			return;   /* said already, by the pass that ran out */
		said = build_memory_message(d->message, ctx->options->memory_limit_bytes, read_bytes);
		if (said) {
			free(d->message);
			d->message = said;
			return;
		}
	}
}

/* A clip's file name and its position, sorted by name. */
typedef struct named_file {
	char *name;
	uint32_t index;
} named_file;

/* File names compare as Windows and macOS compare them: letters alike in
 * either case (fold.h).  Walk.xnb and walk.xnb are one file there. */
static int compare_named_files(const void *a, const void *b)
{
	const named_file *x = a, *y = b;
	int c = build_fold_compare(x->name, y->name);

	return c ? c : (x->index > y->index) - (x->index < y->index);
}

static bool file_name_taken(const named_file *files, uint32_t n, const char *name)
{
	for (uint32_t i = 0; i < n; i++)   /* n is small: the clips of one source */
		if (build_fold_compare(files[i].name, name) == 0)
			return true;
	return false;
}

/* The clip of a run of one file name (files[run] to files[end - 1]) that
 * keeps the name: the first whose name is the file name as it stands
 * ('Walk_Run' before 'Walk/Run', whose '/' was replaced), else the first. */
static uint32_t keeper_of(const animc_clip_set *set, const named_file *files, uint32_t run, uint32_t end)
{
	/* A run is in the clips' order (compare_named_files). */
	for (uint32_t k = run; k < end; k++)
		if (strcmp(set->clips[files[k].index]->name, files[k].name) == 0)
			return k;
	return run;
}

/* The clash said where the clip's name is given: a part's at its line in
 * the document that cut it, another clip's at its own. */
static void say_clash(const compile_state *cs, const animc_clip *clip, animc_diag_sink *sink, const char *of,
		      const char *first, const char *first_file, bool by_case, const char *file)
{
	static const char fmt[] = "its name makes the file name of %sclip '%s' (%s.xnb%s); written as %s.xnb: give "
				  "each clip a name that makes a file name of its own";
	const char *cased = by_case ? ", on file systems that ignore case" : "";
	const part_place *part = part_of(cs, clip);

	if (part) {
		animc_diag_sink doc = *sink;
		char what[1024];

		doc.path = part->path;
		snprintf(what, sizeof what, fmt, of, first, first_file, cased, file);
		animc_diag_report_kind(&doc, ANIMC_WARNING, ANIMC_WARN_CLIP_NAME_CLASH, part->line, 0,
				       "clip '%s': %s", clip->name, what);
		sink->warning_count = doc.warning_count;
		return;
	}
	animc_clip_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_CLIP_NAME_CLASH, clip, NULL, fmt, of, first,
			       first_file, cased, file);
}

/* Whether `name` is, but for case, the root motion file name of one of
 * the clips' files (NAME.motion). */
static bool motion_name_taken(const named_file *files, uint32_t n, const char *name)
{
	for (uint32_t i = 0; i < n; i++) {
		char *motion;

		if (asprintf(&motion, "%s.motion", files[i].name) < 0)
			continue;
		bool taken = build_fold_compare(motion, name) == 0;
		free(motion);
		if (taken)
			return true;
	}
	return false;
}

/* Clip `clip` makes, as written, the file of the root motion of clip
 * `owner`, whose file is `owner_file`: said where the clip is named. */
static void say_motion_named(const compile_state *cs, const animc_clip *clip, const animc_clip *owner,
			     const char *owner_file, animc_diag_sink *sink)
{
	const part_place *part = part_of(cs, clip);
	animc_diag_sink doc = *sink;

	if (!part) {
		animc_clip_report(sink, ANIMC_ERROR, clip, NULL,
				  "its name is that of the root motion file of clip '%s' (%s.motion.xnb), which "
				  "--root-motion writes beside it; nothing written: give the clip another name",
				  owner->name, owner_file);
		return;
	}
	doc.path = part->path;
	animc_diag_report(&doc, ANIMC_ERROR, part->line, 0,
			  "part '%s' is named as the root motion file of clip '%s' (%s.motion.xnb), which "
			  "--root-motion writes beside it; nothing written: give the part another name", clip->name,
			  owner->name, owner_file);
	sink->error_count = doc.error_count;
	sink->warning_count = doc.warning_count;
}

/* Clip files[j] makes, but for the case of its letters, the file of the
 * root motion of clip `owner`: one file where case is ignored (Windows,
 * macOS).  Written as NAME.1 (out[]) with a clip-name-clash warning, as
 * clips of names alike but for case are.  False when out of memory. */
static bool rename_from_motion(const compile_state *cs, const animc_clip_set *set, named_file *files, uint32_t n,
			       uint32_t j, const animc_clip *owner, const char *owner_file, char **out,
			       animc_diag_sink *sink)
{
	const animc_clip *clip = set->clips[files[j].index];
	char *name = NULL, *safe = NULL, motion[NAME_BYTES_MAX + 16];
	bool ok = true;

	for (unsigned suffix = 1; ok; suffix++) {
		free(name), free(safe);
		name = safe = NULL;
		ok = asprintf(&name, "%s.%u", clip->name, suffix) >= 0 &&
		     (safe = build_safe_name(name, files[j].index)) != NULL;
		if (ok && !file_name_taken(files, n, safe) && !motion_name_taken(files, n, safe))
			break;
	}
	if (!ok) {
		free(name), free(safe);
		return false;
	}
	snprintf(motion, sizeof motion, "%s.motion", owner_file);
	say_clash(cs, clip, sink, "the root motion of ", owner->name, motion, true, safe);
	free(files[j].name);
	files[j].name = safe;
	free(out[files[j].index]);
	out[files[j].index] = name;
	return true;
}

/* Under --root-motion, each clip's file NAME has its motion beside it as
 * NAME.motion: a clip whose file would be that one is refused (the
 * source fails before writing anything: which of the two a game loads is
 * no guess to make), and one that is it but for case is renamed
 * (rename_from_motion).  False when the source fails so, or out of
 * memory. */
static bool reserve_motion_names(const compile_state *cs, const animc_clip_set *set, named_file *files, uint32_t n,
				 char **out, animc_diag_sink *sink)
{
	bool ok = true, refused = false;

	if (!cs->ctx->options->author.root_bone)
		return true;
	for (uint32_t i = 0; ok && i < n; i++) {
		char *motion;

		if (asprintf(&motion, "%s.motion", files[i].name) < 0)
			return false;
		for (uint32_t j = 0; ok && j < n; j++) {
			const animc_clip *owner = set->clips[files[i].index];

			if (j == i || build_fold_compare(files[j].name, motion) != 0)
				continue;
			if (strcmp(files[j].name, motion) == 0) {
				say_motion_named(cs, set->clips[files[j].index], owner, files[i].name, sink);
				refused = true;
			} else {
				ok = rename_from_motion(cs, set, files, n, j, owner, files[i].name, out, sink);
			}
		}
		free(motion);
	}
	return ok && !refused;
}

/*
 * Clips whose names make one file name ('a/b' and 'a:b' both a_b.xnb, or
 * 'Walk' and 'walk' on a file system that ignores case, as Windows' and
 * macOS' do): one keeps it (keeper_of), the others are written as
 * NAME.1.xnb, NAME.2.xnb, ... with a warning.  Decided over all the
 * source's clips, before --clip picks, so that a clip's file does not
 * depend on --clip; the clips keep their names (--clip, the manifest and
 * the report know them so).  files[i] receives the name clip i's file is
 * made from, or NULL for its own name.
 */
static bool unique_file_names(const compile_state *cs, const animc_clip_set *set, char **out,
			      animc_diag_sink *sink)
{
	uint32_t n = set->count;
	named_file *files;
	bool ok = true;

	if (set->is_single_asset || n < 2)
		return true;
	files = calloc(n, sizeof *files);
	if (!files)
		return false;
	for (uint32_t i = 0; i < n && ok; i++) {
		files[i].index = i;
		ok = (files[i].name = build_safe_name(set->clips[i]->name, i)) != NULL;
	}
	if (ok)
		qsort(files, n, sizeof *files, compare_named_files);
	/* Each run of one file name is compared with its keeper, never with
	 * a renamed one. */
	for (uint32_t run = 0, end; ok && run < n; run = end) {
		for (end = run + 1; end < n && build_fold_compare(files[end].name, files[run].name) == 0; end++)
			;
		uint32_t keep = keeper_of(set, files, run, end);
		const char *first = set->clips[files[keep].index]->name, *first_file = files[keep].name;

		for (uint32_t i = run; ok && i < end; i++) {
			const animc_clip *clip = set->clips[files[i].index];
			char *name = NULL, *safe = NULL;

			if (i == keep || strcmp(clip->name, first) == 0)
				continue;
			for (unsigned suffix = 1; ok; suffix++) {
				free(name), free(safe);
				name = safe = NULL;
				ok = asprintf(&name, "%s.%u", clip->name, suffix) >= 0 &&
				     (safe = build_safe_name(name, files[i].index)) != NULL;
				if (ok && !file_name_taken(files, n, safe))
					break;
			}
			if (ok)
				say_clash(cs, clip, sink, "", first, first_file, strcmp(files[i].name, first_file) != 0,
					  safe);
			if (ok) {
				free(files[i].name);
				files[i].name = safe;
				out[files[i].index] = name;
				name = safe = NULL;
			}
			free(name), free(safe);
		}
	}
	if (ok)
		ok = reserve_motion_names(cs, set, files, n, out, sink);
	for (uint32_t i = 0; i < n; i++)
		free(files[i].name);
	free(files);
	return ok;
}

/* The source's own node tree in its clips' units, for the rest pose of the
 * bones an --additive-reference clip does not animate; left empty when the
 * format holds no model or the tree cannot be read (--skeleton's serves
 * then, and without it the additive pass warns). */
static void load_source_rest(const compile_state *cs, const animc_importer *importer, animc_skeleton *out)
{
	const animc_units *units = cs->job->has_units ? &cs->job->units : &cs->ctx->options->units;

	if (!importer->load_skeleton || importer->load_skeleton(cs->job->path, out, NULL) != ANIMC_OK ||
	    (!animc_units_is_identity(units) && animc_skeleton_apply_units(out, units, NULL) != ANIMC_OK))
		animc_skeleton_release(out);
}

static void files_release(char **files, uint32_t count)
{
	for (uint32_t i = 0; files && i < count; i++)
		free(files[i]);
	free(files);
}

static void compile_clips(compile_state *cs, const animc_importer *importer, animc_clip_set *set,
			  animc_diag_sink *sink)
{
	const build_ctx *ctx = cs->ctx;
	build_result *r = cs->r;
	build_output *outs;
	uint32_t written = 0, count;
	animc_clip **motions = NULL, *reference = NULL;
	const animc_skeleton *skeleton = cs->process.reduce.skeleton ? cs->process.reduce.skeleton
				       : ctx->skeleton_loaded ? &ctx->skeleton_model : NULL;

	/* The root motion's frame, the additive reference and the file
	 * names from every clip, before --clip chooses. */
	build_author_frame frame;
	build_author_frame_of(&ctx->options->author, set, importer, cs->job->path,
			      ctx->skeleton_loaded ? &ctx->skeleton_model : NULL,
			      cs->is_motion_turned ? cs->motion_turn : NULL, &frame, sink);
	/* A bone no clip of the source animates is known when the --skeleton
	 * model has it: an upper-body layer kept apart from the walks (a
	 * RobotGame character, one clip a file) then plays in place. */
	if (ctx->options->author.root_bone && !frame.knows_bone && ctx->skeleton_loaded)
		frame.knows_bone = animc_skeleton_find(&ctx->skeleton_model, ctx->options->author.root_bone) >= 0;
	char **files = calloc(set->count + 1, sizeof *files);
	if (!files || (set->count && build_author_reference(&ctx->options->author, set, &reference, sink) != ANIMC_OK) ||
	    !unique_file_names(cs, set, files, sink) || !filter_clips(ctx->options, set, files, r, sink) || !set->count) {
		if (!files)
			animc_diag_report(sink, ANIMC_ERROR, 0, 0, "out of memory");
		files_release(files, set->count);
		animc_clip_destroy(reference);
		return;
	}
	/* Read again only when a clip has a bone the reference lacks. */
	animc_skeleton rest = { 0 };
	if (build_author_reference_lacks(set, reference))
		load_source_rest(cs, importer, &rest);
	animc_status authored = build_author_finish(&ctx->options->author, set, skeleton, reference,
						    rest.bone_count ? &rest : NULL, &frame, &motions, sink);
	animc_clip_destroy(reference);
	animc_skeleton_release(&rest);
	if (authored != ANIMC_OK) {
		build_author_motions_release(motions, set->count);
		files_release(files, set->count);
		return;
	}
	/* Each clip, then its motion (--root-motion). */
	count = motions ? 2 * set->count : set->count;
	outs = calloc(count, sizeof *outs);
	if (!outs) {
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "out of memory");
		build_author_motions_release(motions, set->count);
		files_release(files, set->count);
		return;
	}
	/* A clip that fails alone leaves the others; the source still fails.
	 * A source that fails as a whole (--warnings-as-errors) writes nothing:
	 * warnings_fail drops them all. */
	for (uint32_t i = 0; i < set->count; i++) {
		build_output *o = motions ? &outs[2 * i] : &outs[i];

		if (!prepare_clip(ctx, &cs->process, set->clips[i], sink, o))
			continue;
		o->name = output_name(ctx, cs->job, set, i, files[i], motions && motions[i],
				      part_of(cs, set->clips[i]), sink);
		o->clip = strdup(set->is_single_asset ? "" : set->clips[i]->name);
		if (o->name && o->clip && motions && motions[i])
			prepare_motion(ctx, &cs->process, motions[i], o, o + 1, sink);
		/* The clip in place and its motion are one result: a clip
		 * written without its motion would stand still in a game. */
		bool lost_motion = o->name && o->clip && motions && motions[i] && !o[1].bytes;
		if (!o->name || !o->clip || lost_motion) {
			free(o->bytes);
			free(o->name);
			free(o->clip);
			memset(o, 0, sizeof *o);
		}
	}
	build_author_motions_release(motions, set->count);
	files_release(files, set->count);
	for (uint32_t i = 0; i < count; i++)
		if (outs[i].bytes)
			outs[written++] = outs[i];
	r->outputs = outs;
	r->output_count = written;
}

/* What took a translation past a float, as given: "--scale 10 takes", "the
 * rotation (90, 0, 45 degrees about X, Y, Z) takes", or both "take"
 * (`scale_name` names the scale: --scale, or a .mgcb item's Scale). */
static void past_float_by(const animc_units *units, const char *scale_name, char *buf, size_t size)
{
	bool is_scaled = units->scale != 0 && units->scale != 1, is_turned = animc_units_has_rotation(units);
	int at = 0;

	buf[0] = '\0';
	if (is_scaled || !is_turned)
		at = snprintf(buf, size, "%s %g%s", scale_name ? scale_name : "--scale", units->scale,
			      is_turned ? " and " : "");
	if (is_turned && at >= 0 && (size_t)at < size)
		at += snprintf(buf + at, size - (size_t)at, "the rotation (%g, %g, %g degrees about X, Y, Z)",
			       units->rotation_deg[0], units->rotation_deg[1], units->rotation_deg[2]);
	if (at >= 0 && (size_t)at < size)
		snprintf(buf + at, size - (size_t)at, is_scaled && is_turned ? " take" : " takes");
}

/* A translation --scale or the rotation (or what `scale_name` names, a
 * .mgcb item's Scale) took past what a float holds: said naming it and the
 * bone, rather than left to validation, which would blame the source's key. */
static bool scaled_within_float(const animc_clip_set *set, const animc_units *units, const char *scale_name,
				animc_diag_sink *sink)
{
	for (uint32_t i = 0; i < set->count; i++) {
		const animc_clip *clip = set->clips[i];

		for (uint32_t c = 0; c < clip->channel_count; c++) {
			const animc_track *t = &clip->channels[c].tracks[ANIMC_TRANSLATION];

			for (size_t k = 0; t->is_present && k < (size_t)t->value_count * 3; k++) {
				char by[256];

				if (isfinite(t->values[k]))
					continue;
				past_float_by(units, scale_name, by, sizeof by);
				animc_clip_report(sink, ANIMC_ERROR, clip, &clip->channels[c],
						  "%s its translation past what a float holds", by);
				return false;
			}
		}
	}
	return true;
}

/* What gives the source's units that change its keys, named as the user
 * gave it: "--scale changes", "--scale and --rotate change", "its .mgcb
 * item's Scale and RotationX change" (an item's parameter replaces the
 * option's), in buf; NULL when the units change nothing. */
static const char *units_given_by(const build_job *job, const animc_units *options, char *buf, size_t size)
{
	static const char *const axes[] = { "RotationX", "RotationY", "RotationZ" };
	const animc_units *units = job->has_units ? &job->units : options;
	const char *opt[2], *item[4];
	unsigned n_opt = 0, n_item = 0;
	int at;

	if (animc_units_is_identity(units))
		return NULL;
	if (units->scale != 0 && units->scale != 1) {
		if (job->has_units && units->scale != options->scale)
			item[n_item++] = "Scale";
		else
			opt[n_opt++] = "--scale";
	}
	for (int a = 0; a < 3; a++) {
		if (units->rotation_deg[a] == 0)
			continue;
		if (job->has_units && units->rotation_deg[a] != options->rotation_deg[a])
			item[n_item++] = axes[a];
		else if (!n_opt || strcmp(opt[n_opt - 1], "--rotate") != 0)
			opt[n_opt++] = "--rotate";
	}
	at = snprintf(buf, size, "%s%s%s", n_opt ? opt[0] : "", n_opt > 1 ? " and " : "", n_opt > 1 ? opt[1] : "");
	if (n_item)
		at += snprintf(buf + at, size - (size_t)at, "%sits .mgcb item's ", n_opt ? " and " : "");
	for (unsigned i = 0; i < n_item; i++)
		at += snprintf(buf + at, size - (size_t)at, "%s%s", i == 0 ? "" : i + 1 < n_item ? ", " : " and ",
			       item[i]);
	snprintf(buf + at, size - (size_t)at, n_opt + n_item > 1 ? " change" : " changes");
	return buf;
}

/* --exact on a RobotGame sequence writes the original pipeline's bytes,
 * which a conversion, an authoring option or a cut (its parts carry the
 * take's is_sequence_source) would change: false (reported) when one is
 * given.  Other sources keep their keys under --exact and take them. */
static bool exact_allows(const compile_state *cs, const animc_clip_set *set, animc_diag_sink *sink)
{
	const build_options *o = cs->ctx->options;
	char given[128];
	const char *what = units_given_by(cs->job, &o->units, given, sizeof given);

	char cut[320];

	if (!what)
		what = o->author.root_bone ? "--root-motion changes"
		       : o->author.has_additive ? "--additive-reference changes"
		       : NULL;

	/* A sidecar cuts a source of a folder build too: named, as the
	 * user may not know it is there. */
	if (!what && cs->cut_by) {
		if (cs->cut_by[0] == '-')
			snprintf(cut, sizeof cut, "%s changes", cs->cut_by);
		else
			snprintf(cut, sizeof cut, "its sidecar %.256s changes", cli_basename(cs->cut_by));
		what = cut;
	}

	if (!o->process.exact || !what)
		return true;
	for (uint32_t i = 0; i < set->count; i++)
		if (set->clips[i]->is_sequence_source) {
			animc_diag_report(sink, ANIMC_ERROR, set->clips[i]->line, 0,
					  "--exact writes the original pipeline's bytes for this RobotGame "
					  "sequence, and %s them: leave out one or the other", what);
			return false;
		}
	return true;
}

bool build_units_convert(const animc_units *units, const char *scale_name, const char *root_bone,
			 const char *warn_clip, animc_clip_set *set, bool *is_motion_turned, double motion_turn[4],
			 animc_diag_sink *sink)
{
	bool ok = true;

	if (animc_units_is_identity(units) || !set->count)
		return true;
	/* Every bone turns with the model, the --root-motion bone's parent
	 * frame and so its travel's up axis too. */
	if (root_bone && animc_units_has_rotation(units)) {
		*is_motion_turned = true;
		animc_units_rotation(units, motion_turn);
	}
	for (uint32_t i = 0; i < set->count && ok; i++) {
		bool is_said = !warn_clip || strcmp(set->clips[i]->name, warn_clip) == 0;

		ok = animc_clip_apply_units(set->clips[i], units, is_said ? sink : NULL) == ANIMC_OK;
	}
	if (!ok)
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "out of memory");
	return ok && scaled_within_float(set, units, scale_name, sink);
}

/* --scale and --rotate: the clips converted (build_units_convert); with a
 * skeleton, a converted copy for the lossy passes (`model`, released by
 * the caller). */
static bool convert_units(compile_state *cs, animc_clip_set *set, animc_skeleton *model, animc_diag_sink *sink)
{
	const build_ctx *ctx = cs->ctx;
	const animc_units *units = cs->job->has_units ? &cs->job->units : &ctx->options->units;
	const animc_skeleton *from = cs->process.reduce.skeleton;
	/* An item's Scale replaces --scale for it: named as the project gives it. */
	const char *scale_name = cs->job->has_units && units->scale != ctx->options->units.scale
					 ? "its .mgcb item's Scale"
					 : "--scale";

	if (!build_units_convert(units, scale_name, ctx->options->author.root_bone, NULL, set, &cs->is_motion_turned,
				 cs->motion_turn, sink))
		return false;
	if (animc_units_is_identity(units) || !set->count || !from)
		return true;
	model->bones = malloc((from->bone_count ? from->bone_count : 1) * sizeof *model->bones);
	if (!model->bones) {
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "out of memory");
		return false;
	}
	memcpy(model->bones, from->bones, from->bone_count * sizeof *model->bones);
	model->bone_count = from->bone_count;
	if (animc_skeleton_apply_units(model, units, sink) != ANIMC_OK) {
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "out of memory");
		return false;
	}
	cs->process.reduce.skeleton = model;
	return true;
}

/* A diagnostic's place for ordering: its line and column, those of no line
 * (of a whole clip or source) after every line, then the order found. */
typedef struct diag_place {
	uint32_t line, column, found;
} diag_place;

static int compare_places(const void *a, const void *b)
{
	const diag_place *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->column != y->column)
		return x->column < y->column ? -1 : 1;
	return (x->found > y->found) - (x->found < y->found);
}

/* A source's diagnostics in the order of its lines, as compilers print
 * them (the importers and passes find them in their own order). */
static void order_by_line(build_result *r)
{
	diag_place *places;
	build_diag *ordered;

	if (r->diag_count < 2)
		return;
	places = malloc(r->diag_count * sizeof *places);
	ordered = malloc(r->diag_count * sizeof *ordered);
	if (places && ordered) {
		for (uint32_t i = 0; i < r->diag_count; i++)
			places[i] = (diag_place){ r->diags[i].line ? r->diags[i].line : UINT32_MAX, r->diags[i].column, i };
		qsort(places, r->diag_count, sizeof *places, compare_places);
		for (uint32_t i = 0; i < r->diag_count; i++)
			ordered[i] = r->diags[places[i].found];
		memcpy(r->diags, ordered, r->diag_count * sizeof *ordered);
	}
	free(places);
	free(ordered);
}

/* Repeated warnings (and notes) of one kind in one source become one line:
 * the first, with how many more and where the next few are.  Alike is one
 * warning kind (so --allow takes or leaves the line whole) and one
 * message, numbers and names aside. */
static void fold_repeats(build_result *r)
{
	enum { PLACES_LISTED = 3 };
	uint32_t kept = 0;
	char (*kinds)[512];

	if (r->diag_count < 2)
		return;
	kinds = malloc(r->diag_count * sizeof *kinds);
	if (!kinds)
		return;
	for (uint32_t i = 0; i < r->diag_count; i++)
		build_message_kind(r->diags[i].message, kinds[i], sizeof kinds[i]);
	for (uint32_t i = 0; i < r->diag_count; i++) {
		build_diag *d = &r->diags[i];
		uint32_t more = 0, listed = 0;
		char places[512] = "";
		size_t used = 0;

		if (!d->message)
			continue;
		for (uint32_t j = i + 1; d->severity != ANIMC_ERROR && j < r->diag_count; j++) {
			build_diag *e = &r->diags[j];

			if (!e->message || e->severity != d->severity || e->kind != d->kind ||
			    strcmp(kinds[i], kinds[j]) != 0)
				continue;
			if (listed < PLACES_LISTED && used < sizeof places) {
				size_t place = build_place_size(e->message);

				if (place)
					used += (size_t)snprintf(places + used, sizeof places - used, "%s%.*s",
								 listed ? ", " : "", (int)place, e->message);
				else if (e->line)
					used += (size_t)snprintf(places + used, sizeof places - used, "%sline %u",
								 listed ? ", " : "", e->line);
				listed += place || e->line;
			}
			more += 1 + e->more;
			if (e->severity == ANIMC_WARNING)
				r->warnings--;
			free(e->message);
			e->message = NULL;
		}
		more += d->more;
		if (more) {
			char *folded;

			if (asprintf(&folded, "%s (and %u more like it%s%s%s)", d->message, more,
				     listed ? ": " : "", places, more > listed && listed ? ", ..." : "") >= 0) {
				free(d->message);
				d->message = folded;
			}
		}
		r->diags[kept++] = *d;
	}
	r->diag_count = kept;
	free(kinds);
}

/* A file named like a sidecar whose AnimationDefinition is not within the
 * bytes a build looks at for one: its source is built whole. */
static void sidecar_past_the_look(animc_diag_sink *sink)
{
	animc_diag_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_SIDECAR_UNUSED, 0, 0,
			       "named like a clip-split sidecar, but no <XnaContent> holding an AnimationDefinition is "
			       "in its first 1 MiB: its source's takes are built whole");
}

/* A file no importer recognises: in a folder, a file of another kind,
 * which is normal (skipped); named on the command line, a mix-up (often
 * an output given as a source), which fails.  So does one whose last
 * build wrote outputs: a source known by its content alone (XNA's .xml),
 * saved empty or with its root element mistyped, is a broken source, and
 * keeps those outputs as one that fails to parse does (commit.c), where a
 * skipped file's would be left to --prune. */
static void no_importer(const build_job *job, const uint8_t *data, size_t size, build_result *r,
			animc_diag_sink *sink)
{
	bool compiled = (size >= 3 && memcmp(data, "XNB", 3) == 0) ||
			(size >= 4 && memcmp(data, "\x28\xb5\x2f\xfd", 4) == 0);
	size_t len = strlen(job->path);
	bool project = len >= 5 && strcasecmp(job->path + len - 5, ".mgcb") == 0;

	if (job->is_explicit && !job->is_listed) {
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "no importer recognises this file%s",
				  compiled ? "; this is a compiled file; give the source it came from" :
				  project ? "; a MonoGame content project is built with --mgcb PROJECT" :
				  "; 'animc help build' lists the formats it reads (export the file to one of them, "
				  "such as glTF or FBX)");
		return;
	}
	if (job->previous && job->previous->output_count) {
		animc_diag_report(sink, ANIMC_ERROR, 0, 0,
				  "no importer recognises this file any more (an earlier build compiled it)");
		return;
	}
	/* Named like a sidecar, and no sidecar in the bytes looked at: its
	 * source is built whole, which a skip listed under -v would hide. */
	if (job->is_sidecar_name)
		sidecar_past_the_look(sink);
	r->status = BUILD_SKIPPED;
	r->skip_reason = strdup(project ? "a MonoGame content project: build it with --mgcb" :
					  "no importer recognises it");
}

/* A file no importer recognises, judged by its head alone and read whole
 * by nothing: a video of gigabytes beside the clips costs no memory and
 * fails nothing.  Its hash is of that head (the plan probes such a file
 * again rather than compare its bytes).  Closes the source. */
static void unrecognised(const build_job *job, cli_source *src, build_result *r, animc_diag_sink *sink)
{
	r->has_source = true;
	build_hash_bytes(src->head, src->head_size, &r->source_hash);
	no_importer(job, src->head, src->head_size, r, sink);
	cli_source_close(src);
}

/* --warnings-as-errors: a compiled source with a warning that --allow does
 * not name fails and writes nothing; so does a file skipped with one (it
 * holds no clip, but what was said of it is counted as any warning).
 * Judged once every warning is in (what the importer printed too), and
 * counted as the summary counts them, a folded line once. */
static void warnings_fail(const build_ctx *ctx, build_result *r)
{
	unsigned failing = build_result_warnings_said(ctx->options, r);

	if (!ctx->options->warnings_as_errors || !failing)
		return;
	if (r->status == BUILD_SKIPPED) {
		build_result_diag(r, ANIMC_ERROR, 0, 0, -1, "%u warning%s treated as errors", failing,
				  failing == 1 ? "" : "s");
		r->status = BUILD_FAILED;
		return;
	}
	if (r->status != BUILD_COMPILED)
		return;
	for (uint32_t i = 0; i < r->output_count; i++) {
		free(r->outputs[i].bytes);
		free(r->outputs[i].name);
		free(r->outputs[i].clip);
		free(r->outputs[i].staged);
	}
	free(r->outputs);
	r->outputs = NULL;
	r->output_count = 0;
	build_result_diag(r, ANIMC_ERROR, 0, 0, -1, "%u warning%s treated as errors; nothing written", failing,
			  failing == 1 ? "" : "s");
	r->status = BUILD_FAILED;
}

/* The source's diagnostics as said: repeats folded, in line order, what
 * the importer printed after them; then --warnings-as-errors judges. */
static void finish_diagnostics(const build_ctx *ctx, build_result *r)
{
	fold_repeats(r);
	order_by_line(r);
	build_result_say_unkept(r);
	if (ctx->on_compiled)
		ctx->on_compiled(ctx->on_probe_user, r);
	warnings_fail(ctx, r);
}

/* A sidecar named in another letter case (walker_anims.xml beside
 * Walker.xml) cuts its source on Windows and macOS, whose file systems
 * ignore case, and splits nothing here: the same tree gave other outputs,
 * said under -v alone. */
static void sidecar_but_case(const build_job *job, animc_diag_sink *sink)
{
	char *source = build_sidecar_source_but_case(job->path);

	if (source)
		animc_diag_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_SIDECAR_UNUSED, 0, 0,
				       "named like the clip-split sidecar of '%s', '%.*s" BUILD_SIDECAR_SUFFIX "', but for "
				       "letter case, which Windows and macOS ignore: there it cuts its source into "
				       "parts, here the source's takes are built whole; rename it",
				       source, (int)cli_stem_length(source), source);
	free(source);
}

/* Whether a file named like a sidecar, which its importer found no
 * animation in, holds an AnimationDefinition after all: past the bytes the
 * plan looks at for one, read whole here (by its .xml name). */
static bool is_far_definition(const build_job *job, animc_status status, const uint8_t *data, size_t size)
{
	return job->is_sidecar_name && status == ANIMC_ERR_NOT_FOUND && animc_split_doc_probe(data, size);
}

/* A source that holds no animation: normal for a static model in an art
 * folder, a mistake on the command line. */
static void holds_no_animation(const build_job *job, const char *what, bool is_definition, animc_diag_sink *sink,
			       build_result *r)
{
	const char *holds = what[0] ? what : "no animation";

	/* Named alone, a model without animation is most often meant as the
	 * skeleton of other files' clips, or exported without its takes. */
	if (job->is_explicit && !job->is_listed) {
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "holds %s%s", holds,
				  what[0] ? "" : "; export it with its animations, or give it as --skeleton MODEL "
						 "to check the clips of other files against it");
		return;
	}
	/* A sidecar whose type is misspelt splits nothing: its source is
	 * built whole, which a note would hide. */
	if (job->is_sidecar_name && is_definition)
		sidecar_past_the_look(sink);
	else if (job->is_sidecar_name)
		animc_diag_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_SIDECAR_UNUSED, 0, 0,
				       "named like a clip-split sidecar but holds no AnimationDefinition (%s): its "
				       "source's takes are built whole", holds);
	else
		sidecar_but_case(job, sink);
	r->status = BUILD_SKIPPED;
	if (asprintf(&r->skip_reason, "holds %s", holds) < 0)
		r->skip_reason = NULL;
}

/* Whether the file at `path`, named like a clip-split sidecar and holding
 * none, splits nothing when built as a source of its own: no importer
 * recognises it, or the XNA one finds no animation in it (no_importer and
 * holds_no_animation skip it with a sidecar-unused warning). */
static bool splits_nothing(const char *path)
{
	animc_diag_sink quiet = { 0 };
	animc_clip_set set = { 0 };
	const animc_importer *importer;
	uint8_t *data;
	size_t size;
	cli_error err;
	bool unused = false;

	if (!cli_read_file(path, &data, &size, &err))
		return false;
	importer = animc_importer_find(path, data, size);
	if (!importer) {
		unused = true;
	} else if (strcmp(importer->name, "xna") == 0) {
		animc_import_request request = { path, data, size, NULL };

		unused = importer->import(&request, &set, &quiet) == ANIMC_ERR_NOT_FOUND;
	}
	animc_clip_set_release(&set);
	free(data);
	return unused;
}

/* --warnings-as-errors: a source whose STEM_Anims.xml, a file of this
 * build, splits nothing (a misspelt Type) fails, keeping the parts its last
 * build wrote: the sidecar-unused warning said of that file is about how
 * this source is cut, and its takes built whole would replace those parts
 * (and --prune remove them).  True when it fails so (said at the file). */
static bool unused_sidecar_fails(compile_state *cs, animc_diag_sink *sink)
{
	const build_options *o = cs->ctx->options;
	const build_job *job = cs->job;
	bool fails = false;
	char *path;

	if (!o->warnings_as_errors || build_options_allows(o, "sidecar-unused") || job->has_no_sidecar ||
	    (job->is_explicit && (o->author.clips_path || o->author.splits.count)))
		return false;
	path = build_sidecar_path(job->path);
	for (size_t i = 0; path && !fails && i < cs->ctx->plan.count; i++)
		fails = cs->ctx->plan.jobs[i].is_sidecar_name && strcmp(cs->ctx->plan.jobs[i].path, path) == 0;
	if (fails && (fails = splits_nothing(path))) {
		animc_diag_sink doc = *sink;

		collect_read(cs, path);
		doc.path = path;
		animc_diag_report(&doc, ANIMC_ERROR, 0, 0,
				  "named like this source's clip-split sidecar but splits nothing (sidecar-unused, "
				  "treated as an error): the source is not built, and keeps the outputs its last "
				  "build wrote");
		sink->error_count = doc.error_count;
		sink->warning_count = doc.warning_count;
	}
	free(path);
	return fails;
}

/* Whether build_author_apply will cut the source's takes into parts:
 * --clips or --split for a source named on the command line, else its
 * sidecar.  The import then gives no warning that advises the cut. */
static bool is_to_be_cut(const build_ctx *ctx, const build_job *job)
{
	const build_author_options *a = &ctx->options->author;
	char *sidecar;
	bool has;

	if (job->has_no_sidecar)
		return false;   /* then nothing cuts it */
	if (job->is_explicit && (a->clips_path || a->splits.count))
		return true;
	sidecar = build_author_sidecar(a, job->path, job->is_explicit);
	has = sidecar != NULL;
	free(sidecar);
	return has;
}

/* The source could not be opened.  No permission to read a file found in
 * a folder: skipped with a warning, as the walk skips what it cannot read.
 * One gone since the plan saw it (a tool's temporary renamed away, a
 * source deleted meanwhile) is a deletion, which the next build settles,
 * not an error: skipped without a word, keeping what it wrote, as a file
 * that cannot be read keeps it.  One named on the command line fails. */
static void not_opened(const build_job *job, const cli_source *src, const cli_error *err, build_result *r,
		       animc_diag_sink *sink)
{
	if (src->open_error == EACCES && !job->is_explicit) {
		build_result_unreadable(r, strerror(EACCES));
	} else if ((src->open_error == ENOENT || src->open_error == ENOTDIR) && !job->is_explicit) {
		r->status = BUILD_SKIPPED;
		r->skip_reason = strdup(BUILD_UNREADABLE_REASON);
	} else {
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "%s", err->message);
	}
}

/* The whole source after its probe head, in *data.  False when its compile
 * ends here: it could not be read, or it is an .xml the XNA importer took
 * by its name (its root past the probe head) whose root, the whole file
 * read, is not <XnaContent>.  In a folder (or a --base list) that is a file
 * of another kind, skipped as one whose root the head shows is; named, the
 * importer says what its root is. */
static bool read_whole(const build_job *job, const animc_importer *importer, cli_source *src, uint8_t **data,
		       size_t *size, build_result *r, animc_diag_sink *sink)
{
	bool by_name = importer == &animc_importer_xna &&
		       importer->probe(job->path, src->head, src->head_size) != ANIMC_PROBE_CONTENT;
	cli_error err;

	if (!cli_source_read_rest(src, data, size, &err)) {
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "%s", err.message);
		return false;
	}
	if (!by_name || (job->is_explicit && !job->is_listed) ||
	    importer->probe(job->path, *data, *size) == ANIMC_PROBE_CONTENT)
		return true;
	r->has_source = true;
	build_hash_bytes(*data, *size, &r->source_hash);
	no_importer(job, *data, *size, r, sink);
	return false;
}

void build_compile(const build_ctx *ctx, const build_job *job, build_result *r)
{
	animc_skeleton converted = { 0 };
	compile_state cs = { .ctx = ctx, .job = job, .r = r, .process = ctx->options->process,
			      .motion_turn = { 0, 0, 0, 1 } };
	animc_diag_sink sink = { collect_diag, &cs, job->path, 0, 0 };
	animc_import_options import = ctx->options->import;
	const animc_importer *importer;
	animc_clip_set set = { 0 };
	XXH3_state_t *key = NULL;
	double start = build_now_s();
	cli_source src;
	uint8_t *data = NULL;
	size_t size = 0;
	struct stat st;
	animc_status status;
	cli_error err;

	memset(r, 0, sizeof *r);
	r->status = BUILD_FAILED;
	if (!cli_source_open(&src, job->path, &err)) {
		not_opened(job, &src, &err, r, &sink);
		goto done;
	}
	if (fstat(src.fd, &st) == 0) {
		build_source_state_from(&st, &r->source_state);
		build_file_state_distrust_recent(&r->source_state);
	}
	importer = animc_importer_find(job->path, src.head, src.head_size);
	if (!importer) {
		unrecognised(job, &src, r, &sink);
		goto done;
	}
	if (!read_whole(job, importer, &src, &data, &size, r, &sink))
		goto done;
	r->has_source = true;
	build_hash_bytes(data, size, &r->source_hash);
	snprintf(r->importer, sizeof r->importer, "%s", importer->name);
	if (importer->reader_version)
		snprintf(r->reader_version, sizeof r->reader_version, "%s", importer->reader_version());
	if (ctx->on_probe)
		ctx->on_probe(ctx->on_probe_user, importer->name);
	key = XXH3_createState();
	if (!key) {
		animc_diag_report(&sink, ANIMC_ERROR, 0, 0, "out of memory");
		goto done;
	}
	XXH3_copyState(key, ctx->key_prefix);
	build_key_file("source", cli_basename(job->path), data, size, build_key_emit_xxh3, key);
	build_job_key(ctx->options, job, build_key_emit_xxh3, key);

	import.on_file_read = collect_read;
	import.on_file_read_user = &cs;
	import.on_file_missing = collect_absent;
	import.length_scale = (job->has_units ? &job->units : &ctx->options->units)->scale;
	import.is_cut = is_to_be_cut(ctx, job);
	collect_run_reads(&cs);
	{
		animc_import_request request = { job->path, data, size, &import };
		struct timespec now;

		clock_gettime(CLOCK_REALTIME, &now);
		cs.import_start_ns = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
		status = importer->import(&request, &set, &sink);
	}
	if (ctx->on_imported)
		ctx->on_imported(ctx->on_probe_user);
	bool is_definition = is_far_definition(job, status, data, size);
	free(data);
	data = NULL;
	bool sidecar_fails = status == ANIMC_OK && unused_sidecar_fails(&cs, &sink);
	/* A source whose folder lists no sidecar has nothing to split. */
	if (status == ANIMC_OK && !job->has_no_sidecar && !sidecar_fails) {
		build_author_hooks hooks = { collect_read, collect_cut, &cs, collect_part };

		status = build_author_apply(&ctx->options->author, job->path, job->is_explicit, &set, &sink,
					    &hooks);
	}
	add_deps(&cs, key);
	add_absent_deps(&cs, key);
	build_key_end(build_key_emit_xxh3, key);
	build_hash_from_state(key, &r->key);
	if (sidecar_fails)
		goto done;
	if (cs.changed && status == ANIMC_OK) {
		animc_diag_report(&sink, ANIMC_ERROR, 0, 0, "'%s' changed while the import read it; nothing "
				  "written: build again", cs.changed);
		goto done;
	}
	if (status == ANIMC_ERR_NOT_FOUND && sink.error_count == 0) {
		holds_no_animation(job, set.holds, is_definition, &sink, r);
		goto done;
	}
	if (status != ANIMC_OK) {
		if (sink.error_count == 0)
			animc_diag_report(&sink, ANIMC_ERROR, 0, 0, "cannot import: %s",
					  animc_status_string(status));
		goto done;
	}
	if (exact_allows(&cs, &set, &sink) && convert_units(&cs, &set, &converted, &sink))
		compile_clips(&cs, importer, &set, &sink);
	if (!sink.error_count)
		r->status = BUILD_COMPILED;
done:
	if (r->status == BUILD_FAILED) {
		explain_memory(ctx, r, size, &cs.reads);
		add_missing_deps(&cs);
	}
	animc_clip_set_release(&set);
	animc_skeleton_release(&converted);
	free(data);
	if (key)
		XXH3_freeState(key);
	compile_state_release(&cs);
	finish_diagnostics(ctx, r);
	r->time_s = build_now_s() - start;
}
