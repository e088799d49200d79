/*
 * plan.c - the inputs become jobs, in a fixed order: inputs as given, each
 * folder walked depth-first with names in byte order.  Each job knows where
 * its outputs go (OUTDIR, the mirrored folder, the stem).  Then the
 * manifest decides which jobs are up to date: a source whose file, whose
 * other files read, whose options and whose outputs are all as recorded is
 * not compiled.  Inputs that cannot be compiled (missing, a FIFO, a folder
 * that cannot be read) become jobs whose result is already decided, so
 * that every report lists them in their place.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plan.h"
#include "engine.h"

static build_job *add_job(build_plan *plan, const char *path, const char *rel_dir, bool is_explicit,
			  const struct stat *st)
{
	build_job *j;
	const char *base = cli_basename(path);
	char *stem_raw;

	if (plan->count == plan->capacity) {
		size_t capacity = plan->capacity ? plan->capacity * 2 : 64;
		build_job *grown = realloc(plan->jobs, capacity * sizeof *grown);

		if (!grown)
			return NULL;
		plan->jobs = grown;
		plan->capacity = capacity;
	}
	j = &plan->jobs[plan->count];
	memset(j, 0, sizeof *j);
	j->path = strdup(path);
	stem_raw = strndup(base, cli_stem_length(base));
	j->stem = stem_raw ? build_safe_name(stem_raw, 0) : NULL;
	free(stem_raw);
	j->out_base = cli_path_join(rel_dir, j->stem, NULL);
	j->is_explicit = is_explicit;
	j->needs_compile = true;
	if (st) {
		j->has_state = true;
		build_source_state_from(st, &j->state);
		j->size = (uint64_t)st->st_size;
	}
	if (!j->path || !j->stem || !j->out_base) {
		free(j->path);
		free(j->stem);
		free(j->out_base);
		return NULL;
	}
	plan->count++;
	return j;
}

/* A job whose result is decided now: failed (an error), or skipped. */
static bool add_decided(build_plan *plan, const char *path, bool is_explicit, build_status status,
			const char *reason, animc_severity severity, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));

static bool add_decided(build_plan *plan, const char *path, bool is_explicit, build_status status,
			const char *reason, animc_severity severity, const char *fmt, ...)
{
	build_job *j = add_job(plan, path, "", is_explicit, NULL);
	char message[1024];
	va_list ap;

	if (!j)
		return false;
	j->needs_compile = false;
	j->is_done = true;
	j->result.status = status;
	if (reason)
		j->result.skip_reason = strdup(reason);
	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(message, sizeof message, fmt, ap);
		va_end(ap);
		build_result_diag(&j->result, severity, 0, 0, -1, "%s", message);
	}
	return true;
}

void build_result_unreadable(build_result *r, const char *why)
{
	r->status = BUILD_SKIPPED;
	r->skip_reason = strdup(BUILD_UNREADABLE_REASON);
	build_result_diag_kind(r, ANIMC_WARNING, "unreadable", 0, 0, -1, "cannot read: %s", why);
}

/* A file or folder of the tree that cannot be read: skipped, with its
 * warning.  Under --warnings-as-errors (the kind not allowed) it is a
 * failed source instead: a build that cannot read all its art does not
 * pass. */
static void decide_unreadable(const build_options *o, build_job *j, const char *why)
{
	bool fails = o->warnings_as_errors && !build_options_allows(o, "unreadable");

	j->needs_compile = false;
	j->is_done = true;
	build_result_unreadable(&j->result, why);
	if (fails) {
		j->result.status = BUILD_FAILED;
		free(j->result.skip_reason);
		j->result.skip_reason = NULL;
		build_result_diag(&j->result, ANIMC_ERROR, 0, 0, -1, "1 warning treated as errors");
	}
}

/* A file of the tree that is not a regular one (a FIFO, a socket, a
 * device): never opened, skipped as a file of another kind (listed with
 * -v).  build_plan_check fails it when it is where a source was. */
static void decide_special(build_job *j, unsigned mode)
{
	j->needs_compile = false;
	j->is_done = true;
	j->special_mode = mode;
	j->result.status = BUILD_SKIPPED;
	j->result.skip_reason = strdup(cli_file_kind(mode));
}

/* ------------------------------------------------------------------ walk */

typedef struct dir_id {
	dev_t dev;
	ino_t ino;
} dir_id;

typedef struct walker {
	build_ctx *ctx;
	const char *root;       /* the input folder, as given */
	const char *rel_root;   /* its folder under OUTDIR ("" without --base) */
	dir_id *seen;           /* open addressing; ino 0 and dev 0 = empty */
	size_t seen_size, seen_count;
	bool has_exclude;
	dir_id exclude;
	bool met_exclude;       /* the walk reached OUTDIR, and left it out */
	/* The run's own --report, --junit and --depfile files, when they are
	 * there: written by builds, no sources (as OUTDIR's files are not). */
	dir_id own[3];
	const char *own_names[3];   /* their options' values */
	size_t own_count;
	/* Folders reached through a symbolic link, walked after the rest of
	 * the input (relative to root): the folder's own path wins, so that
	 * an alias added beside it moves no output. */
	cli_strings later;
} walker;

static size_t dir_hash(dir_id id)
{
	uint64_t h = (uint64_t)id.ino * 0x9E3779B97F4A7C15ull ^ (uint64_t)id.dev;

	return (size_t)(h ^ h >> 29);
}

/* Remember a folder; false when it was walked already. */
static bool remember_dir(walker *w, dir_id id)
{
	size_t mask, i;

	if (w->seen_count * 2 >= w->seen_size) {
		size_t size = w->seen_size ? w->seen_size * 2 : 64;
		dir_id *grown = calloc(size, sizeof *grown);

		if (!grown)
			return true;   /* out of memory: walk it (a loop still ends at PATH_MAX) */
		for (size_t k = 0; k < w->seen_size; k++) {
			if (!w->seen[k].ino && !w->seen[k].dev)
				continue;
			for (i = dir_hash(w->seen[k]) & (size - 1); grown[i].ino || grown[i].dev;
			     i = (i + 1) & (size - 1))
				;
			grown[i] = w->seen[k];
		}
		free(w->seen);
		w->seen = grown;
		w->seen_size = size;
	}
	mask = w->seen_size - 1;
	for (i = dir_hash(id) & mask; w->seen[i].ino || w->seen[i].dev; i = (i + 1) & mask)
		if (w->seen[i].ino == id.ino && w->seen[i].dev == id.dev)
			return false;
	w->seen[i] = id;
	w->seen_count++;
	return true;
}

typedef struct dir_entry {
	char *name;
	unsigned char type;   /* d_type: DT_UNKNOWN when the file system does not say */
	bool has_stat;        /* `st` read (not for DT_REG) */
	struct stat st;
	ino_t ino;            /* d_ino */
} dir_entry;

static int compare_entries(const void *a, const void *b)
{
	return strcmp(((const dir_entry *)a)->name, ((const dir_entry *)b)->name);
}

/* Read a folder's entries (names cli_is_left_out_name leaves out), sorted.  Each is stat()ed
 * relative to the open folder, but for those the folder lists as regular
 * files: their states are read by build_plan_check, on its threads.  The
 * folder is closed before any recursion, so depth costs no file
 * descriptors. */
static bool read_dir(DIR *dir, dir_entry **out, size_t *count)
{
	dir_entry *entries = NULL;
	size_t n = 0, capacity = 0;
	struct dirent *e;

	while ((e = readdir(dir))) {
		if (cli_is_left_out_name(e->d_name))
			continue;
		if (n == capacity) {
			dir_entry *grown;

			capacity = capacity ? capacity * 2 : 32;
			grown = realloc(entries, capacity * sizeof *grown);
			if (!grown)
				goto fail;
			entries = grown;
		}
		entries[n].name = strdup(e->d_name);
		entries[n].type = e->d_type;
		entries[n].has_stat = false;
		entries[n].ino = e->d_ino;
		if (!entries[n].name)
			goto fail;
		n++;
	}
	if (n)
		qsort(entries, n, sizeof *entries, compare_entries);
	size_t kept = 0;

	for (size_t i = 0; i < n; i++) {
		dir_entry *d = &entries[i];

		if (d->type != DT_REG && !(d->has_stat = fstatat(dirfd(dir), d->name, &d->st, 0) == 0)) {
			int error = errno;
			struct stat link;

			/* Gone since the folder listed it (a tool's temporary
			 * renamed away): it was not there, and is left out.  A
			 * link that leads nowhere is there: unreadable. */
			if ((error == ENOENT || error == ENOTDIR) &&
			    fstatat(dirfd(dir), d->name, &link, AT_SYMLINK_NOFOLLOW) != 0) {
				free(d->name);
				continue;
			}
			d->st.st_mode = (mode_t)error;   /* kept for the message */
		}
		entries[kept++] = *d;
	}
	*out = entries;
	*count = kept;
	return true;
fail:
	for (size_t i = 0; i < n; i++)
		free(entries[i].name);
	free(entries);
	return false;
}

/* Whether the sorted `names` of a folder hold the clip-split sidecar
 * STEM_Anims.xml of `name`: where they do not, the up-to-date check and the
 * cache need not look for one (a failed open per source, otherwise). */
static bool lists_sidecar(const char *name, const char **names, size_t count)
{
	size_t stem = cli_stem_length(name), lo = 0, hi = count;
	char *want = malloc(stem + sizeof BUILD_SIDECAR_SUFFIX);

	if (!want)
		return true;   /* look, then */
	memcpy(want, name, stem);
	memcpy(want + stem, BUILD_SIDECAR_SUFFIX, sizeof BUILD_SIDECAR_SUFFIX);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(names[mid], want);

		if (c == 0)
			break;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	free(want);
	return lo < hi;
}

/* Whether the recorded file `dep` is `path`, spelt alike or not (`art`,
 * then `$PWD/art`, as CMake and IDEs pass it). */
static bool is_same_dep(const char *dep, const char *path, const struct stat *st)
{
	struct stat at;

	if (strcmp(dep, path) == 0)
		return true;
	return st && strcmp(cli_basename(dep), cli_basename(path)) == 0 && stat(dep, &at) == 0 &&
	       at.st_dev == st->st_dev && at.st_ino == st->st_ino;
}

bool build_plan_knows_sidecar(const build_ctx *ctx, const build_job *j, const build_dep *deps, uint32_t count)
{
	char *sidecar = j->has_no_sidecar ? NULL :
			build_author_sidecar(&ctx->options->author, j->path, j->is_explicit);
	bool is_known = !sidecar;
	struct stat st;
	bool has_st = sidecar && stat(sidecar, &st) == 0;

	for (uint32_t i = 0; sidecar && i < count && !is_known; i++)
		is_known = is_same_dep(deps[i].path, sidecar, has_st ? &st : NULL);
	free(sidecar);
	return is_known;
}

/* Whether entry e (at `full`) is one of the run's own report files: its
 * inode first, the file's device only then.  One an importer claims is a
 * source the report would be written over: a walk's source still, and the
 * run stops before it writes anything (ctx->report_over_source). */
static bool is_own_file(const walker *w, const dir_entry *e, const char *full)
{
	struct stat st;
	cli_source src;
	bool is_source;

	for (size_t k = 0; k < w->own_count; k++) {
		if (w->own[k].ino != e->ino || !(e->has_stat || stat(full, &st) == 0) ||
		    (e->has_stat ? e->st.st_dev : st.st_dev) != w->own[k].dev)
			continue;
		is_source = false;
		if (cli_source_open(&src, full, NULL)) {
			is_source = animc_importer_find(full, src.head, src.head_size) != NULL;
			cli_source_close(&src);
		}
		if (is_source)
			w->ctx->report_over_source = w->own_names[k];
		return !is_source;
	}
	return false;
}

/* A file of the tree's folder `rel` but a folder, its state read or not
 * (DT_REG): a source, or a file of another kind (decide_special), whose
 * outputs go where a source's there would, so that the record of a
 * source compiled there finds it. */
static bool add_tree_file(walker *w, const dir_entry *e, const char *full, const char *rel,
			  const char **names, size_t count)
{
	bool is_regular = e->type == DT_REG || S_ISREG(e->st.st_mode);
	char *rel_dir = cli_path_join(w->rel_root, rel, NULL);
	const struct stat *st = is_regular && e->has_stat ? &e->st : NULL;
	build_job *j = rel_dir ? add_job(&w->ctx->plan, full, rel_dir, false, st) : NULL;

	free(rel_dir);
	if (j && !is_regular) {
		decide_special(j, e->st.st_mode);
	} else if (j && names) {
		j->has_no_sidecar = !lists_sidecar(e->name, names, count);
		j->is_sidecar_name = build_sidecar_named(e->name, names, count) != NULL;
	}
	return j != NULL;
}

static bool walk(walker *w, const char *rel)
{
	build_plan *plan = &w->ctx->plan;
	char *dir_path = cli_path_join(w->root, rel, NULL);
	dir_entry *entries = NULL;
	const char **names = NULL;
	size_t count = 0;
	DIR *dir;
	bool ok = true;

	if (!dir_path)
		return false;
	if (strlen(dir_path) >= PATH_MAX - 1) {
		ok = add_decided(plan, dir_path, false, BUILD_FAILED, NULL, ANIMC_ERROR,
				 "the folder's path is %zu bytes long, past the system's limit of %d; "
				 "its files are not compiled", strlen(dir_path), PATH_MAX);
		free(dir_path);
		return ok;
	}
	dir = opendir(dir_path);
	if (!dir && errno == EACCES && rel) {
		/* A folder of the tree, as a file of it: skipped with a
		 * warning.  The input folder itself, named, fails. */
		build_job *j = add_job(plan, dir_path, "", false, NULL);

		if (j)
			decide_unreadable(w->ctx->options, j, strerror(EACCES));
		free(dir_path);
		return j != NULL;
	}
	if (!dir) {
		ok = add_decided(plan, dir_path, false, BUILD_FAILED, NULL, ANIMC_ERROR,
				 "cannot read folder: %s", strerror(errno));
		free(dir_path);
		return ok;
	}
	ok = read_dir(dir, &entries, &count);
	closedir(dir);
	names = count ? calloc(count, sizeof *names) : NULL;
	for (size_t i = 0; names && i < count; i++)
		names[i] = entries[i].name;
	for (size_t i = 0; ok && i < count; i++) {
		dir_entry *e = &entries[i];
		char *full = cli_path_join(dir_path, e->name, NULL);
		char *child = cli_path_join(rel, e->name, NULL);
		const struct stat *st = &e->st;
		const char *user = NULL;
		bool is_file = e->type == DT_REG || (e->has_stat && S_ISREG(st->st_mode));

		if (!full || !child) {
			ok = false;
		} else if (is_file && is_own_file(w, e, full)) {
			/* a report of this build's: not a source */
		} else if ((is_file || !e->has_stat) && names &&
			   build_sidecar_of(dir_path, e->name, names, count, &user)) {
			/* A clip-split sidecar: read by its source's compile,
			 * which fails naming one that cannot be read (a link
			 * leading nowhere), rather than build its takes whole. */
			char reason[512];

			snprintf(reason, sizeof reason, "the clip parts of '%s', used by it", user);
			ok = add_decided(plan, full, false, BUILD_SKIPPED, reason, ANIMC_NOTE, NULL);
		} else if (e->type == DT_REG) {
			ok = add_tree_file(w, e, full, rel, names, count);
		} else if (!e->has_stat) {
			build_job *j = add_job(plan, full, "", false, NULL);

			ok = j != NULL;
			if (j)
				decide_unreadable(w->ctx->options, j, strerror((int)e->st.st_mode));
		} else if (S_ISDIR(st->st_mode)) {
			dir_id id = { st->st_dev, st->st_ino };
			struct stat link;

			if (w->has_exclude && id.dev == w->exclude.dev && id.ino == w->exclude.ino) {
				/* OUTDIR inside an input: its files are outputs
				 * (say_out_dir_sources tells of sources there) */
				w->met_exclude = true;
			} else if (e->type != DT_DIR && lstat(full, &link) == 0 && S_ISLNK(link.st_mode)) {
				ok = cli_strings_push(&w->later, child);
			} else if (!remember_dir(w, id)) {
				if (w->ctx->options->verbose && !w->ctx->options->quiet)
					cli_strings_push(&w->ctx->plan_notes, full);
			} else {
				ok = walk(w, child);
			}
		} else {
			ok = add_tree_file(w, e, full, rel, names, count);
		}
		free(full);
		free(child);
	}
	for (size_t i = 0; i < count; i++)
		free(entries[i].name);
	free(entries);
	free(names);
	free(dir_path);
	return ok;
}

/* The rest of the folder `dir`, as spelt, past the longest folder its
 * spelling starts with that is the base; NULL when none is, or when the
 * rest goes up (".." after a link means where the link leads). */
static char *spelt_relative_to_base(const char *base_real, const char *dir)
{
	char *cwd = dir[0] == '/' ? NULL : getcwd(NULL, 0);
	char *spelt = cli_path_join(cwd, dir, NULL), *prefix = spelt ? strdup(spelt) : NULL, *rel = NULL;

	if (spelt && prefix) {
		cli_path_tidy(spelt);
		strcpy(prefix, spelt);
		for (;;) {
			char *real = realpath(prefix, NULL), *slash;
			bool is_base = real && strcmp(real, base_real) == 0;
			const char *rest = spelt + strlen(prefix);
			size_t n = strlen(rest);

			free(real);
			if (is_base) {
				if (!strstr(rest, "/../") && !(n >= 3 && strcmp(rest + n - 3, "/..") == 0))
					rel = strdup(rest + (rest[0] == '/'));
				break;
			}
			if (!(slash = strrchr(prefix, '/')) || slash == prefix)
				break;
			*slash = '\0';
		}
	}
	free(prefix), free(spelt), free(cwd);
	return rel;
}

/* The folder of `path` under OUTDIR with --base: its real path relative to
 * the base's, as a folder walk lands a link to a folder it walks anyway;
 * failing that, its path as spelt under the base, as a folder walk lands a
 * link leading out of it (art/linked -> ../other: linked/).  NULL (err
 * filled) when it is under the base neither way. */
static char *relative_to_base(const char *base_real, const char *dir, cli_error *err)
{
	char *real = realpath(dir, NULL);
	size_t n = strlen(base_real);
	char *rel = NULL;

	if (!real) {
		cli_error_set(err, "cannot resolve '%s': %s", dir, strerror(errno));
		return NULL;
	}
	if (strcmp(real, base_real) == 0)
		rel = strdup("");
	else if (strncmp(real, base_real, n) == 0 && (real[n] == '/' || (n == 1 && base_real[0] == '/')))
		rel = strdup(real + n + (real[n] == '/'));
	else if (!(rel = spelt_relative_to_base(base_real, dir)))
		cli_error_set(err, "is not under --base '%s'", base_real);
	free(real);
	return rel;
}

/* The folders walk() left for later (those it meets there too). */
static bool walk_later(walker *w)
{
	bool ok = true;

	for (size_t k = 0; ok && k < w->later.count; k++) {
		char *full = cli_path_join(w->root, w->later.items[k], NULL);
		struct stat st;

		if (!full)
			return false;
		if (stat(full, &st) != 0) {
			/* Gone meanwhile: nothing to walk. */
		} else if (!remember_dir(w, (dir_id){ st.st_dev, st.st_ino })) {
			if (w->ctx->options->verbose && !w->ctx->options->quiet)
				cli_strings_push(&w->ctx->plan_notes, full);
		} else {
			ok = walk(w, w->later.items[k]);
		}
		free(full);
	}
	return ok;
}

/* The items of a MonoGame project: each lands at its destination; one that
 * cannot be read fails alone, naming the project's line. */
static bool add_project_items(build_plan *plan, const build_options *o)
{
	const build_mgcb *p = &o->project;

	for (size_t i = 0; i < p->count; i++) {
		const build_mgcb_item *item = &p->items[i];
		const char *base = cli_basename(item->dest);
		struct stat st;
		build_job *j;
		bool ok;

		if (item->is_copy)
			ok = add_decided(plan, item->source, false, BUILD_SKIPPED,
					 "a /copy: item, which MGCB copies as it is", ANIMC_NOTE, NULL);
		else if (item->is_dest_no_file)
			ok = add_decided(plan, item->source, true, BUILD_FAILED, NULL, ANIMC_ERROR,
					 "/build: '%s': the destination '%s' names no file; give it a file name "
					 "(/build:SOURCE;FOLDER/NAME)", item->source, item->link);
		else if (stat(item->source, &st) != 0)
			ok = add_decided(plan, item->source, true, BUILD_FAILED, NULL, ANIMC_ERROR,
					 "/build: '%s': cannot open: %s", item->source, strerror(errno));
		else if (!S_ISREG(st.st_mode))
			ok = add_decided(plan, item->source, true, BUILD_FAILED, NULL, ANIMC_ERROR,
					 "/build: '%s': is %s, not a regular file", item->source,
					 cli_file_kind(st.st_mode));
		else if (!(j = add_job(plan, item->source, "", false, &st)))
			ok = false;
		else {
			free(j->out_base);
			free(j->stem);
			j->out_base = strdup(item->dest);
			j->stem = build_safe_name(base, 0);
			j->project = p;
			j->has_units = item->has_units;
			build_mgcb_item_units(item, &o->units, &j->units);
			ok = j->out_base && j->stem;
		}
		if (!ok)
			return false;
		j = &plan->jobs[plan->count - 1];
		if (!item->is_copy) {
			j->item_file = item->file;
			j->item_line = item->line;
		}
		/* Decided already (not there): its destination still is the
		 * item's, which the reports name it by. */
		if (j->is_done && !item->is_copy && strcmp(j->out_base, item->dest) != 0) {
			char *dest = strdup(item->dest);

			if (!dest)
				return false;
			free(j->out_base);
			j->out_base = dest;
		}
		/* What the plan decided of it is said at its line. */
		for (uint32_t k = 0; !item->is_copy && j->is_done && k < j->result.diag_count; k++)
			j->result.diags[k].is_at_item = true;
	}
	return true;
}

animc_diag build_job_diag(const build_job *j, const build_diag *d)
{
	animc_diag diag = { d->severity, j->path, d->line, d->column, d->byte_offset, d->message, d->kind };

	if (j->item_file && d->is_at_item) {
		diag.path = j->item_file;
		diag.line = j->item_line;
	}
	return diag;
}

static char *dir_of(const char *path)
{
	const char *base = cli_basename(path);
	size_t n = (size_t)(base - path);

	if (!n)
		return strdup(".");
	return n == 1 ? strdup("/") : strndup(path, n - 1);
}

static void merge_repeats(build_plan *plan);

/*
 * A file named under --base (build_job.is_listed), landing in `rel`: as
 * the walk of its folder would take it.  A clip-split sidecar stands for
 * its source, which is built in its place (an edit of the sidecar changes
 * the source's clips); any other file is a source, left out when no
 * importer reads it.  is_cut: --split or --clips cut a source named so,
 * sidecar or none.  False when out of memory.
 */
static bool add_listed(build_plan *plan, const char *input, const char *rel, const struct stat *st, bool is_cut)
{
	char *dir_path = dir_of(input), *source_path = NULL;
	DIR *dir = dir_path ? opendir(dir_path) : NULL;
	dir_entry *entries = NULL;
	const char **names = NULL;
	const char *source = NULL, *name = cli_basename(input);
	size_t count = 0;
	struct stat source_st;
	build_job *j = NULL;
	bool ok = true;

	if (dir && read_dir(dir, &entries, &count) && (names = malloc((count ? count : 1) * sizeof *names)))
		for (size_t i = 0; i < count; i++)
			names[i] = entries[i].name;
	if (dir)
		closedir(dir);
	if (names && build_sidecar_of(dir_path, name, names, count, &source) &&
	    (source_path = cli_path_join(dir_path, source, NULL)) && stat(source_path, &source_st) == 0 &&
	    S_ISREG(source_st.st_mode)) {
		char reason[512];

		snprintf(reason, sizeof reason, "the clip parts of '%s', used by it", source);
		/* Named by its sidecar: --split and --clips cut it, as they
		 * would were it named itself. */
		ok = add_decided(plan, input, false, BUILD_SKIPPED, reason, ANIMC_NOTE, NULL) &&
		     (j = add_job(plan, source_path, rel, true, &source_st)) != NULL;
		if (j)
			j->is_listed = true;
	} else if ((j = add_job(plan, input, rel, true, st)) != NULL) {
		j->is_listed = true;
		if (names) {
			j->has_no_sidecar = !is_cut && !lists_sidecar(name, names, count);
			j->is_sidecar_name = build_sidecar_named(name, names, count) != NULL;
		}
	} else {
		ok = false;
	}
	for (size_t i = 0; i < count; i++)
		free(entries[i].name);
	free(entries), free(names), free(source_path), free(dir_path);
	return ok;
}

/* Count the sources under folder DIR (files an importer claims; not its
 * .xnb outputs, nor names walks leave out, such as the manifest's folder),
 * keeping the first few in `named`. */
static size_t count_sources(const char *dir, cli_strings *named, int depth)
{
	DIR *d = depth < 32 ? opendir(dir) : NULL;
	struct dirent *e;
	size_t n = 0;

	while (d && (e = readdir(d))) {
		char *full = cli_is_left_out_name(e->d_name) ? NULL : cli_path_join(dir, e->d_name, NULL);
		size_t len = strlen(e->d_name);
		struct stat st;
		cli_source src;

		if (!full || lstat(full, &st) != 0) {
			/* left out, or gone */
		} else if (S_ISDIR(st.st_mode)) {
			n += count_sources(full, named, depth + 1);
		} else if (S_ISREG(st.st_mode) && !(len > 4 && strcmp(e->d_name + len - 4, ".xnb") == 0) &&
			   !(len > 8 && strcmp(e->d_name + len - 8, ".xnb.zst") == 0) && cli_source_open(&src, full, NULL)) {
			if (animc_importer_find(full, src.head, src.head_size)) {
				n++;
				if (named->count < 3)
					cli_strings_push(named, full);
			}
			cli_source_close(&src);
		}
		free(full);
	}
	if (d)
		closedir(d);
	return n;
}

/* OUTDIR lies inside input folder `input`, whose walk left it out (its
 * files are outputs): the sources it holds are not built, which a warning
 * says (nothing did). */
static void say_out_dir_sources(build_ctx *ctx, const char *input)
{
	const char *out = ctx->options->out_dir;
	cli_strings named = { NULL, 0, 0 };
	size_t n = count_sources(out, &named, 0);

	if (n)
		build_say_kind(ctx, ANIMC_WARNING, animc_warning_kind_at(ANIMC_WARN_OUTPUT_HOLDS_SOURCES)->name, out,
			       "the output folder lies in the input '%s' and holds %zu source%s (%s%s%s%s%s%s), left "
			       "out: its files are taken as outputs; give -o a folder of its own", input, n,
			       n == 1 ? "" : "s", named.items[0], named.count > 1 ? ", " : "",
			       named.count > 1 ? named.items[1] : "", named.count > 2 ? ", " : "",
			       named.count > 2 ? named.items[2] : "", n > named.count ? ", ..." : "");
	cli_strings_release(&named);
}

/*
 * A file named under --base that is not there (a list of changed files
 * names the deleted ones): left out, as a folder build leaves it out, and
 * landing where its folder's walk landed it, so that it meets the record
 * of its outputs (stale, or pruned by --prune) in a subfolder of the base
 * as at its top.  Its folder may be gone with it: then read as spelt.
 * False when out of memory.
 */
static bool add_gone_listed(build_plan *plan, const char *base_real, const char *input)
{
	char *dir = dir_of(input), *rel = NULL, *out_base;
	struct stat st;
	cli_error err;
	build_job *j;

	if (dir)
		rel = stat(dir, &st) == 0 ? relative_to_base(base_real, dir, &err) : spelt_relative_to_base(base_real, dir);
	free(dir);
	if (!add_decided(plan, input, false, BUILD_SKIPPED, "not there (deleted or moved): left out, as a folder "
			 "build leaves it out; its outputs stay", ANIMC_NOTE, NULL)) {
		free(rel);
		return false;
	}
	j = &plan->jobs[plan->count - 1];
	j->is_listed = true;
	if (!rel)
		return true;   /* not under the base as spelt: met by its name alone */
	out_base = cli_path_join(rel, j->stem, NULL);
	free(rel);
	if (!out_base)
		return false;
	free(j->out_base);
	j->out_base = out_base;
	return true;
}

static void mark_folder_clashes(build_plan *plan);

bool build_plan_make(build_ctx *ctx)
{
	const build_options *o = ctx->options;
	build_plan *plan = &ctx->plan;
	char *base_real = NULL;
	struct stat out_st;
	bool has_out = stat(o->out_dir, &out_st) == 0, has_told_out = false;

	if (o->base_dir) {
		base_real = realpath(o->base_dir, NULL);
		if (!base_real) {
			build_say(ctx, ANIMC_ERROR, o->base_dir, "--base: %s", strerror(errno));
			return false;
		}
	}
	for (size_t i = 0; i < o->inputs.count; i++) {
		const char *input = o->inputs.items[i];
		char *rel = NULL;
		cli_error err;
		struct stat st;
		bool ok = true;

		if (cli_stat_input(input, &st) != 0) {
			if (o->skips_gone_inputs && (errno == ENOENT || errno == ENOTDIR))
				continue;   /* animc watch says so */
			/* A list of changed files names the deleted ones too.
			 * Listed: a source that read it (a sidecar, a glTF's
			 * .bin) builds (build_plan_add_readers). */
			if (base_real && (errno == ENOENT || errno == ENOTDIR))
				ok = add_gone_listed(plan, base_real, input);
			else
				ok = add_decided(plan, input, true, BUILD_FAILED, NULL, ANIMC_ERROR, "cannot open: %s",
						 strerror(errno));
		} else if (S_ISDIR(st.st_mode) && has_out && st.st_dev == out_st.st_dev && st.st_ino == out_st.st_ino) {
			/* Its outputs would land beside its sources, and be
			 * taken as sources by the next build. */
			ok = add_decided(plan, input, true, BUILD_FAILED, NULL, ANIMC_ERROR, "is the output folder too "
					 "(-o '%s'): not built; give -o a folder of its own", o->out_dir);
		} else if (S_ISDIR(st.st_mode)) {
			walker w = { .ctx = ctx, .root = input, .rel_root = "", .has_exclude = has_out,
				     .exclude = { out_st.st_dev, out_st.st_ino } };
			const char *const own[3] = { o->report_path, o->junit_path, o->depfile_path };
			struct stat own_st;

			for (size_t k = 0; k < 3; k++)
				if (own[k] && strcmp(own[k], "-") != 0 && stat(own[k], &own_st) == 0 &&
				    S_ISREG(own_st.st_mode)) {
					w.own_names[w.own_count] = own[k];
					w.own[w.own_count++] = (dir_id){ own_st.st_dev, own_st.st_ino };
				}

			if (base_real && !(rel = relative_to_base(base_real, input, &err))) {
				ok = add_decided(plan, input, true, BUILD_FAILED, NULL, ANIMC_ERROR, "%s", err.message);
			} else {
				w.rel_root = rel ? rel : "";
				remember_dir(&w, (dir_id){ st.st_dev, st.st_ino });
				ok = walk(&w, NULL) && walk_later(&w);
			}
			if (w.met_exclude && !has_told_out) {
				say_out_dir_sources(ctx, input);
				has_told_out = true;
			}
			free(w.seen);
			cli_strings_release(&w.later);
		} else if (!S_ISREG(st.st_mode)) {
			ok = add_decided(plan, input, true, BUILD_FAILED, NULL, ANIMC_ERROR,
					 "is %s, not a regular file; not read", cli_file_kind(st.st_mode));
		} else if (base_real) {
			char *dir = dir_of(input);

			rel = dir ? relative_to_base(base_real, dir, &err) : NULL;
			if (!rel)
				ok = add_decided(plan, input, true, BUILD_FAILED, NULL, ANIMC_ERROR, "%s",
						 dir ? err.message : "out of memory");
			else
				ok = add_listed(plan, input, rel, &st, ctx->options->author.clips_path ||
						ctx->options->author.splits.count);
			free(dir);
		} else {
			ok = add_job(plan, input, "", true, &st) != NULL;
		}
		free(rel);
		if (!ok) {
			build_say(ctx, ANIMC_ERROR, NULL, "out of memory");
			free(base_real);
			return false;
		}
	}
	free(base_real);
	if (o->has_project && !add_project_items(plan, o)) {
		fprintf(stderr, "animc: error: out of memory\n");
		return false;
	}
	merge_repeats(plan);
	mark_folder_clashes(plan);
	for (size_t i = 0; i < plan->count; i++)
		plan->jobs[i].out_dir = cli_path_join(o->out_dir, NULL, NULL);
	return true;
}

/* The real path of `path`; of a file not there (deleted: a list of
 * changed files names it), its folder's real path and its name. */
static char *real_path_or_gone(const char *path)
{
	char *real = realpath(path, NULL), *dir, *dir_real = NULL;
	const char *rest;

	if (real || errno != ENOENT)
		return real;
	/* The nearest folder above that is there, and the rest as named: a
	 * file deleted with its folders (git rm -r art/g/buffers). */
	dir = dir_of(path);
	while (dir && !(dir_real = realpath(dir, NULL)) && errno == ENOENT && strcmp(dir, ".") != 0 &&
	       strcmp(dir, "/") != 0) {
		char *up = dir_of(dir);

		free(dir);
		dir = up;
	}
	if (!dir)
		return NULL;
	rest = strcmp(dir, ".") == 0 ? path : path + strlen(dir) + (strcmp(dir, "/") != 0);
	real = dir_real ? cli_path_join(dir_real, rest, NULL) : NULL;
	free(dir), free(dir_real);
	return real;
}

/* Whether the recorded file `dep` is the file whose real path is `real`
 * (named `leaf`), there or deleted: its name first, the file system only
 * then. */
static bool is_file_at(const char *dep, const char *real, const char *leaf)
{
	char *dep_real;
	bool same;

	if (strcmp(cli_basename(dep), leaf) != 0 || !(dep_real = real_path_or_gone(dep)))
		return false;
	same = strcmp(dep_real, real) == 0;
	free(dep_real);
	return same;
}

/* Add the source of entry `e`, read `rel` under the base, as listed. */
static bool add_reader(build_plan *plan, const char *base_real, const manifest_entry *e)
{
	char *dir = dir_of(e->source), *rel;
	struct stat st;
	cli_error err;
	build_job *j = NULL;
	bool ok = true;

	if (dir && stat(e->source, &st) == 0 && S_ISREG(st.st_mode) && (rel = relative_to_base(base_real, dir, &err))) {
		ok = (j = add_job(plan, e->source, rel, true, &st)) != NULL;
		if (j)
			j->is_listed = true;
		free(rel);
	}
	free(dir);
	return ok;
}

bool build_plan_add_readers(build_ctx *ctx)
{
	const build_options *o = ctx->options;
	build_plan *plan = &ctx->plan;
	size_t listed = plan->count;
	char *base_real = o->base_dir && ctx->has_old ? realpath(o->base_dir, NULL) : NULL;
	bool ok = true;

	for (size_t i = 0; base_real && ok && i < listed; i++) {
		char *real = plan->jobs[i].is_listed ? real_path_or_gone(plan->jobs[i].path) : NULL;
		const char *leaf = cli_basename(plan->jobs[i].path);

		for (size_t k = 0; real && ok && k < ctx->old.count; k++) {
			const manifest_entry *e = &ctx->old.entries[k];
			bool reads = false;

			for (uint32_t d = 0; d < e->dep_count && !reads; d++)
				reads = is_file_at(e->deps[d].path, real, leaf);
			if (reads)
				ok = add_reader(plan, base_real, e);
		}
		free(real);
	}
	free(base_real);
	if (!ok) {
		build_say(ctx, ANIMC_ERROR, NULL, "out of memory");
		return false;
	}
	if (plan->count == listed)
		return true;
	merge_repeats(plan);
	mark_folder_clashes(plan);
	for (size_t i = 0; i < plan->count; i++)
		if (!plan->jobs[i].out_dir)
			plan->jobs[i].out_dir = cli_path_join(o->out_dir, NULL, NULL);
	return true;
}

static void release_job(build_job *j)
{
	free(j->path);
	free(j->out_dir);
	free(j->out_base);
	free(j->stem);
	build_result_release(&j->result);
}

/* Jobs to compile (indexes into `plan`), ordered by where they write,
 * then as planned. */
static int compare_out_base(const void *a, const void *b, void *plan)
{
	const build_job *jobs = ((const build_plan *)plan)->jobs;
	size_t i = *(const size_t *)a, k = *(const size_t *)b;
	int c = strcmp(jobs[i].out_base, jobs[k].out_base);

	return c ? c : (i > k) - (i < k);
}

/* Are jobs a and b the same file built the same way? */
static bool same_work(const build_job *a, const build_job *b)
{
	struct stat sa, sb;

	if (a->project != b->project || a->has_units != b->has_units ||
	    (a->has_units && memcmp(&a->units, &b->units, sizeof a->units) != 0))
		return false;
	return stat(a->path, &sa) == 0 && stat(b->path, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/*
 * A source named twice (a file and the folder holding it, "./a.fbx" and
 * "a.fbx") is one job, named on the command line if either was.  Only
 * jobs writing to one place are compared; two different files there stay,
 * and the commit refuses the second's outputs.
 */
static void merge_repeats(build_plan *plan)
{
	size_t *order, n = 0, kept = 0;
	bool *dropped;

	order = malloc((plan->count ? plan->count : 1) * sizeof *order);
	dropped = calloc(plan->count ? plan->count : 1, sizeof *dropped);
	if (!order || !dropped) {
		free(order), free(dropped);
		return;   /* the commit still refuses the repeat's outputs */
	}
	for (size_t i = 0; i < plan->count; i++)
		if (plan->jobs[i].needs_compile && plan->jobs[i].out_base)
			order[n++] = i;
	qsort_r(order, n, sizeof *order, compare_out_base, plan);
	for (size_t g = 0, end; g < n; g = end) {
		for (end = g + 1; end < n && strcmp(plan->jobs[order[end]].out_base, plan->jobs[order[g]].out_base) == 0;
		     end++)
			;
		for (size_t a = g; a < end; a++)
			for (size_t b = a + 1; b < end && !dropped[order[a]]; b++) {
				build_job *first = &plan->jobs[order[a]], *again = &plan->jobs[order[b]];

				if (dropped[order[b]] || !same_work(first, again))
					continue;
				first->is_explicit |= again->is_explicit;
				first->has_no_sidecar &= again->has_no_sidecar;
				dropped[order[b]] = true;
			}
	}
	for (size_t i = 0; i < plan->count; i++) {
		if (dropped[i])
			release_job(&plan->jobs[i]);
		else
			plan->jobs[kept++] = plan->jobs[i];
	}
	plan->count = kept;
	free(order);
	free(dropped);
}

/* The jobs whose outputs' folder may be another job's output file
 * (build_job.writes_at_commit): its out_base, or a folder above it, is
 * some out_base + ".xnb". */
static void mark_folder_clashes(build_plan *plan)
{
	char **files = malloc((plan->count ? plan->count : 1) * sizeof *files);
	size_t n = 0;

	if (!files)
		return;   /* staged: the clash is still refused, by the file system */
	for (size_t i = 0; i < plan->count; i++)
		if (plan->jobs[i].out_base && asprintf(&files[n], "%s.xnb", plan->jobs[i].out_base) >= 0)
			n++;
	qsort(files, n, sizeof *files, cli_compare_strings);
	for (size_t i = 0; i < plan->count; i++) {
		build_job *j = &plan->jobs[i];
		char *at = j->out_base ? strdup(j->out_base) : NULL;

		for (char *cut = at; at && cut && !j->writes_at_commit;) {
			j->writes_at_commit = bsearch(&at, files, n, sizeof *files, cli_compare_strings) != NULL;
			if ((cut = strrchr(at, '/')))
				*cut = '\0';
		}
		free(at);
	}
	for (size_t i = 0; i < n; i++)
		free(files[i]);
	free(files);
}

void build_plan_release(build_plan *plan)
{
	for (size_t i = 0; i < plan->count; i++)
		release_job(&plan->jobs[i]);
	free(plan->jobs);
	memset(plan, 0, sizeof *plan);
}

/* ---------------------------------------------------------- a job's key */

bool build_is_project_file(const build_options *o, const char *path)
{
	for (size_t i = 0; o->has_project && i < o->project.file_count; i++)
		if (strcmp(o->project.files[i], path) == 0)
			return true;
	return false;
}

/* `path` resolved, or for a name not there, its folder resolved and the
 * name after it; NULL when neither resolves. */
static char *real_or_named(const char *path)
{
	char *real = realpath(path, NULL), *folder, *joined = NULL;
	const char *base = cli_basename(path);

	if (real || errno != ENOENT)
		return real;
	folder = base > path ? strndup(path, (size_t)(base - path)) : strdup(".");
	real = folder ? realpath(folder, NULL) : NULL;
	if (real && base[0] && strcmp(base, "..") != 0 && strcmp(base, ".") != 0)
		joined = cli_path_join(real, base, NULL);
	free(folder), free(real);
	return joined;
}

/* build_is_given_file of a path `real` resolved (real_or_named). */
static bool is_given_real(const build_options *o, const char *real)
{
	const char *named[] = { o->author.clips_path, o->mgcb_path, o->skeleton_path };
	/* The folders of the project and of the model: what they read lies
	 * there (a model's .skeleton.xml beside it). */
	const char *beside[] = { o->mgcb_path, o->skeleton_path };
	size_t beside_count = sizeof beside / sizeof beside[0];
	bool is_given = false;

	for (size_t i = 0; real && !is_given && i < sizeof named / sizeof named[0]; i++) {
		char *other = named[i] ? realpath(named[i], NULL) : NULL;

		is_given = other && strcmp(real, other) == 0;
		free(other);
	}
	for (size_t i = 0; real && !is_given && i < o->inputs.count + beside_count; i++) {
		char *folder = NULL, *root;

		if (i >= o->inputs.count) {
			const char *file = beside[i - o->inputs.count];
			const char *base = file ? cli_basename(file) : NULL;

			if (!base)
				continue;
			if (!(folder = base > file ? strndup(file, (size_t)(base - file)) : strdup(".")))
				break;
		}
		root = realpath(folder ? folder : o->inputs.items[i], NULL);
		free(folder);
		if (root) {
			is_given = cli_path_is_within(real, root);
			free(root);
		}
	}
	return is_given;
}

bool build_is_given_file(const build_options *o, const char *path)
{
	char *real = real_or_named(path);
	bool is_given = real && is_given_real(o, real);

	free(real);
	return is_given;
}

/* The XXH3-128 of what cuts the sources named on the command line
 * (--clips as its document's hash, each --split in the order given), in
 * hexadecimal: it joins only their keys, so an edit of the document
 * compiles only what it cuts. */
static void cut_options_hex(const build_options *o, char hex[33])
{
	XXH3_state_t *state = XXH3_createState();
	build_hash hash;

	memset(&hash, 0, sizeof hash);
	if (state) {
		XXH3_128bits_reset(state);
		for (size_t i = 0; i + 1 < o->cut_key_options.count; i += 2) {
			const char *value = o->cut_key_options.items[i + 1];

			build_key_file(o->cut_key_options.items[i], "", (const uint8_t *)value, strlen(value),
				       build_key_emit_xxh3, state);
		}
		build_hash_from_state(state, &hash);
		XXH3_freeState(state);
	}
	build_hash_hex(&hash, hex);
}

void build_job_facts(const build_options *o, const build_job *j, char out[BUILD_JOB_FACTS])
{
	const char *base = cli_basename(j->path);
	size_t stem = cli_stem_length(base), n = 0;

	out[0] = '\0';
	if (j->has_units)
		n += (size_t)snprintf(out + n, BUILD_JOB_FACTS - n, "units %a %a %a %a\n", j->units.scale,
				      j->units.rotation_deg[0], j->units.rotation_deg[1], j->units.rotation_deg[2]);
	/* A project item named other than its source: its outputs' names. */
	if (j->project && n < BUILD_JOB_FACTS && (strlen(j->stem) != stem || strncmp(j->stem, base, stem) != 0))
		n += (size_t)snprintf(out + n, BUILD_JOB_FACTS - n, "named %s\n", j->stem);
	if (j->is_explicit && (o->author.clips_path || o->author.splits.count) && n < BUILD_JOB_FACTS) {
		char hex[33];

		cut_options_hex(o, hex);
		snprintf(out + n, BUILD_JOB_FACTS - n, "cut by the command line %s\n", hex);
	}
}

void build_job_key(const build_options *o, const build_job *j, build_key_emit emit, void *user)
{
	char facts[BUILD_JOB_FACTS];

	build_job_facts(o, j, facts);
	if (facts[0])
		build_key_file("job", "", (const uint8_t *)facts, strlen(facts), emit, user);
}

/* The reader_version of the importer that read job j's source: its
 * compile's, once it has a result; else that of the importer its record
 * names, as loaded now (Assimp loaded for it, only for such a record). */
static const char *job_reader_version(const build_job *j)
{
	const animc_importer *importer;

	if (j->result.importer[0])
		return j->result.reader_version;
	importer = j->previous && j->previous->importer[0] ? animc_importer_by_name(j->previous->importer) : NULL;
	return importer && importer->reader_version ? importer->reader_version() : "";
}

void build_job_run_key(const build_ctx *ctx, const build_job *j, build_hash *out)
{
	char facts[BUILD_JOB_FACTS];
	const char *reader = job_reader_version(j);
	uint8_t both[16 + BUILD_JOB_FACTS + 64];
	size_t n, r;

	build_job_facts(ctx->options, j, facts);
	if (!facts[0] && !reader[0]) {
		*out = ctx->run_key;
		return;
	}
	n = strlen(facts);
	r = strnlen(reader, 64);
	memcpy(both, ctx->run_key.bytes, 16);
	memcpy(both + 16, facts, n);
	/* The reader's version after a NUL: no facts end so. */
	if (r)
		both[16 + n] = '\0', memcpy(both + 17 + n, reader, r);
	build_hash_bytes(both, 16 + n + (r ? r + 1 : 0), out);
}

/* ------------------------------------------------------ up-to-date check */

/* The file as recorded: by its state, else by its bytes (hash NULL: by
 * its state alone).  *fresh gets the state to record now.  `distrust`: a
 * source or a file its import read
 * (its state from the last two seconds not trusted; mtime or ctime, whichever
 * is later); else an output, which only animc writes (mtime), and which
 * a symbolic link put in its place is not: it does not match, and the
 * output is written anew over the link. */
static bool file_matches(const char *path, const build_file_state *recorded, const build_hash *hash,
			 const build_file_state *known, build_file_state *fresh, bool distrust)
{
	struct stat st;
	build_file_state now;
	build_hash h;
	cli_error err;

	if (known) {
		now = *known;
	} else {
		if ((distrust ? stat(path, &st) : lstat(path, &st)) != 0 || !S_ISREG(st.st_mode))
			return false;
		if (distrust)
			build_source_state_from(&st, &now);
		else
			build_file_state_from(&st, &now);
	}
	*fresh = now;
	if (distrust)
		build_file_state_distrust_recent(fresh);
	if (build_file_state_equal(recorded, &now))
		return true;
	if (recorded->size != now.size || !hash)
		return false;
	return build_hash_file(path, &h, &err) && build_hash_equal(&h, hash);
}

static bool copy_entry_into(build_ctx *ctx, build_job *j, const manifest_entry *e)
{
	build_result *r = &j->result;

	(void)ctx;
	memset(r, 0, sizeof *r);
	r->status = e->status == BUILD_SKIPPED ? BUILD_SKIPPED : BUILD_UP_TO_DATE;
	snprintf(r->importer, sizeof r->importer, "%s", e->importer);
	/* The reader the check found loaded: the record's (its run key says). */
	const animc_importer *importer = e->importer[0] ? animc_importer_by_name(e->importer) : NULL;
	if (importer && importer->reader_version)
		snprintf(r->reader_version, sizeof r->reader_version, "%s", importer->reader_version());
	if (e->skip_reason && !(r->skip_reason = strdup(e->skip_reason)))
		return false;
	r->has_source = true;
	r->source_hash = e->hash;
	r->key = e->key;
	if (e->dep_count) {
		r->deps = calloc(e->dep_count, sizeof *r->deps);
		if (!r->deps)
			return false;
		for (uint32_t i = 0; i < e->dep_count; i++) {
			r->deps[i] = e->deps[i];
			r->deps[i].path = strdup(e->deps[i].path);
			if (!r->deps[i].path)
				return false;
			r->dep_count++;
		}
	}
	if (e->output_count) {
		r->outputs = calloc(e->output_count, sizeof *r->outputs);
		if (!r->outputs)
			return false;
		for (uint32_t i = 0; i < e->output_count; i++) {
			const manifest_output *m = &e->outputs[i];
			build_output *o = &r->outputs[i];

			o->name = strdup(m->path);
			o->clip = strdup(m->clip);
			r->output_count++;
			if (!o->name || !o->clip)
				return false;
			o->size = m->size;
			o->hash = m->hash;
			o->state = m->state;
			o->bones = m->bones;
			o->keys = m->keys;
			o->duration_s = m->duration_s;
			o->is_motion = m->is_motion;
		}
	}
	/* Its warnings, said and counted again while it is up to date (those
	 * of kinds this build's --allow names are not, by the printer). */
	for (uint32_t i = 0; i < e->warning_count; i++) {
		const build_diag *d = &e->warnings[i];

		build_result_diag_kind(r, d->severity, d->kind, d->line, d->column, d->byte_offset, "%s", d->message);
	}
	return r->diag_count == e->warning_count;
}

/* `path` with its folder resolved (symbolic links, "." and ".."), its name
 * as it is: where a link lies, not where it leads.  NULL when the folder
 * does not resolve. */
static char *folder_resolved(const char *path)
{
	char *folder = dir_of(path), *real = folder ? realpath(folder, NULL) : NULL, *joined = NULL;
	const char *base = cli_basename(path);

	if (real && base[0])
		joined = cli_path_join(real, base, NULL);
	free(folder), free(real);
	return joined;
}

/* Whether `dep` names the clip-split sidecar of job `j`, however either is
 * spelt (a record keeps the spelling of the build that saved it, relative
 * or absolute): the sidecar beside the source, itself maybe a link. */
static bool is_sidecar_of(const build_job *j, const char *dep)
{
	char *sidecar = build_sidecar_path(j->path);
	char *here = sidecar ? folder_resolved(sidecar) : NULL, *named = here ? folder_resolved(dep) : NULL;
	bool is = named && strcmp(here, named) == 0;

	free(sidecar), free(here), free(named);
	return is;
}

/* Where dependency `dep` of job `j` may be read from (build_dep_open),
 * a new string: its resolved path, or for the sidecar reached through a
 * link that leads out of the folders given, its name (*by_name).  NULL
 * when it may not be read. */
static char *dep_read_path(const build_options *o, const build_job *j, const char *dep, bool *by_name)
{
	char *folder = dir_of(j->path), *root = folder ? realpath(folder, NULL) : NULL;
	char *real = root ? real_or_named(dep) : NULL;

	*by_name = false;
	if (real && !((cli_path_is_within(real, root) && strcmp(real, root) != 0) || is_given_real(o, real))) {
		free(real);
		real = NULL;
		if (is_sidecar_of(j, dep)) {
			*by_name = true;
			real = strdup(dep);
		} else {
			errno = EPERM;
		}
	}
	int error = errno;

	free(folder), free(root);
	errno = error;
	return real;
}

int build_dep_open(const build_options *o, const build_job *j, const char *dep)
{
	/* Checked again when a folder on the way became a link since; a few
	 * times at most, against one swapping it back and forth. */
	for (int tries = 0;; tries++) {
		bool by_name;
		char *from = dep_read_path(o, j, dep, &by_name);
		int fd = !from ? -1 : by_name ? open(from, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
					     : cli_open_resolved(from);
		int error = errno;
		bool again = from && !by_name && (error == ELOOP || error == ENOTDIR) && tries < 3;
		struct stat st;

		/* A name found by its folder (real_or_named) because it is a
		 * link that leads nowhere yet: a file not there, as open()
		 * by its name says. */
		if (fd < 0 && from && error == ELOOP && stat(from, &st) != 0 && errno == ENOENT) {
			error = ENOENT;
			again = false;
		}
		free(from);
		errno = error;
		if (fd >= 0 || !again)
			return fd;
	}
}

/* file_matches of a recorded dependency, read only where it may be
 * (build_dep_open): the state and bytes of the file checked. */
static bool dep_matches(const build_options *o, const build_job *j, const build_dep *d, build_file_state *fresh)
{
	int fd = build_dep_open(o, j, d->path);
	struct stat st;
	build_file_state now;
	build_hash h;
	uint8_t *data;
	size_t size;
	cli_error err;

	if (fd < 0)
		return false;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return false;
	}
	build_source_state_from(&st, &now);
	*fresh = now;
	build_file_state_distrust_recent(fresh);
	bool same = build_file_state_equal(&d->state, &now);

	if (same || d->state.size != now.size) {
		close(fd);
		return same;
	}
	if (!cli_read_opened(fd, d->path, &data, &size, &err))
		return false;
	build_hash_bytes(data, size, &h);
	free(data);
	return build_hash_equal(&h, &d->hash);
}

/* Whether job `j` can take its result from manifest entry `e`. */
static bool is_current(build_ctx *ctx, build_job *j, const manifest_entry *e)
{
	build_file_state fresh;
	build_file_state *dep_states = NULL, *out_states = NULL;
	bool ok = false;

	if (e->status == BUILD_FAILED || strcmp(e->out_base, j->out_base) != 0)
		return false;
	/* A source built with --allow whose warning this build does not
	 * allow fails --warnings-as-errors: compiled again, it says so. */
	for (uint32_t i = 0; ctx->options->warnings_as_errors && i < e->warning_count; i++)
		if (!build_diag_is_allowed(ctx->options, &e->warnings[i]))
			return false;
	/* A file named on the command line warns or fails where one found in
	 * a folder is skipped quietly: ask the importers again. */
	if (e->status == BUILD_SKIPPED && j->is_explicit)
		return false;
	/* A file no importer recognised was judged by its head: probed
	 * again, never read whole to compare its bytes. */
	bool probed = e->status == BUILD_SKIPPED && !e->importer[0];
	if (!file_matches(j->path, &e->state, probed ? NULL : &e->hash, j->has_state ? &j->state : NULL, &fresh,
			  true))
		return false;
	if ((e->dep_count && !(dep_states = calloc(e->dep_count, sizeof *dep_states))) ||
	    (e->output_count && !(out_states = calloc(e->output_count, sizeof *out_states))))
		goto out;
	for (uint32_t i = 0; i < e->dep_count; i++) {
		struct stat st;

		/* The project: its state as it is, whatever changed in it,
		 * so that the outputs' mtimes settle past it for make. */
		if (build_is_project_file(ctx->options, e->deps[i].path) && stat(e->deps[i].path, &st) == 0) {
			build_source_state_from(&st, &dep_states[i]);
			build_file_state_distrust_recent(&dep_states[i]);
			continue;
		}
		/* A file the import looked for and did not find: still not there. */
		if (build_dep_is_absent(&e->deps[i])) {
			if (!build_path_is_absent(e->deps[i].path))
				goto out;
			continue;
		}
		if (!dep_matches(ctx->options, j, &e->deps[i], &dep_states[i]))
			goto out;
	}
	/* A clip-split sidecar that came since splits the source now. */
	if (!build_plan_knows_sidecar(ctx, j, e->deps, e->dep_count))
		goto out;
	for (uint32_t i = 0; i < e->output_count; i++) {
		char *path = cli_path_join(ctx->options->out_dir, e->outputs[i].path, NULL);
		bool intact = path && file_matches(path, &e->outputs[i].state, &e->outputs[i].hash, NULL,
						    &out_states[i], false);

		free(path);
		if (!intact)
			goto out;
	}
	if (!copy_entry_into(ctx, j, e)) {
		build_result_release(&j->result);
		goto out;
	}
	j->result.source_state = fresh;
	for (uint32_t i = 0; i < j->result.dep_count; i++)
		j->result.deps[i].state = dep_states[i];
	for (uint32_t i = 0; i < j->result.output_count; i++)
		j->result.outputs[i].state = out_states[i];
	ok = true;
out:
	free(dep_states);
	free(out_states);
	return ok;
}

typedef struct check_share {
	build_ctx *ctx;
	size_t first, step;
	bool same_options;   /* the manifest may say a job is up to date */
	bool has_cache;      /* a shared cache is set up: which sources skip it */
} check_share;

/* A source found in a folder, whose state the walk left to this check: it
 * may have gone, or become something else, since the folder listed it. */
static void stat_source(const build_options *o, build_job *j)
{
	struct stat st;
	char message[256];
	int error = 0;

	if (j->has_state || !j->needs_compile || j->is_done)
		return;
	if (stat(j->path, &st) != 0) {
		error = errno;
	} else if (S_ISREG(st.st_mode)) {
		j->has_state = true;
		build_source_state_from(&st, &j->state);
		j->size = (uint64_t)st.st_size;
		return;
	}
	/* Gone since the folder listed it: it was not there (a name that
	 * lives for a moment, such as sed -i's sedXXXXXX), which is no
	 * unreadable file; build_plan_check leaves it out. */
	if (!j->is_explicit && (error == ENOENT || error == ENOTDIR) && lstat(j->path, &st) != 0) {
		j->needs_compile = false;
		j->is_done = j->is_gone = true;
		return;
	}
	/* As the walk would have said it. */
	if (error) {
		decide_unreadable(o, j, strerror_r(error, message, sizeof message));
		return;
	}
	if (!S_ISDIR(st.st_mode)) {
		decide_special(j, st.st_mode);
		return;
	}
	j->needs_compile = false;
	j->is_done = true;
	j->result.status = BUILD_SKIPPED;
	j->result.skip_reason = strdup(cli_file_kind(st.st_mode));
}

static void *check_jobs(void *arg)
{
	check_share *share = arg;
	build_ctx *ctx = share->ctx;

	for (size_t i = share->first; i < ctx->plan.count; i += share->step) {
		build_job *j = &ctx->plan.jobs[i];
		build_hash run_key;

		stat_source(ctx->options, j);
		if (share->same_options && j->needs_compile && j->previous)
			build_job_run_key(ctx, j, &run_key);
		if (share->same_options && j->needs_compile && j->previous &&
		    build_hash_equal(&j->previous->run_key, &run_key) && is_current(ctx, j, j->previous)) {
			j->needs_compile = false;
			j->is_done = true;
		}
		if (share->has_cache && j->needs_compile && !j->is_done)
			j->skips_cache = build_cache_skips(ctx->options, j);
	}
	return NULL;
}

/* Leave out the jobs stat_source found gone, keeping the plan's order. */
static void drop_gone(build_plan *plan)
{
	size_t kept = 0;

	for (size_t i = 0; i < plan->count; i++) {
		if (plan->jobs[i].is_gone)
			release_job(&plan->jobs[i]);
		else
			plan->jobs[kept++] = plan->jobs[i];
	}
	plan->count = kept;
}

/*
 * A file of another kind (a FIFO, a socket, a device) where an earlier
 * build compiled a source: that source, not gone but unreadable, fails
 * naming it and keeps the outputs its last good build wrote (commit.c), as
 * one no importer recognises any more does.  Skipped as a file of another
 * kind, its outputs would be stale, and --prune would remove them.  (A
 * folder there is a folder of the tree, walked: the source is gone.)
 */
static void fail_special(build_plan *plan)
{
	for (size_t i = 0; i < plan->count; i++) {
		build_job *j = &plan->jobs[i];

		if (!j->special_mode || !j->previous || !j->previous->output_count ||
		    j->result.status != BUILD_SKIPPED)
			continue;
		j->result.status = BUILD_FAILED;
		free(j->result.skip_reason);
		j->result.skip_reason = NULL;
		build_result_diag(&j->result, ANIMC_ERROR, 0, 0, -1,
				  "is %s, not a regular file; not read (an earlier build compiled it)",
				  cli_file_kind(j->special_mode));
	}
}

/* Each job's state and whether the manifest shows it up to date. */
static void check_all(build_ctx *ctx, bool same_options, bool has_cache, size_t work)
{
	unsigned threads = ctx->options->jobs < 8 ? ctx->options->jobs : 8;
	pthread_t ids[8];
	check_share shares[8];

	/* The check is system calls (the state of each source the walk found,
	 * a stat per output of the last run) and, where a state changed,
	 * hashing: spread over threads, each taking every threads-th job.  The
	 * threads end before any worker is forked. */
	if (work < 256 || threads < 2)
		threads = 1;
	for (unsigned t = 0; t < threads; t++)
		shares[t] = (check_share){ ctx, t, threads, same_options, has_cache };
	for (unsigned t = 1; t < threads; t++)
		if (pthread_create(&ids[t], NULL, check_jobs, &shares[t]) != 0)
			shares[t].step = 0;
	check_jobs(&shares[0]);
	for (unsigned t = 1; t < threads; t++) {
		if (shares[t].step)
			pthread_join(ids[t], NULL);
		else
			check_jobs(&(check_share){ ctx, t, threads, same_options, has_cache });
	}
}

void build_plan_check(build_ctx *ctx)
{
	bool same_options = ctx->has_old && !ctx->options->rebuild;
	bool has_cache = ctx->options->cache_url || ctx->options->cache_dir;
	size_t work = 0;

	for (size_t i = 0; i < ctx->plan.count; i++) {
		build_job *j = &ctx->plan.jobs[i];
		build_hash run_key;

		j->previous = ctx->has_old ? manifest_find_output(&ctx->old, j->path, j->out_base) : NULL;
		/* Recorded under another spelling of its path ("art", then
		 * "$PWD/art"): the same file, up to date as it was. */
		if (ctx->has_old && !j->previous && j->out_base)
			j->previous = manifest_find_same_file(&ctx->old, j->path, j->out_base);
		work += j->needs_compile && (!j->has_state || has_cache);
		if (!same_options)
			continue;
		/* Made under other options (or another skeleton, or for another
		 * project item or cut, or read by another Assimp): out of date. */
		build_job_run_key(ctx, j, &run_key);
		if (j->previous && !build_hash_equal(&j->previous->run_key, &run_key))
			continue;
		work += j->needs_compile && j->previous && same_options;
	}
	if (work)
		check_all(ctx, same_options, has_cache, work);
	fail_special(&ctx->plan);
	drop_gone(&ctx->plan);
}

bool build_is_my_shard(const build_options *o, const char *out_base)
{
	/* By where the source writes under OUTDIR ("Grund/Idle"), not by its
	 * own name: sources that would write one output (a.Animation and
	 * a.xml, a.fbx and a.X) are in one shard, whose commit refuses the
	 * second as a whole build's does.  "Walk.motion" is hashed as "Walk":
	 * Walk.motion.Animation writes what --root-motion makes of Walk's. */
	static const char motion[] = ".motion";
	size_t n = strlen(out_base), m = sizeof motion - 1;
	char *stem;
	bool mine;

	if (!o->shard.count)
		return true;
	if (n <= m || strcmp(out_base + n - m, motion) != 0)
		return cli_shard_has(&o->shard, out_base);
	stem = strndup(out_base, n - m);
	mine = cli_shard_has(&o->shard, stem ? stem : out_base);
	free(stem);
	return mine;
}

static int compare_paths_of(const void *a, const void *b, void *at)
{
	const build_job *jobs = at;

	return strcmp(jobs[*(const size_t *)a].path, jobs[*(const size_t *)b].path);
}

/* Mark the jobs whose source another job builds to another destination,
 * so that a shard names them as the whole build does. */
static void mark_shared_sources(build_plan *plan)
{
	size_t *order = malloc((plan->count ? plan->count : 1) * sizeof *order);

	if (!order)
		return;
	for (size_t i = 0; i < plan->count; i++)
		order[i] = i;
	qsort_r(order, plan->count, sizeof *order, compare_paths_of, plan->jobs);
	for (size_t i = 1; i < plan->count; i++)
		if (strcmp(plan->jobs[order[i]].path, plan->jobs[order[i - 1]].path) == 0)
			plan->jobs[order[i]].is_shared_source = plan->jobs[order[i - 1]].is_shared_source = true;
	free(order);
}

void build_plan_shard(build_ctx *ctx)
{
	build_plan *plan = &ctx->plan;
	size_t kept = 0;

	if (!ctx->options->shard.count)
		return;
	mark_shared_sources(plan);
	for (size_t i = 0; i < plan->count; i++) {
		build_job *j = &plan->jobs[i];

		if (build_is_my_shard(ctx->options, j->out_base))
			plan->jobs[kept++] = *j;
		else
			release_job(j);
	}
	plan->count = kept;
}
