/*
 * build_cache.c - the build's side of the shared cache (cache.h): each
 * source's cache key, lookups a little ahead of the workers, a hit turned
 * into a result with no import, a compiled result stored.  (--shard is
 * the plan's: build_plan_shard in plan.c.)
 *
 * A source's cache key is the SHA-256 of the source key of key.c with two
 * changes, behind a line of its own:
 *     "animc-cache-key 5\n" <prefix: versions, options, skeleton>
 *     "source <length>\n<name>\n32\n<XXH3-128 of the source, hex>\n" "end\n"
 * The source enters by its XXH3-128, hashed on the cache's thread: SHA-256
 * over the bytes of every source costs a build of small sources more than
 * the 10% a cache may.  The other files its import read are left out: they
 * are known only once it has run.  The entry records them (by name from
 * the source's folder, see dep_entry_name) with their hashes, and a hit
 * whose files differ here is a miss.  (Entries of key line 1 named a file
 * outside the source's folder from the current folder instead; those of key
 * line 2 kept warnings without their kind; those of key line 3, results
 * without the mark of a root-motion file; those of key line 4, no record
 * of the key they were stored under.)
 *
 * The cache never holds a worker up for long: when a worker is free and
 * the next source's lookup has not come back, it waits no longer than a
 * compile takes (a tenth of that while lookups mostly miss), then compiles
 * (see patience_s).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build_cache.h"
#include "engine.h"

/* Lookups made ahead of the next source to dispatch. */
#define LOOKAHEAD 256
/* Before any lookup has come back, how long (from the first) free workers
 * wait for one. */
#define FIRST_GRACE_S 0.25

/* The stage's state, opaque outside this file. */
struct build_cache_stage {
	build_ctx *ctx;
	cli_cache *cache;
	animc_diag_sink warnings;  /* the cache's, to the run's status */
	uint8_t *prefix;           /* the cache key's shared part */
	size_t prefix_size;
	double *asked_s;           /* per job: when its lookup went out; 0: none pending */
	cli_cache_key *ac;         /* per job: the key it was looked up or stored under */
	size_t ahead;              /* dispatch order: looked up so far */
	double compile_s_sum;      /* compiles of this run, for how long to wait */
	unsigned compile_count;
	unsigned hits, misses;     /* answers taken so far */
	double first_s;            /* when the first lookup went out */
	size_t waiting_job;        /* a free worker waits for its lookup ... */
	double waiting_since_s;    /* ... since then (0: none) */
};

/* The cache's warnings, said as the run says its own. */
static void say_warning(void *user, const animc_diag *d)
{
	build_say_kind(user, d->severity, "cache", d->path, "%s", d->message);
}

/* build_key_* callbacks append to a cli_bytes. */
static void emit_buffer(void *user, const void *data, size_t size)
{
	cli_bytes_put(user, data, size);
}

bool build_cache_start(build_ctx *ctx)
{
	const build_options *o = ctx->options;
	cli_cache_options opt = { .url = o->cache_url, .dir = o->cache_dir, .is_read_only = o->cache_read_only,
				  .timeout_s = o->cache_timeout_s, .stop = ctx->stop_signal };
	build_cache_stage *stage;
	cli_error err;

	if (!o->cache_url && !o->cache_dir)
		return true;
	stage = calloc(1, sizeof *stage);
	if (!stage) {
		build_say(ctx, ANIMC_ERROR, NULL, "out of memory");
		return false;
	}
	stage->warnings = (animc_diag_sink){ say_warning, ctx, NULL, 0, 0 };
	opt.sink = &stage->warnings;
	if (!cli_cache_open(&opt, &stage->cache, &err)) {
		build_say(ctx, ANIMC_ERROR, NULL, "%s", err.message);
		free(stage);
		return false;
	}
	stage->ctx = ctx;
	ctx->cache = stage;
	return true;
}

bool build_cache_open(build_ctx *ctx, const uint8_t *model, size_t model_size)
{
	build_cache_stage *stage = ctx->cache;
	cli_bytes prefix = { 0 };

	if (!stage)
		return true;
	emit_buffer(&prefix, "animc-cache-key 5\n", 18);
	build_key_prefix(ctx->options, model, model_size, emit_buffer, &prefix);
	stage->asked_s = calloc(ctx->plan.count ? ctx->plan.count : 1, sizeof *stage->asked_s);
	stage->ac = calloc(ctx->plan.count ? ctx->plan.count : 1, sizeof *stage->ac);
	if (prefix.is_broken || !stage->asked_s || !stage->ac) {
		free(prefix.data);
		build_say(ctx, ANIMC_ERROR, NULL, "out of memory");
		return false;
	}
	stage->prefix = prefix.data;
	stage->prefix_size = prefix.size;
	return true;
}

bool build_cache_skips(const build_options *o, const build_job *j)
{
	bool is_small = j->size < o->cache_min_size, skips = false;
	cli_source src;

	if (!j->has_state)
		return false;
	/* A small source: only the readers that run in the build's own
	 * processes are asked (Assimp's probe would load Assimp here), by
	 * name first, which costs no read (a rename that fools it costs
	 * time, never output), then by content. */
	for (size_t i = 0; is_small && animc_importers[i] && !skips; i++)
		skips = !animc_importers[i]->needs_isolation &&
			animc_importers[i]->probe(j->path, (const uint8_t *)"", 0) != ANIMC_PROBE_NO;
	if (skips || !cli_source_open(&src, j->path, NULL))
		return skips;   /* unreadable: the compile says why */
	for (size_t i = 0; is_small && animc_importers[i] && !skips; i++)
		skips = !animc_importers[i]->needs_isolation &&
			animc_importers[i]->probe(j->path, src.head, src.head_size) == ANIMC_PROBE_CONTENT;
	/* A file no importer claims (a texture, a README) is skipped by the
	 * compile: nothing to fetch, and its key would cost a read of all of
	 * it and a round trip.  The compile's own choice (compile.c), Assimp's
	 * extension list included, as a compile of that file would load it. */
	if (!skips)
		skips = !animc_importer_find(j->path, src.head, src.head_size);
	cli_source_close(&src);
	return skips;
}

/* The cache key of job j's source holding the bytes whose XXH3-128 is
 * `source` (see above); false when out of memory. */
static bool make_key(const build_cache_stage *stage, const build_job *j, const build_hash *source,
		     cli_cache_key *out)
{
	cli_bytes key = { 0 };
	char hex[33];

	build_hash_hex(source, hex);
	emit_buffer(&key, stage->prefix, stage->prefix_size);
	build_key_file("source", cli_basename(j->path), (const uint8_t *)hex, 32, emit_buffer, &key);
	build_job_key(stage->ctx->options, j, emit_buffer, &key);
	build_key_end(emit_buffer, &key);
	if (!key.is_broken)
		cli_cache_key_of(key.data, key.size, out);
	free(key.data);
	return !key.is_broken;
}

/* A source's cache key, on the cache's thread: false when its file cannot
 * be read (it then compiles, and says so). */
static bool key_source(void *user, size_t i, cli_cache_key *out)
{
	build_cache_stage *stage = user;
	const build_job *j = &stage->ctx->plan.jobs[i];
	build_hash h;
	uint8_t *data;
	size_t size;
	cli_error err;

	if (!cli_read_file(j->path, &data, &size, &err))
		return false;
	/* The source by its XXH3-128 (see above). */
	build_hash_bytes(data, size, &h);
	free(data);
	if (!make_key(stage, j, &h, out))
		return false;
	stage->ac[i] = *out;
	return true;
}

static void ask(build_cache_stage *stage, size_t i)
{
	if (stage->ctx->plan.jobs[i].skips_cache)
		return;
	/* --rebuild compiles every source and stores it: its key, and nothing
	 * fetched. */
	if (stage->ctx->options->rebuild) {
		cli_cache_key_with(stage->cache, i, key_source, stage);
		return;
	}
	cli_cache_lookup_with(stage->cache, i, key_source, stage);
	stage->asked_s[i] = build_now_s();
	if (!stage->first_s)
		stage->first_s = stage->asked_s[i];
}

/* Look up the sources of order[] up to a little past `next`. */
static void gate_ahead(void *state, const size_t *order, size_t count, size_t next)
{
	build_cache_stage *stage = state;

	if (!stage->prefix)
		return;
	/* Topped up in batches: the cache's thread is woken once a batch. */
	if (stage->ahead >= count || stage->ahead >= next + LOOKAHEAD / 2)
		return;
	while (stage->ahead < count && stage->ahead < next + LOOKAHEAD) {
		ask(stage, order[stage->ahead]);
		stage->ahead++;
	}
}

/* Readable when a lookup has come back. */
static int gate_fd(void *state)
{
	build_cache_stage *stage = state;

	return cli_cache_fd(stage->cache);
}

static bool gate_is_bypassed(void *state, size_t i)
{
	build_cache_stage *stage = state;

	return stage->ctx->plan.jobs[i].skips_cache;
}

/* Outputs are named under OUTDIR ("copy1/Grund/Idle.xnb"); the cache names
 * them under the source's own folder ("Idle.xnb"), so that one source in
 * several folders is one entry. */
static size_t job_folder_len(const build_job *j)
{
	const char *slash = strrchr(j->out_base, '/');

	return slash ? (size_t)(slash - j->out_base) : 0;
}

static char *folder_join(const build_job *j, const char *name)
{
	char *s = NULL;

	if (asprintf(&s, "%.*s/%s", (int)job_folder_len(j), j->out_base, name) < 0)
		return NULL;
	return s;
}

/* Where a name under OUTDIR goes on under the source's folder. */
static size_t name_in_folder(const build_job *j, const char *name)
{
	size_t n = job_folder_len(j);

	return n && strncmp(name, j->out_base, n) == 0 && name[n] == '/' ? n + 1 : 0;
}

/* The name of another file, relative to the source's folder when under it
 * (as the key names it). */
static size_t dep_name_at(const char *source, const char *dep)
{
	const char *base = cli_basename(source);
	size_t dir_len = (size_t)(base - source);

	return dir_len && strncmp(dep, source, dir_len) == 0 ? dir_len : 0;
}

/* The parts of a path as the build spells it, "." and empty ones left out. */
#define PATH_PARTS_MAX 128
typedef struct path_parts {
	const char *at[PATH_PARTS_MAX];
	size_t len[PATH_PARTS_MAX];
	int count;
	bool is_absolute;
} path_parts;

static bool is_up(const char *part, size_t len)
{
	return len == 2 && part[0] == '.' && part[1] == '.';
}

/* False for a path of more parts, or with a ".." anywhere but at the start
 * of a relative path: what "NAME/.." is depends on symlinks, which a name
 * made by taking parts off as text cannot follow. */
static bool split_path(const char *path, size_t path_len, path_parts *p)
{
	p->count = 0;
	p->is_absolute = path_len && path[0] == '/';
	for (size_t i = 0; i < path_len;) {
		size_t n = strcspn(path + i, "/");

		n = n < path_len - i ? n : path_len - i;
		if (n && !(n == 1 && path[i] == '.')) {
			if (p->count == PATH_PARTS_MAX || (is_up(path + i, n) && (p->is_absolute || (p->count &&
			    !is_up(p->at[p->count - 1], p->len[p->count - 1])))))
				return false;
			p->at[p->count] = path + i;
			p->len[p->count++] = n;
		}
		i += n + 1;
	}
	return true;
}

static char *parts_join(const path_parts *p, int from, int ups, const char *rest)
{
	size_t size = (size_t)ups * 3 + 2 + (rest ? strlen(rest) : 0);
	char *s, *at;

	for (int i = from; i < p->count; i++)
		size += p->len[i] + 1;
	s = at = malloc(size);
	if (!s)
		return NULL;
	if (p->is_absolute && from == 0)
		*at++ = '/';
	for (int i = 0; i < ups; i++)
		at = stpcpy(at, "../");
	for (int i = from; i < p->count; i++) {
		memcpy(at, p->at[i], p->len[i]);
		at += p->len[i];
		*at++ = '/';
	}
	if (rest)
		at = stpcpy(at, rest);
	else if (at > s && at[-1] == '/')
		at--;
	*at = '\0';
	return s;
}

/* `path` (relative) from the root: the current folder `cwd`, which
 * getcwd gives with no link in it, less a folder for each "../" that
 * `path` starts with; those are then exact.  NULL when out of memory, or
 * above the root. */
static char *from_root(const char *cwd, const char *path)
{
	size_t n = strlen(cwd);
	char *whole;

	while (strncmp(path, "../", 3) == 0) {
		while (n > 1 && cwd[n - 1] != '/')
			n--;
		if (n <= 1)
			return NULL;
		n--;   /* its '/' */
		path += 3;
	}
	if (asprintf(&whole, "%.*s/%s", (int)n, cwd, path) < 0)
		return NULL;
	return whole;
}

/* dep_entry_name of two paths spelt alike (both relative, or both from
 * the root); NULL when the source's folder climbs above the folder they
 * are relative to, whose name is not known. */
static char *entry_name_of(const char *source, const char *dep)
{
	size_t dir_len = (size_t)(cli_basename(source) - source);
	path_parts dir, file;
	int common = 0;

	if (!split_path(source, dir_len, &dir) || !split_path(dep, strlen(dep), &file) || !file.count)
		return NULL;
	while (common < dir.count && common < file.count - 1 && dir.len[common] == file.len[common] &&
	       memcmp(dir.at[common], file.at[common], dir.len[common]) == 0)
		common++;
	for (int i = common; i < dir.count; i++)
		if (is_up(dir.at[i], dir.len[i]))
			return NULL;
	file.is_absolute = false;
	return parts_join(&file, common, dir.count - common, NULL);
}

/* How an entry names another file its import read: relative to the
 * source's folder, with a "../" for each folder above it
 * ("../Content.mgcb" for a MonoGame project above the item's folder), so
 * that a hit reads the same file wherever the tree is.  The build names
 * files relative to the current folder, or from the root; a relative one
 * beside an absolute one, or one whose source lies above the current
 * folder (../art/W.xml and a --clips document here), is taken from the
 * root.  NULL when it cannot be named so (see split_path), or out of
 * memory. */
static char *dep_entry_name(const char *source, const char *dep)
{
	char *cwd = NULL, *whole_source = NULL, *whole_dep = NULL, *name = NULL;

	if ((source[0] == '/') == (dep[0] == '/') && (name = entry_name_of(source, dep)))
		return name;
	if (!(cwd = getcwd(NULL, 0)))
		return NULL;
	if (source[0] != '/' && !(source = whole_source = from_root(cwd, source)))
		goto out;
	if (dep[0] != '/' && !(dep = whole_dep = from_root(cwd, dep)))
		goto out;
	name = entry_name_of(source, dep);
out:
	free(cwd), free(whole_source), free(whole_dep);
	return name;
}

/* An item of the --mgcb project fetched: the project's files join its
 * dependencies, as its compile records them (the entry holds none of
 * them).  False when one cannot be read. */
static bool project_deps(const build_ctx *ctx, const build_job *j, build_result *r)
{
	size_t count = j->project ? j->project->file_count : 0;
	build_dep *grown;

	if (!count)
		return true;
	grown = realloc(r->deps, (r->dep_count + count) * sizeof *grown);
	if (!grown)
		return false;
	r->deps = grown;
	for (size_t k = 0; k < count; k++) {
		build_dep *d = &r->deps[r->dep_count];
		uint8_t *data;
		size_t size;
		struct stat st;
		cli_error err;

		memset(d, 0, sizeof *d);
		const build_dep *taken = build_project_dep(ctx, j->project->files[k]);

		if (taken) {
			*d = *taken;
			if (!(d->path = strdup(taken->path)))
				return false;
			r->dep_count++;
			continue;
		}
		if (stat(j->project->files[k], &st) != 0 || !cli_read_file(j->project->files[k], &data, &size, &err))
			return false;
		build_hash_bytes(data, size, &d->hash);
		free(data);
		build_source_state_from(&st, &d->state);
		build_file_state_distrust_recent(&d->state);
		if (!(d->path = strdup(j->project->files[k])))
			return false;
		r->dep_count++;
	}
	return true;
}

/* The file an entry names (dep_entry_name) as this build names files:
 * from the source's folder as the build spells it; NULL for a name no
 * entry makes.  A name with no "../" keeps that folder's spelling whole
 * (the sidecar's path is compared as it is spelled). */
static char *dep_path_here(const char *source, const char *name)
{
	size_t dir_len = (size_t)(cli_basename(source) - source);
	int ups = 0;
	path_parts dir;

	while (strncmp(name, "../", 3) == 0)
		name += 3, ups++;
	if (!cli_action_path_is_safe(name))
		return NULL;
	if (!ups) {
		char *folder = strndup(source, dir_len), *path = folder ? cli_path_join(folder, name, NULL) : NULL;

		free(folder);
		return path;
	}
	if (!split_path(source, dir_len, &dir))
		return NULL;
	while (ups && dir.count && !is_up(dir.at[dir.count - 1], dir.len[dir.count - 1]))
		dir.count--, ups--;
	if (ups && dir.is_absolute)
		return NULL;   /* above the root */
	/* What is left of the folder is ".." parts alone: the order of the
	 * rest does not matter. */
	return parts_join(&dir, 0, ups, name);
}

/* Whether `name`, an output the cache's entry names (under the source's
 * folder), is one this source's compile writes: STEM.xnb, STEM.motion.xnb
 * or STEM/CLIP.xnb (CLIP.motion.xnb), with this run's extension.  An entry
 * naming anything else (another folder, the state folder, a name through
 * a link) was not stored by a build of this source. */
static bool is_own_output_name(const build_ctx *ctx, const build_job *j, const char *name)
{
	const char *ext = ctx->options->xnb.compression == ANIMC_COMPRESSION_ZSTD ? ".xnb.zst" : ".xnb";
	const char *stem = cli_basename(j->out_base), *rest;
	size_t n = strlen(stem), len = strlen(name), ext_len = strlen(ext);

	if (strncmp(name, stem, n) != 0 || len < n + ext_len || strcmp(name + len - ext_len, ext) != 0)
		return false;
	rest = name + n;
	if (rest[0] == '.')   /* STEM.xnb or STEM.motion.xnb */
		return strcmp(rest, ext) == 0 ||
		       (strncmp(rest, ".motion", 7) == 0 && strcmp(rest + 7, ext) == 0);
	if (rest[0] != '/' || strchr(rest + 1, '/'))
		return false;
	/* STEM/CLIP.xnb: a clip's name made a file name (build_safe_name: no
	 * '/', no leading dot), not empty. */
	return rest[1] != '.' && rest + 1 < name + len - ext_len;
}

/* The entry's outputs named under the source's own folder, each one this
 * source's compile writes (is_own_output_name); false when one is not
 * (said) or out of memory. */
static bool name_hit_outputs(build_ctx *ctx, const build_job *j, build_result *r, const cli_cache_result *hit)
{
	for (uint32_t i = 0; i < r->output_count; i++) {
		build_output *o = &r->outputs[i];
		char *name;

		if (!o->name || strcmp(o->name, hit->outputs[i].path) != 0 || o->staged)
			return false;
		if (!is_own_output_name(ctx, j, o->name)) {
			build_say_kind(ctx, ANIMC_WARNING, "cache", j->path, "the cache's entry for it names an output "
				       "'%s' that it does not write; not used, compiling instead", o->name);
			return false;
		}
		name = job_folder_len(j) ? folder_join(j, o->name) : strdup(o->name);
		if (!name)
			return false;
		free(o->name);
		o->name = name;
		o->is_unchanged = o->is_written = o->is_refused = false;
		memset(&o->state, 0, sizeof o->state);
	}
	return true;
}

/* Each fetched output as the compile that stored the entry made it (its
 * size and hash in the entry's record): a blob of another output, an
 * entry edited to name it, is not this one (said). */
static bool hit_holds_its_bytes(build_ctx *ctx, const build_job *j, const build_result *r,
				const cli_cache_result *hit)
{
	for (uint32_t i = 0; i < r->output_count; i++) {
		build_hash h;

		build_hash_bytes(hit->outputs[i].data, hit->outputs[i].size, &h);
		if (hit->outputs[i].size != r->outputs[i].size || !build_hash_equal(&h, &r->outputs[i].hash)) {
			build_say_kind(ctx, ANIMC_WARNING, "cache", j->path, "the cache's entry for it holds other bytes "
				       "for '%s' than its compile made; not used, compiling instead",
				       cli_basename(r->outputs[i].name));
			return false;
		}
	}
	return true;
}

/* Whether the entry's compile read the source with the reader loaded
 * here: one made by another Assimp (one soname is carried by versions
 * that read files differently) is not used. */
static bool has_this_reader(const build_result *r)
{
	const animc_importer *importer = animc_importer_by_name(r->importer);

	return !importer || !importer->reader_version || strcmp(importer->reader_version(), r->reader_version) == 0;
}

/* Whether the other files the entry's import read are as they were, each
 * joining the local `key`, and its records respelled for here.  Named from
 * the source's folder (dep_entry_name): anything else was another
 * machine's path, and is not read here.  A name that climbs above the
 * source's folder is read only where it is a file the user gave, and
 * any only where the compile would read it (build_dep_open). */
static bool deps_as_they_were(const build_ctx *ctx, const build_job *j, build_result *r, XXH3_state_t *key)
{
	for (uint32_t i = 0; i < r->dep_count; i++) {
		build_dep *d = &r->deps[i];
		char *path = d->path ? dep_path_here(j->path, d->path) : NULL;
		uint8_t *data;
		size_t size;
		cli_error err;
		build_hash h;
		struct stat st;
		int fd;

		if (path && strncmp(d->path, "../", 3) == 0 && !build_is_given_file(ctx->options, path)) {
			free(path);
			path = NULL;
		}
		/* A file the compile looked for and did not find: still not
		 * there, or the entry is of a source without it. */
		if (path && build_dep_is_absent(d)) {
			if (!build_path_is_absent(path)) {
				free(path);
				return false;
			}
			build_key_absent(path + dep_name_at(j->path, path), build_key_emit_xxh3, key);
			free(d->path);
			d->path = path;
			continue;
		}
		/* Read only where the compile would read it: a link in the
		 * source's folder that leads out of it is not followed, nor
		 * one put in place of a folder since it was checked. */
		fd = path ? build_dep_open(ctx->options, j, path) : -1;
		if (fd >= 0 && fstat(fd, &st) != 0) {
			close(fd);
			fd = -1;
		}
		if (fd < 0 || !cli_read_opened(fd, path, &data, &size, &err)) {
			free(path);
			return false;
		}
		build_hash_bytes(data, size, &h);
		if (!build_hash_equal(&h, &d->hash)) {
			free(data);
			free(path);
			return false;
		}
		build_key_file("file", path + dep_name_at(j->path, path), data, size, build_key_emit_xxh3, key);
		free(data);
		build_source_state_from(&st, &d->state);
		build_file_state_distrust_recent(&d->state);
		free(d->path);
		d->path = path;
	}
	return true;
}

/* A hit as this run's result: outputs from the cache, the rest from the
 * entry's meta (the compile's result, bytes left out).  False when the
 * entry does not fit this source (another layout of outputs, other files
 * read that differ here): the source compiles. */
static bool take_hit(build_ctx *ctx, build_job *j, cli_cache_result *hit)
{
	build_result r;
	XXH3_state_t *key = NULL;
	uint8_t *data = NULL;
	size_t size;
	cli_error err;
	bool ok = false;

	if (!build_result_decode(hit->meta, hit->meta_size, &r))
		return false;

	if (r.status != BUILD_COMPILED || r.output_count != hit->output_count || !has_this_reader(&r))
		goto out;
	/* Stored by a build whose --allow took a warning this one does not
	 * allow: under --warnings-as-errors the source fails, so it compiles. */
	for (uint32_t i = 0; ctx->options->warnings_as_errors && i < r.diag_count; i++)
		if (r.diags[i].severity == ANIMC_WARNING && !build_diag_is_allowed(ctx->options, &r.diags[i]))
			goto out;
	if (!name_hit_outputs(ctx, j, &r, hit))
		goto out;
	/* The source as it is now, for the manifest and the local key. */
	if (!cli_read_file(j->path, &data, &size, &err) || !(key = XXH3_createState()))
		goto out;
	build_hash stored = r.source_hash;
	build_hash_bytes(data, size, &r.source_hash);
	/* An entry the key names is made from these bytes (the key holds
	 * their hash): one made from others was stored under a wrong key. */
	if (!r.has_source || !build_hash_equal(&stored, &r.source_hash)) {
		build_say_kind(ctx, ANIMC_WARNING, "cache", j->path, "the cache's entry for it was made from another "
			       "source; not used, compiling instead");
		goto out;
	}
	/* Filed under another key (a server or a sync tool that mixed
	 * names): made with other options. */
	if (memcmp(r.key.bytes, ctx->cache->ac[j - ctx->plan.jobs].sha256, sizeof r.key.bytes) != 0) {
		build_say_kind(ctx, ANIMC_WARNING, "cache", j->path, "the cache's entry for it was stored under "
			       "another key (other options, or another version of animc); not used, compiling instead");
		goto out;
	}
	r.has_source = true;
	r.source_state = j->state;
	build_file_state_distrust_recent(&r.source_state);
	XXH3_copyState(key, ctx->key_prefix);
	build_key_file("source", cli_basename(j->path), data, size, build_key_emit_xxh3, key);
	build_job_key(ctx->options, j, build_key_emit_xxh3, key);
	free(data);
	data = NULL;
	if (!deps_as_they_were(ctx, j, &r, key))
		goto out;
	/* A clip-split sidecar that the entry's compile did not read splits
	 * the source now: the entry is of the unsplit source. */
	if (!build_plan_knows_sidecar(ctx, j, r.deps, r.dep_count) || !project_deps(ctx, j, &r))
		goto out;
	build_key_end(build_key_emit_xxh3, key);
	build_hash_from_state(key, &r.key);
	if (!hit_holds_its_bytes(ctx, j, &r, hit))
		goto out;
	for (uint32_t i = 0; i < r.output_count; i++) {
		build_output *o = &r.outputs[i];

		o->bytes = hit->outputs[i].data;
		o->size = hit->outputs[i].size;
		hit->outputs[i].data = NULL;
	}
	r.status = BUILD_CACHED;
	r.time_s = 0;
	build_result_release(&j->result);
	j->result = r;
	ok = true;
out:
	free(data);
	if (key)
		XXH3_freeState(key);
	if (!ok)
		build_result_release(&r);
	return ok;
}

/* How long a free worker may wait for job i's lookup.  While no lookup has
 * come back, a quarter second from the first; while most come back as hits,
 * as long as a compile takes (waiting is cheaper than compiling, and lets
 * the lookups catch up on a busy machine); while most are misses, a tenth
 * of that (a miss means compiling anyway). */
static double patience_s(const build_cache_stage *stage, double now)
{
	unsigned answered = stage->hits + stage->misses;
	double compile_s = stage->compile_count ? stage->compile_s_sum / stage->compile_count : FIRST_GRACE_S;

	if (!answered)
		return stage->first_s + FIRST_GRACE_S - now;
	return 2 * stage->hits >= answered ? compile_s : compile_s / 10;
}

/* Before job i goes to a worker.  While its lookup is under way: with a
 * worker free, wait for as long as patience allows (*wait_s lowered), then
 * compile; with none free, wait, and patience is not yet spent. */
static build_gate_verdict gate_check(void *state, size_t i, bool is_worker_free, double *wait_s)
{
	build_cache_stage *stage = state;
	build_ctx *ctx = stage->ctx;
	build_job *j = &ctx->plan.jobs[i];
	cli_cache_result hit;
	double now, patience;

	if (!stage->asked_s || !stage->asked_s[i])
		return BUILD_GATE_RUN;
	switch (cli_cache_take(stage->cache, i, false, &hit)) {
	case CLI_CACHE_HIT: {
		bool ok = take_hit(ctx, j, &hit);

		cli_cache_result_release(&hit);
		stage->asked_s[i] = 0;
		stage->hits++;
		return ok ? BUILD_GATE_DONE : BUILD_GATE_RUN;
	}
	case CLI_CACHE_MISS:
		stage->asked_s[i] = 0;
		stage->misses++;
		return BUILD_GATE_RUN;
	case CLI_CACHE_PENDING:
		break;
	}
	if (!is_worker_free)
		return BUILD_GATE_WAIT;
	/* --cache-wait: the answer, hit or miss, always comes (a stalled
	 * transfer ends as a miss after --cache-timeout). */
	if (ctx->options->cache_wait) {
		*wait_s = FIRST_GRACE_S;
		return BUILD_GATE_WAIT;
	}
	now = build_now_s();
	if (!stage->waiting_since_s || stage->waiting_job != i) {
		stage->waiting_job = i;
		stage->waiting_since_s = now;
	}
	patience = patience_s(stage, now) - (now - stage->waiting_since_s);
	if (patience <= 0) {
		stage->asked_s[i] = 0;   /* its answer, when it comes, is not used */
		return BUILD_GATE_RUN;
	}
	*wait_s = patience;
	return BUILD_GATE_WAIT;
}

void build_cache_store(build_ctx *ctx, size_t i)
{
	build_cache_stage *stage = ctx->cache;
	build_job *j = &ctx->plan.jobs[i];
	build_result *r = &j->result, copy;
	cli_cache_result res = { 0 };
	bool ok = true;

	if (!stage || r->status != BUILD_COMPILED)
		return;
	stage->compile_s_sum += r->time_s;
	stage->compile_count++;
	if (j->skips_cache || !r->output_count || !cli_cache_wants_store(stage->cache, i))
		return;
	/* Stored under the key of the bytes the compile read, made here: the
	 * lookup's key may not be made yet (--rebuild, a lookup still under
	 * way), and a source rewritten between its lookup and its compile
	 * would have these outputs stored under the old bytes' key, which
	 * every build holding those refuses ("made from another source"). */
	cli_cache_key key;
	if (!r->has_source || !make_key(stage, j, &r->source_hash, &key))
		return;
	res.outputs = calloc(r->output_count, sizeof *res.outputs);
	if (!res.outputs)
		goto out;
	for (uint32_t k = 0; ok && k < r->output_count; k++) {
		build_output *o = &r->outputs[k];
		cli_error err;

		res.outputs[k].path = o->name + name_in_folder(j, o->name);
		if (o->bytes) {
			res.outputs[k].data = o->bytes;
			res.outputs[k].size = o->size;
		} else {
			/* Staged by the worker, or already in place with these
			 * bytes (left alone). */
			char *path = o->staged ? NULL : cli_path_join(ctx->options->out_dir, o->name, NULL);

			ok = (o->staged || path) &&
			     cli_read_file(o->staged ? o->staged : path, &res.outputs[k].data, &res.outputs[k].size,
					   &err) &&
			     res.outputs[k].size == o->size;
			free(path);
		}
		res.output_count = k + 1;
	}
	if (!ok)
		goto out;
	/* The meta: this result without its bytes, other files by their names
	 * relative to the source's folder. */
	copy = *r;
	copy.outputs = calloc(r->output_count, sizeof *copy.outputs);
	copy.deps = r->dep_count ? calloc(r->dep_count, sizeof *copy.deps) : NULL;
	if (!copy.outputs || (r->dep_count && !copy.deps)) {
		free(copy.outputs);
		free(copy.deps);
		goto out;
	}
	for (uint32_t k = 0; k < r->output_count; k++) {
		copy.outputs[k] = r->outputs[k];
		copy.outputs[k].name = r->outputs[k].name + name_in_folder(j, r->outputs[k].name);
		copy.outputs[k].bytes = NULL;
		copy.outputs[k].staged = NULL;
	}
	/* The project's files are no entry's (build_is_project_file): a hit
	 * takes this build's (project_deps). */
	copy.dep_count = 0;
	for (uint32_t k = 0; k < r->dep_count; k++) {
		if (build_is_project_file(ctx->options, r->deps[k].path))
			continue;
		copy.deps[copy.dep_count] = r->deps[k];
		copy.deps[copy.dep_count].path = dep_entry_name(j->path, r->deps[k].path);
		/* A file no hit could find again: no entry. */
		ok = ok && copy.deps[copy.dep_count++].path;
	}
	/* The entry says the key it is stored under: one found under
	 * another (a server or a sync tool that mixed names) is refused. */
	memcpy(copy.key.bytes, key.sha256, sizeof copy.key.bytes);
	if (ok && build_result_encode(&copy, &res.meta, &res.meta_size))
		cli_cache_store(stage->cache, &key, &res);
	for (uint32_t k = 0; k < copy.dep_count; k++)
		free(copy.deps[k].path);
	free(copy.outputs);
	free(copy.deps);
out:
	for (uint32_t k = 0; k < res.output_count; k++)
		if (res.outputs[k].data != r->outputs[k].bytes)
			free(res.outputs[k].data);
	free(res.outputs);
	free(res.meta);
}

void build_cache_close(build_ctx *ctx, double build_s)
{
	build_cache_stage *stage = ctx->cache;

	if (!stage)
		return;
	/* Stores still under way get a tenth of the build's time (a second at
	 * least): the cache never makes a build much slower.  With --cache-wait
	 * they get all the time they take. */
	cli_cache_close(stage->cache, ctx->options->cache_wait ? -1 : build_s / 10 > 1 ? build_s / 10 : 1, NULL);
	free(stage->asked_s);
	free(stage->ac);
	free(stage->prefix);
	free(stage);
	ctx->cache = NULL;
}

static void before_fork(void *user)
{
	build_cache_stage *stage = user;

	cli_cache_before_fork(stage->cache);
}

static void after_fork(void *user)
{
	build_cache_stage *stage = user;

	cli_cache_after_fork(stage->cache);
}

bool build_cache_gate(build_ctx *ctx, build_gate *gate, build_fork_guard *guard)
{
	build_cache_stage *stage = ctx->cache;

	if (!stage)
		return false;
	*gate = (build_gate){ gate_ahead, gate_check, gate_fd, gate_is_bypassed, stage };
	*guard = (build_fork_guard){ before_fork, after_fork, stage };
	return true;
}
