/*
 * commit.c - results become files, strictly in job order: each output path
 * is claimed by the first job that writes it (a later one is refused), an
 * output whose bytes are already on disk as recorded is left alone (its
 * mtime kept), others are written atomically.  The manifest of the run is
 * built as jobs commit; at the end, outputs no source claims any more are
 * kept as orphans (or removed with --prune).  Also `animc clean` and the
 * sweep of temporary files a killed run left behind.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "author.h"
#include "commit.h"
#include "engine.h"
#include "fold.h"

char *build_output_path(const build_ctx *ctx, const build_job *job, const build_output *o)
{
	(void)job;
	return cli_path_join(ctx->options->out_dir, o->name, NULL);
}

/* ---------------------------------------------------------------- claims */

static size_t claim_hash(const char *s)
{
	return (size_t)XXH3_64bits(s, strlen(s));
}

static size_t *claim_find(const build_commit *c, const char *path)
{
	size_t mask = c->claim_slot_count - 1;

	if (!c->claim_slot_count)
		return NULL;
	for (size_t i = claim_hash(path) & mask; c->claim_slots[i]; i = (i + 1) & mask)
		if (strcmp(c->claims.items[c->claim_slots[i] - 1], path) == 0)
			return &c->claim_slots[i];
	return NULL;
}

/* What claiming a path came to. */
typedef enum claim_result {
	CLAIM_MADE,
	CLAIM_TAKEN,       /* claimed already this run */
	CLAIM_NO_MEMORY    /* not claimed: memory ran out (no clash is known) */
} claim_result;

/* Claim an output path for this run (for job `owner`, SIZE_MAX: none). */
static claim_result claim_for(build_commit *c, const char *path, size_t owner)
{
	size_t mask, i;

	if (c->claims.count * 2 >= c->claim_slot_count) {
		size_t count = c->claim_slot_count ? c->claim_slot_count * 2 : 256;
		size_t *slots = build_run_realloc(NULL, count * sizeof *slots);

		if (!slots)
			return CLAIM_NO_MEMORY;
		memset(slots, 0, count * sizeof *slots);
		for (size_t k = 0; k < c->claims.count; k++) {
			for (i = claim_hash(c->claims.items[k]) & (count - 1); slots[i]; i = (i + 1) & (count - 1))
				;
			slots[i] = k + 1;
		}
		free(c->claim_slots);
		c->claim_slots = slots;
		c->claim_slot_count = count;
	}
	if (claim_find(c, path))
		return CLAIM_TAKEN;
	if (c->claims.count % 64 == 0) {
		size_t *grown = build_run_realloc(c->claim_owner, (c->claims.count + 64) * sizeof *grown);

		if (!grown)
			return CLAIM_NO_MEMORY;
		c->claim_owner = grown;
	}
	if (!cli_strings_push(&c->claims, path))
		return CLAIM_NO_MEMORY;
	c->claim_owner[c->claims.count - 1] = owner;
	mask = c->claim_slot_count - 1;
	for (i = claim_hash(path) & mask; c->claim_slots[i]; i = (i + 1) & mask)
		;
	c->claim_slots[i] = c->claims.count;
	return CLAIM_MADE;
}

/* Claim a path no job writes this run; false when it is claimed already
 * (or out of memory). */
static bool claim(build_commit *c, const char *path)
{
	return claim_for(c, path, SIZE_MAX) == CLAIM_MADE;
}

/* The job that claimed `path` this run, or SIZE_MAX. */
static size_t claim_owner(const build_commit *c, const char *path)
{
	size_t *slot = claim_find(c, path);

	return slot ? c->claim_owner[*slot - 1] : SIZE_MAX;
}

bool build_commit_claims(const build_commit *c, const char *path)
{
	return claim_find(c, path) != NULL;
}

bool build_commit_init(build_commit *c, build_ctx *ctx, bool is_dry)
{
	struct stat program;

	memset(c, 0, sizeof *c);
	c->ctx = ctx;
	c->is_dry = is_dry;
	if (stat("/proc/self/exe", &program) == 0)
		c->program_mtime_ns = (int64_t)program.st_mtim.tv_sec * 1000000000 + program.st_mtim.tv_nsec;
	c->journal.fd = -1;
	c->journal.dir_fd = -1;
	c->journal.spare_fd = -1;
	if (!is_dry && !build_journal_init(&c->journal, ctx->options->out_dir))
		return false;
	if (!is_dry && ctx->has_state_dir)
		c->journal.dir_fd = ctx->state_fd;
	c->next.options = ctx->options_key;
	if (ctx->has_old) {
		c->next.loaded_hash_known = ctx->old.loaded_hash_known;
		c->next.loaded_size = ctx->old.loaded_size;
		c->next.loaded_hash = ctx->old.loaded_hash;
	}
	if (ctx->options->skeleton_path && ctx->has_skeleton_state) {
		c->next.has_skeleton = true;
		c->next.skeleton = ctx->skeleton;
		c->next.skeleton.path = strdup(ctx->skeleton.path);
		if (!c->next.skeleton.path)
			return false;
	}
	return true;
}

static void orphan_lookup_release(struct orphan_lookup *l);

void build_commit_release(build_commit *c)
{
	build_journal_close(&c->journal);
	free(c->owned);
	free(c->others);
	free(c->sources);
	free(c->claim_owner);
	manifest_release(&c->next);
	cli_strings_release(&c->pruned_sources);
	cli_strings_release(&c->claims);
	cli_strings_release(&c->writers_taken);
	free(c->claim_slots);
	orphan_lookup_release(c->orphan_lookup);
}

/* ----------------------------------------------------------------- writes */

struct build_source_id {
	dev_t dev;
	ino_t ino;
	size_t job;
};

static int compare_source_id(const void *a, const void *b)
{
	const struct build_source_id *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	return (x->ino > y->ino) - (x->ino < y->ino);
}

/*
 * The job whose source the file at `path` is, or SIZE_MAX.  Importers
 * know sources by their content, so a RobotGame clip may be named
 * Walk.xnb, and a build into its own folder would write over it.
 */
static size_t source_at(build_commit *c, const char *path)
{
	const build_plan *plan = &c->ctx->plan;
	struct stat st;

	if (!c->has_sources) {
		c->has_sources = true;
		c->sources = malloc((plan->count ? plan->count : 1) * sizeof *c->sources);
		for (size_t i = 0; c->sources && i < plan->count; i++)
			if (stat(plan->jobs[i].path, &st) == 0)
				c->sources[c->source_count++] = (struct build_source_id){ st.st_dev, st.st_ino, i };
		if (c->sources)
			qsort(c->sources, c->source_count, sizeof *c->sources, compare_source_id);
	}
	if (!c->source_count || stat(path, &st) != 0)
		return SIZE_MAX;
	struct build_source_id key = { st.st_dev, st.st_ino, 0 };
	const struct build_source_id *hit = bsearch(&key, c->sources, c->source_count, sizeof key, compare_source_id);
	return hit ? hit->job : SIZE_MAX;
}

/* The previous run's record of an output path, for this job. */
static const manifest_output *previous_output(const build_job *j, const char *path)
{
	if (!j->previous)
		return NULL;
	for (uint32_t i = 0; i < j->previous->output_count; i++)
		if (strcmp(j->previous->outputs[i].path, path) == 0)
			return &j->previous->outputs[i];
	return NULL;
}

/* The state of an output animc wrote at `path`: a regular file, not a
 * symbolic link to one (a link put where an output was is no file of
 * animc's: it is replaced, never followed, and nothing is done through
 * it to a file outside the output folder). */
static bool output_state(const char *path, build_file_state *out)
{
	struct stat st;

	if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return false;
	build_file_state_from(&st, out);
	return true;
}

static bool stat_state(const char *path, build_file_state *out)
{
	struct stat st;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return false;
	build_file_state_from(&st, out);
	return true;
}

/* Whether the file at `path` (its state `now`) holds o's bytes: an output
 * with no record (the manifest lost or damaged) that a build wrote alike. */
static bool holds_bytes(const char *path, const build_file_state *now, const build_output *o)
{
	uint8_t *data;
	size_t size;
	build_hash h;
	cli_error err;

	if (now->size != o->size || !cli_read_file(path, &data, &size, &err))
		return false;
	build_hash_bytes(data, size, &h);
	free(data);
	return size == o->size && build_hash_equal(&h, &o->hash);
}

/* A source whose output cannot be staged puts none in place (commit puts
 * a source's outputs in place all or none): its staged files go, and its
 * outputs with them, so that it keeps those of its last good build. */
static void drop_outputs(build_result *r)
{
	for (uint32_t k = 0; k < r->output_count; k++) {
		build_output *o = &r->outputs[k];

		if (o->staged)
			unlink(o->staged);
		free(o->staged);
		free(o->bytes);
		free(o->name);
		free(o->clip);
	}
	free(r->outputs);
	r->outputs = NULL;
	r->output_count = 0;
}

void build_stage_outputs(const build_ctx *ctx, const build_job *job, build_result *r)
{
	for (uint32_t k = 0; k < r->output_count; k++) {
		build_output *o = &r->outputs[k];
		const manifest_output *before = previous_output(job, o->name);
		char *path;
		build_file_state now;
		struct stat st;
		cli_error err;

		if (!o->bytes)
			continue;
		path = cli_path_join(ctx->options->out_dir, o->name, NULL);
		if (!path)
			continue;   /* the parent writes it */
		/* The same bytes, on disk as recorded: leave the file (and its
		 * mtime) alone. */
		if (before ? build_hash_equal(&before->hash, &o->hash) && before->size == o->size &&
			     output_state(path, &now) && build_file_state_equal(&before->state, &now)
			   : output_state(path, &now) && holds_bytes(path, &now, o)) {
			o->is_unchanged = true;
			o->state = now;
		} else if (job->writes_at_commit) {
			free(path);
			continue;   /* the parent writes it (build_job.writes_at_commit) */
		} else if (cli_write_temp(path, o->bytes, o->size, &o->staged, &st, &err)) {
			build_file_state_from(&st, &o->state);
		} else {
			build_result_diag(r, ANIMC_ERROR, 0, 0, -1, "%s", err.message);
			r->status = BUILD_FAILED;
			free(path);
			drop_outputs(r);
			return;
		}
		free(path);
		free(o->bytes);
		o->bytes = NULL;
	}
}

void build_unstage(build_ctx *ctx, size_t from)
{
	for (size_t i = from; i < ctx->plan.count; i++) {
		build_result *r = &ctx->plan.jobs[i].result;

		for (uint32_t k = 0; k < r->output_count; k++)
			if (r->outputs[k].staged) {
				unlink(r->outputs[k].staged);
				free(r->outputs[k].staged);
				r->outputs[k].staged = NULL;
			}
	}
}

static bool clear_stale_folder(build_commit *c, const char *name, const char *path);

/* Record an output in the journal before it is put in place: killed from
 * now on, the run leaves it known to clean and --prune.  One the journal
 * cannot record is not put in place (its source fails, *err says why):
 * were the manifest not saved either (a full disk), nothing would know it. */
static bool journal_output(build_commit *c, const build_output *o, cli_error *err)
{
	manifest_output record = { 0 };

	record.path = o->name;
	record.clip = o->clip ? o->clip : (char *)"";
	record.size = o->size;
	record.hash = o->hash;
	record.state = o->state;   /* the staged file's: a rename keeps it */
	record.bones = o->bones;
	record.keys = o->keys;
	record.duration_s = o->duration_s;
	record.is_motion = o->is_motion;
	return build_journal_add(&c->journal, &record, err);
}

/* A job of the run whose outputs go in the folder `name` (relative to
 * OUTDIR), or SIZE_MAX. */
static size_t folder_of_job(const build_commit *c, const char *name)
{
	size_t len = strlen(name);

	for (size_t i = 0; i < c->ctx->plan.count; i++) {
		const char *base = c->ctx->plan.jobs[i].out_base;

		if (base && strncmp(base, name, len) == 0 && base[len] == '/')
			return i;
	}
	return SIZE_MAX;
}

/* How an output of a source being put in place got there, so that a
 * failure of a later one of the source can take it back. */
enum placed {
	PLACED_NOT,        /* not yet (or not to be) */
	PLACED_NEW,        /* renamed where nothing was: removed to take it back */
	PLACED_SWAPPED,    /* exchanged with the file there, which its staged name now holds */
	PLACED_FOR_GOOD    /* renamed over a file it cannot give back */
};

/* Rename output o's staged file to `path`.  With `keeps_old` (an output of
 * the source comes after it), a file there is exchanged with it rather than
 * replaced, so that the source's failure can put it back.  0 or errno. */
static int place_staged(build_commit *c, build_output *o, const char *path, bool keeps_old, enum placed *how)
{
	struct stat st;
	int error;

	*how = PLACED_FOR_GOOD;
	if (keeps_old) {
		int found = lstat(path, &st);

		if (found != 0 && errno == ENOENT)
			*how = PLACED_NEW;
		else if (found == 0 && S_ISREG(st.st_mode) &&
			 renameat2(AT_FDCWD, o->staged, AT_FDCWD, path, RENAME_EXCHANGE) == 0) {
			*how = PLACED_SWAPPED;
			return 0;
		}   /* a file system that cannot exchange: replaced for good */
	}
	error = rename(o->staged, path) == 0 ? 0 : errno;
	if (error == EISDIR && clear_stale_folder(c, o->name, path))
		error = rename(o->staged, path) == 0 ? 0 : errno;
	return error;
}

/* Say why output o of job j could not be renamed to `path` (errno `error`). */
static void say_not_placed(build_commit *c, build_job *j, const build_output *o, const char *path, int error)
{
	size_t other = error == EISDIR ? folder_of_job(c, o->name) : SIZE_MAX;

	if (other != SIZE_MAX)
		build_result_diag(&j->result, ANIMC_ERROR, 0, 0, -1, "cannot write '%s': it is a folder, of outputs "
				  "an earlier build wrote for '%s'; rename one of the two", path,
				  c->ctx->plan.jobs[other].path);
	else
		build_result_diag(&j->result, ANIMC_ERROR, 0, 0, -1, "cannot write '%s': %s", path, strerror(error));
}

/* Whether output o is one commit puts in place now. */
static bool is_to_place(const build_output *o)
{
	return !o->is_refused && !o->is_written && (o->is_unchanged || o->staged || o->bytes);
}

/* Stage the outputs the parent writes (build_job.writes_at_commit), as a
 * worker stages the others.  False when one cannot be (said). */
static bool stage_here(build_commit *c, build_job *j)
{
	build_result *r = &j->result;
	struct stat st;
	cli_error err;

	for (uint32_t k = 0; k < r->output_count; k++) {
		build_output *o = &r->outputs[k];
		char *path;

		if (!is_to_place(o) || o->is_unchanged || o->staged)
			continue;
		path = build_output_path(c->ctx, j, o);
		if (!path || !cli_write_temp(path, o->bytes, o->size, &o->staged, &st, &err)) {
			build_result_diag(r, ANIMC_ERROR, 0, 0, -1, "%s", path ? err.message : "out of memory");
			free(path);
			return false;
		}
		build_file_state_from(&st, &o->state);
		free(path);
		free(o->bytes);
		o->bytes = NULL;
	}
	return true;
}

/* Remove a staged file; one that cannot be is swept at the end of the run
 * (or by the next build alone here), as a killed worker's are. */
static void remove_staged(build_commit *c, const char *staged)
{
	if (unlink(staged) != 0 && errno != ENOENT)
		c->ctx->left_temps = true;
}

/* Output o, put in place, could not be taken back (errno `error`): it
 * stays, recorded as this build's, so that clean and --prune know it. */
static void keep_in_place(build_result *r, build_output *o, const char *path, int error)
{
	o->is_written = true;
	if (path)
		build_result_diag(r, ANIMC_ERROR, 0, 0, -1, "'%s' cannot be taken back: %s; it holds this build's "
				  "bytes", path, strerror(error));
}

/* Take back the outputs of job j put in place so far (how[k]), and remove
 * the staged files of the others: the files there are as they were. */
static void take_back(build_commit *c, build_job *j, const enum placed *how)
{
	build_result *r = &j->result;

	for (uint32_t k = r->output_count; k-- > 0;) {
		build_output *o = &r->outputs[k];
		char *path = how[k] == PLACED_NEW || how[k] == PLACED_SWAPPED ? build_output_path(c->ctx, j, o) : NULL;

		/* One replaced for good stays, recorded as this build's. */
		if (how[k] == PLACED_FOR_GOOD)
			o->is_written = true;
		else if (how[k] == PLACED_NEW && path && unlink(path) != 0 && errno != ENOENT)
			keep_in_place(r, o, path, errno);
		else if (how[k] == PLACED_SWAPPED &&
			 (!path || renameat2(AT_FDCWD, o->staged, AT_FDCWD, path, RENAME_EXCHANGE) != 0))
			keep_in_place(r, o, path, errno);   /* likewise */
		if (o->staged && !o->is_refused)
			remove_staged(c, o->staged);   /* this build's bytes, or (swapped) the old ones */
		free(path);
	}
}

/*
 * Put job j's outputs in place, all of them or none: a source that fails
 * keeps the outputs its last good build wrote, not some of them beside
 * some of this build's.  Each is staged already; the renames follow one
 * another, each recorded in the journal first, and one that fails takes
 * back those before it (a file an output replaced was exchanged with it,
 * and comes back).  The last one needs no way back, so a source of one
 * output costs one rename, as before.
 */
static void put_in_place(build_commit *c, build_job *j)
{
	build_result *r = &j->result;
	uint32_t last = UINT32_MAX;
	enum placed *how;
	cli_error err;
	bool failed = !stage_here(c, j);

	for (uint32_t k = 0; k < r->output_count; k++)
		if (is_to_place(&r->outputs[k]) && !r->outputs[k].is_unchanged)
			last = k;
	how = calloc(r->output_count ? r->output_count : 1, sizeof *how);
	if (!how) {
		build_result_diag(r, ANIMC_ERROR, 0, 0, -1, "out of memory");
		failed = true;
	}
	for (uint32_t k = 0; !failed && k < r->output_count; k++) {
		build_output *o = &r->outputs[k];
		char *path;
		int error;

		if (!is_to_place(o) || o->is_unchanged)
			continue;
		path = build_output_path(c->ctx, j, o);
		if (!path) {
			build_result_diag(r, ANIMC_ERROR, 0, 0, -1, "out of memory");
			failed = true;
			break;
		}
		if (!journal_output(c, o, &err)) {
			build_result_diag(r, ANIMC_ERROR, 0, 0, -1, "cannot record '%s' for clean: %s; not put in "
					  "place", path, err.message);
			free(path);
			failed = true;
			break;
		}
		error = place_staged(c, o, path, k != last, &how[k]);
		if (error) {
			how[k] = PLACED_NOT;
			say_not_placed(c, j, o, path, error);
			failed = true;
		}
		free(path);
	}
	if (failed) {
		if (how)
			take_back(c, j, how);
		else
			for (uint32_t k = 0; k < r->output_count; k++)
				if (is_to_place(&r->outputs[k]) && r->outputs[k].staged)
					unlink(r->outputs[k].staged);
		r->status = BUILD_FAILED;
		free(how);
		return;
	}
	for (uint32_t k = 0; k < r->output_count; k++) {
		build_output *o = &r->outputs[k];

		if (!is_to_place(o))
			continue;
		if (how[k] == PLACED_SWAPPED)
			remove_staged(c, o->staged);   /* the file it replaced */
		o->is_written = true;
	}
	free(how);
}

static bool copy_deps(manifest_entry *e, const build_result *r)
{
	if (!r->dep_count)
		return true;
	e->deps = calloc(r->dep_count, sizeof *e->deps);
	if (!e->deps)
		return false;
	for (uint32_t i = 0; i < r->dep_count; i++) {
		e->deps[i] = r->deps[i];
		e->deps[i].path = strdup(r->deps[i].path);
		if (!e->deps[i].path)
			return false;
		e->dep_count++;
	}
	return true;
}

static bool copy_outputs(manifest_entry *e, const build_result *r)
{
	if (!r->output_count)
		return true;
	e->outputs = calloc(r->output_count, sizeof *e->outputs);
	if (!e->outputs)
		return false;
	for (uint32_t i = 0; i < r->output_count; i++) {
		const build_output *o = &r->outputs[i];
		manifest_output *m = &e->outputs[e->output_count];

		if (!o->is_written)
			continue;
		m->path = strdup(o->name);
		m->clip = strdup(o->clip);
		if (!m->path || !m->clip) {
			manifest_output_release(m);
			return false;
		}
		m->size = o->size;
		m->hash = o->hash;
		m->state = o->state;
		m->bones = o->bones;
		m->keys = o->keys;
		m->duration_s = o->duration_s;
		m->is_motion = o->is_motion;
		e->output_count++;
	}
	return true;
}

/* The warnings of the source's compile (an up-to-date job's are its
 * record's), not those the run said of this build of it. */
static bool copy_warnings(manifest_entry *e, const build_result *r)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < r->source_diag_count; i++)
		n += r->diags[i].severity == ANIMC_WARNING;
	if (!n)
		return true;
	e->warnings = calloc(n, sizeof *e->warnings);
	if (!e->warnings)
		return false;
	for (uint32_t i = 0; i < r->source_diag_count; i++) {
		if (r->diags[i].severity != ANIMC_WARNING)
			continue;
		e->warnings[e->warning_count] = r->diags[i];
		e->warnings[e->warning_count].message = strdup(r->diags[i].message);
		if (!e->warnings[e->warning_count].message)
			return false;
		e->warning_count++;
	}
	return true;
}

/* An entry taken from the manifest, as it was: nothing to write. */
static bool same_record(const manifest_entry *a, const manifest_entry *b)
{
	if (a->status != b->status || a->dep_count != b->dep_count || a->output_count != b->output_count ||
	    a->warning_count != b->warning_count || !build_hash_equal(&a->run_key, &b->run_key) ||
	    memcmp(&a->state, &b->state, sizeof a->state) != 0)
		return false;
	for (uint32_t i = 0; i < a->dep_count; i++)
		if (memcmp(&a->deps[i].state, &b->deps[i].state, sizeof a->deps[i].state) != 0)
			return false;
	for (uint32_t i = 0; i < a->output_count; i++)
		if (memcmp(&a->outputs[i].state, &b->outputs[i].state, sizeof a->outputs[i].state) != 0 ||
		    strcmp(a->outputs[i].path, b->outputs[i].path) != 0)
			return false;
	for (uint32_t i = 0; i < a->warning_count; i++)
		if (strcmp(a->warnings[i].message, b->warnings[i].message) != 0 ||
		    a->warnings[i].kind != b->warnings[i].kind)
			return false;
	return true;
}

/* The manifest's record of a committed job. */
static void record(build_commit *c, const build_job *j)
{
	const build_result *r = &j->result;
	manifest_entry e = { 0 };

	/* A source its worker never reported on (stopped by --import-timeout,
	 * crashed, killed), or one that cannot be read now, is recorded too
	 * when it had a record, its state unknown (it compiles again next
	 * time): keep_last_good then keeps the outputs its last good build
	 * wrote, as for any failed source. */
	bool is_unreadable = r->status == BUILD_SKIPPED && r->skip_reason &&
			     strcmp(r->skip_reason, BUILD_UNREADABLE_REASON) == 0;
	bool is_lost = !r->has_source && (r->status == BUILD_FAILED || is_unreadable) && j->previous;
	if ((!r->has_source && !is_lost) || manifest_find_output(&c->next, j->path, j->out_base))
		return;
	e.status = r->status == BUILD_UP_TO_DATE || r->status == BUILD_CACHED ? BUILD_COMPILED : r->status;
	memcpy(e.importer, r->importer, sizeof e.importer);
	e.source = strdup(j->path);
	e.out_base = strdup(j->out_base);
	e.skip_reason = r->skip_reason ? strdup(r->skip_reason) : NULL;
	e.state = r->source_state;
	e.hash = r->source_hash;
	e.key = r->key;
	if (r->status == BUILD_UP_TO_DATE && j->previous)
		e.run_key = j->previous->run_key;
	else
		build_job_run_key(c->ctx, j, &e.run_key);
	e.time_s = r->status == BUILD_UP_TO_DATE && j->previous ? j->previous->time_s : r->time_s;
	if (!e.source || !e.out_base || (r->skip_reason && !e.skip_reason) || !copy_deps(&e, r) ||
	    !copy_outputs(&e, r) || !copy_warnings(&e, r)) {
		manifest_entry_release(&e);
		c->dirty = true;
		return;
	}
	if (j->needs_compile || !j->previous || !same_record(j->previous, &e))
		c->dirty = true;
	e.is_ours = true;
	e.result = r;
	if (!manifest_add(&c->next, &e))
		manifest_entry_release(&e);
}

/* A job whose record is the previous run's, as it was: an up-to-date (or
 * skipped) source under this run's options whose files are in the states
 * recorded.  Such records are not copied into the new manifest while
 * nothing else changed: a no-op build builds no manifest at all. */
static bool is_unchanged_record(const build_commit *c, const build_job *j)
{
	const build_result *r = &j->result;
	const manifest_entry *p = j->previous;
	uint32_t written = 0;
	build_hash run_key;

	build_job_run_key(c->ctx, j, &run_key);
	if (j->needs_compile || !p || p->is_renamed || !r->has_source || !build_hash_equal(&p->run_key, &run_key) ||
	    (r->status == BUILD_UP_TO_DATE ? p->status != BUILD_COMPILED :
	     r->status != BUILD_SKIPPED || p->status != BUILD_SKIPPED) ||
	    memcmp(&r->source_state, &p->state, sizeof p->state) != 0 || r->dep_count != p->dep_count)
		return false;
	for (uint32_t i = 0; i < r->dep_count; i++)
		if (memcmp(&r->deps[i].state, &p->deps[i].state, sizeof p->deps[i].state) != 0)
			return false;
	for (uint32_t i = 0; i < r->output_count; i++) {
		const build_output *o = &r->outputs[i];

		if (!o->is_written || written >= p->output_count ||
		    memcmp(&o->state, &p->outputs[written].state, sizeof o->state) != 0 ||
		    strcmp(o->name, p->outputs[written].path) != 0)
			return false;
		written++;
	}
	return written == p->output_count;
}

/* Record the jobs whose records were left as they were, now that the
 * manifest changes after all. */
static void record_deferred(build_commit *c)
{
	for (size_t i = 0; i < c->committed; i++)
		if (c->ctx->plan.jobs[i].is_deferred) {
			c->ctx->plan.jobs[i].is_deferred = false;
			record(c, &c->ctx->plan.jobs[i]);
		}
	c->deferred = 0;
}

/* The file's mtime in ns, or INT64_MIN when it cannot be read. */
static int64_t mtime_ns(const char *path)
{
	build_file_state st;

	return stat_state(path, &st) ? st.mtime_ns : INT64_MIN;
}

/* An output this run left as it was on disk (not renamed into place). */
static bool is_kept(const build_result *r, const build_output *o)
{
	return o->is_written && !o->is_refused && (r->status == BUILD_UP_TO_DATE || o->is_unchanged);
}

/*
 * make decides by mtimes.  An output left as it was (the same bytes: up to
 * date, or compiled again to what is on disk) keeps its old mtime, older
 * than a source touched since, and a per-file make rule would run animc
 * again on every make.  So a kept output no newer than its source, a
 * file its import read, the --skeleton model or animc itself (CMake's
 * rules depend on it: after an install of animc, they ran on every build)
 * gets the time now, and its new state is recorded.
 * Only for a job whose source or reads are not in the states the manifest
 * has (a no-op build stats nothing more), and that kept an output: one
 * written now is newer than what it was compiled from (a full build stats
 * nothing more either).
 */
static void settle_mtimes(build_commit *c, build_job *j)
{
	build_result *r = &j->result;
	const manifest_entry *p = j->previous;
	bool moved = !p || j->needs_compile || r->source_state.mtime_ns == 0 ||
		     memcmp(&r->source_state, &p->state, sizeof p->state) != 0 || r->dep_count != p->dep_count;
	bool kept = false;
	int64_t newest;

	/* The --skeleton model: every source's depfile names it. */
	const build_ctx *ctx = c->ctx;
	bool has_model = ctx->options->skeleton_path && ctx->has_skeleton_state;

	if (has_model && !moved)
		moved = !ctx->old.has_skeleton || ctx->skeleton.state.mtime_ns == 0 ||
			memcmp(&ctx->skeleton.state, &ctx->old.skeleton.state, sizeof ctx->skeleton.state) != 0;
	/* The model's state is the folder's: a build of another source alone
	 * (a make rule per source) may have recorded it touched since this
	 * job's outputs were settled.  Their recorded mtimes tell. */
	for (uint32_t k = 0; has_model && !moved && k < p->output_count; k++)
		moved = p->outputs[k].state.mtime_ns <= ctx->skeleton.state.mtime_ns;
	/* So is animc, installed since its outputs were recorded. */
	for (uint32_t k = 0; !moved && k < p->output_count; k++)
		moved = p->outputs[k].state.mtime_ns && p->outputs[k].state.mtime_ns <= c->program_mtime_ns;
	for (uint32_t i = 0; !moved && i < r->dep_count; i++)
		moved = (r->deps[i].state.mtime_ns == 0 && !build_dep_is_absent(&r->deps[i])) ||
			memcmp(&r->deps[i].state, &p->deps[i].state, sizeof p->deps[i].state) != 0;
	for (uint32_t k = 0; !kept && k < r->output_count; k++)
		kept = is_kept(r, &r->outputs[k]);
	if (!moved || !kept || !r->has_source)
		return;
	newest = mtime_ns(j->path);
	if (has_model && mtime_ns(ctx->skeleton.path) > newest)
		newest = mtime_ns(ctx->skeleton.path);
	if (c->program_mtime_ns > newest)
		newest = c->program_mtime_ns;
	for (uint32_t i = 0; i < r->dep_count; i++) {
		int64_t t = mtime_ns(r->deps[i].path);

		if (t > newest)
			newest = t;
	}
	for (uint32_t k = 0; k < r->output_count; k++) {
		build_output *o = &r->outputs[k];
		char *path;

		if (!is_kept(r, o))
			continue;
		path = build_output_path(c->ctx, j, o);
		build_file_state was;

		if (path && output_state(path, &was) && was.mtime_ns <= newest &&
		    utimensat(AT_FDCWD, path, NULL, AT_SYMLINK_NOFOLLOW) == 0 && !output_state(path, &o->state))
			memset(&o->state, 0, sizeof o->state);
		free(path);
	}
}

/* The outputs the last runs recorded are scanned for the first lookups
 * of a run, then sorted: a per-file rule, which looks up the few outputs
 * of its source, sorted every output of the folder. */
#define LOOKUPS_BEFORE_SORTING 16

/* An output path the last runs recorded, and the entry that wrote it. */
typedef struct owned {
	const char *path;
	const manifest_entry *entry;
} owned;

static int compare_owned(const void *a, const void *b)
{
	return strcmp(((const owned *)a)->path, ((const owned *)b)->path);
}

static int compare_owned_folded(const void *a, const void *b)
{
	return build_fold_compare(((const owned *)a)->path, ((const owned *)b)->path);
}

static void forget_owned(build_commit *c)
{
	free(c->owned);
	free(c->others);
	c->owned = c->others = NULL;
	c->owned_count = c->other_count = 0;
	c->has_owned = c->has_others = c->is_owned_sorted = c->is_others_sorted = false;
	c->owned_lookups = c->other_lookups = 0;
}

/* Whether take_writers searched for the writers of `path`. */
static bool was_searched(const build_commit *c, const char *path)
{
	for (size_t i = 0; i < c->writers_taken.count; i++)
		if (strcmp(c->writers_taken.items[i], path) == 0)
			return true;
	return false;
}

/* The entries of a manifest read lazily that record an output named
 * `name`, or so but for case, read whole (once a name), so that
 * earlier_owner and earlier_alike find them. */
static void take_writers(build_commit *c, const char *name)
{
	manifest *old = &c->ctx->old;

	if (!old->lazy_count)
		return;
	if (was_searched(c, name))
		return;
	cli_strings_push(&c->writers_taken, name);
	if (manifest_take_alike(old, name))
		forget_owned(c);   /* made again with theirs */
}

/* Whether manifest entry `e` is another build's source, still there and
 * not a source of this run (whose claims decide). */
static bool is_other_build(const build_commit *c, const build_job *j, const manifest_entry *e)
{
	struct stat st, mine;

	if (e == j->previous || strcmp(e->source, j->path) == 0 || stat(e->source, &st) != 0 || !S_ISREG(st.st_mode))
		return false;
	/* This source by another name (an absolute path, where the earlier
	 * build was given a relative one): no other source. */
	if (stat(j->path, &mine) == 0 && mine.st_dev == st.st_dev && mine.st_ino == st.st_ino)
		return false;
	for (size_t i = 0; i < c->ctx->plan.count; i++)
		if (strcmp(c->ctx->plan.jobs[i].path, e->source) == 0)
			return false;   /* built in this run: its claim decides */
	return true;
}

/*
 * The source another build recorded as writing output `name`, when it is
 * still there and not a source of this run: two sources taking turns at
 * one file (per-file rules building a/Walk.Animation and b/Walk.Animation
 * into one flat folder) would otherwise flip it silently on every build.
 * NULL otherwise (a renamed source's old name is gone).
 */
static const char *earlier_owner(build_commit *c, const build_job *j, const char *name)
{
	const manifest *old = &c->ctx->old;
	const owned *hit = NULL;

	if (!c->ctx->has_old)
		return NULL;
	take_writers(c, name);
	if (!c->has_owned) {
		size_t n = 0;

		c->has_owned = true;
		for (size_t i = 0; i < old->count; i++)
			n += old->entries[i].output_count;
		c->owned = malloc((n ? n : 1) * sizeof *c->owned);
		for (size_t i = 0; c->owned && i < old->count; i++)
			for (uint32_t k = 0; k < old->entries[i].output_count; k++)
				c->owned[c->owned_count++] = (owned){ old->entries[i].outputs[k].path, &old->entries[i] };
	}
	if (!c->is_owned_sorted && ++c->owned_lookups > LOOKUPS_BEFORE_SORTING) {
		c->is_owned_sorted = true;
		qsort(c->owned, c->owned_count, sizeof *c->owned, compare_owned);
	}
	owned key = { name, NULL };
	if (c->is_owned_sorted)
		hit = c->owned_count ? bsearch(&key, c->owned, c->owned_count, sizeof key, compare_owned) : NULL;
	for (size_t i = 0; !c->is_owned_sorted && !hit && i < c->owned_count; i++)
		if (strcmp(c->owned[i].path, name) == 0)
			hit = &c->owned[i];
	return hit && is_other_build(c, j, hit->entry) ? hit->entry->source : NULL;
}

/* The outputs the loaded manifest records for sources no job of this run
 * names (sorted by their names folded once looked up more than a few
 * times).  A build of the whole folder has none: this costs a no-op build
 * a pass over its jobs. */
static void index_others(build_commit *c)
{
	const manifest *old = &c->ctx->old;
	bool *named;
	size_t n = 0;

	if (!c->has_others) {
		c->has_others = true;
		named = calloc(old->count ? old->count : 1, sizeof *named);
		if (!named)
			return;
		for (size_t i = 0; i < c->ctx->plan.count; i++)
			if (c->ctx->plan.jobs[i].previous)
				named[c->ctx->plan.jobs[i].previous - old->entries] = true;
		for (size_t i = 0; i < old->count; i++)
			n += named[i] ? 0 : old->entries[i].output_count;
		c->others = n ? malloc(n * sizeof *c->others) : NULL;
		for (size_t i = 0; c->others && i < old->count; i++)
			for (uint32_t k = 0; !named[i] && k < old->entries[i].output_count; k++)
				c->others[c->other_count++] = (owned){ old->entries[i].outputs[k].path, &old->entries[i] };
		free(named);
	}
	if (!c->is_others_sorted && ++c->other_lookups > LOOKUPS_BEFORE_SORTING) {
		c->is_others_sorted = true;
		if (c->others)
			qsort(c->others, c->other_count, sizeof *c->others, compare_owned_folded);
	}
}

/* An output another build recorded (as earlier_owner finds them) whose
 * name is `name` but for the case of its letters, and its source in
 * *source; NULL when none. */
static const char *earlier_alike(build_commit *c, const build_job *j, const char *name, const char **source)
{
	size_t lo = 0, hi;

	if (!c->ctx->has_old)
		return NULL;
	take_writers(c, name);
	index_others(c);
	/* The first name not before `name` folded: those alike start there
	 * (unsorted: anywhere). */
	for (hi = c->is_others_sorted ? c->other_count : 0; lo < hi;) {
		size_t mid = lo + (hi - lo) / 2;

		if (build_fold_compare(c->others[mid].path, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < c->other_count; lo++) {
		if (build_fold_compare(c->others[lo].path, name) != 0) {
			if (c->is_others_sorted)
				break;
			continue;
		}
		if (strcmp(c->others[lo].path, name) != 0 && is_other_build(c, j, c->others[lo].entry)) {
			*source = c->others[lo].entry->source;
			return c->others[lo].path;
		}
	}
	return NULL;
}

/* The clip of the first output before outputs[k] written to its path. */
static const char *first_clip_at(const build_result *r, uint32_t k)
{
	for (uint32_t e = 0; e < k; e++)
		if (strcmp(r->outputs[e].name, r->outputs[k].name) == 0)
			return r->outputs[e].clip ? r->outputs[e].clip : "";
	return "";
}

/* Whether `motion` is the root motion file of `clip` (--root-motion puts
 * it right after). */
static bool is_motion_of(const build_output *clip, const build_output *motion)
{
	char *name = build_motion_name(clip->name);
	bool is = name && strcmp(name, motion->name) == 0;

	free(name);
	return is;
}

/* Are files a and b in one folder (as their paths name it)? */
static bool same_folder(const char *a, const char *b)
{
	const char *sa = strrchr(a, '/'), *sb = strrchr(b, '/');
	size_t na = sa ? (size_t)(sa - a) : 0, nb = sb ? (size_t)(sb - b) : 0;

	return na == nb && strncmp(a, b, na) == 0;
}

/* --warnings-as-errors: a source that would take over an output of a
 * source of an earlier build fails instead, and writes none of its outputs
 * (the other source's file stays as it is), unless output-taken-over is
 * allowed.  True when it failed so. */
static bool refuse_takeover(build_commit *c, build_job *j)
{
	const build_options *o = c->ctx->options;
	build_result *r = &j->result;
	unsigned said;
	bool any = false;

	if (c->is_dry || !o->warnings_as_errors || build_options_allows(o, "output-taken-over") ||
	    (r->status != BUILD_COMPILED && r->status != BUILD_CACHED))
		return false;
	for (uint32_t k = 0; k < r->output_count; k++) {
		const char *before = earlier_owner(c, j, r->outputs[k].name);
		char *target;

		if (!before)
			continue;
		target = build_output_path(c->ctx, j, &r->outputs[k]);
		build_result_diag_kind(r, ANIMC_WARNING, "output-taken-over", 0, 0, -1,
				       "'%s' is the output of '%s' (an earlier build into this folder); this source "
				       "would write it: build the two into other folders, or give one another name",
				       target ? target : r->outputs[k].name, before);
		free(target);
		any = true;
	}
	if (!any)
		return false;
	for (uint32_t k = 0; k < r->output_count; k++) {
		if (r->outputs[k].staged)
			unlink(r->outputs[k].staged);
		r->outputs[k].is_refused = true;
	}
	said = build_result_warnings_said(o, r);
	build_result_diag(r, ANIMC_ERROR, 0, 0, -1, "%u warning%s treated as errors; nothing written", said,
			  said == 1 ? "" : "s");
	r->status = BUILD_FAILED;
	return true;
}

/* The claim under which output `name` is found whatever the case of its
 * letters ("\001" and the name folded, as build_fold_name folds it: no
 * output's name starts so), or NULL when out of memory. */
static char *folded_claim(const char *name)
{
	char *folded = build_fold_name(name), *key = NULL;

	if (folded && asprintf(&key, "\001%s", folded) < 0)
		key = NULL;
	free(folded);
	return key;
}

/* Outputs of job j whose names another source's outputs take but for the
 * case of their letters (Walk.xnb and walk.xnb): those of this run, and
 * those an earlier build into this folder recorded for a source this run
 * does not build.  One file where case is ignored (Windows, macOS), so
 * whichever is copied there second replaces the first.  Said as
 * output-name-case; under --warnings-as-errors, unless allowed, the
 * source fails and writes none of its outputs, as refuse_takeover does.
 * True when it failed so. */
static bool say_name_case(build_commit *c, build_job *j)
{
	const build_options *o = c->ctx->options;
	build_result *r = &j->result;
	bool any = false;

	if (build_options_allows(o, "output-name-case"))
		return false;
	for (uint32_t k = 0; k < r->output_count; k++) {
		char *key = folded_claim(r->outputs[k].name);
		size_t owner = key ? claim_owner(c, key) : SIZE_MAX;
		const char *their_name = NULL, *their_source = NULL, *earlier = "";

		free(key);
		if (owner < c->ctx->plan.count && &c->ctx->plan.jobs[owner] != j) {
			const build_result *theirs = &c->ctx->plan.jobs[owner].result;

			for (uint32_t e = 0; !their_name && e < theirs->output_count; e++)
				if (build_fold_compare(theirs->outputs[e].name, r->outputs[k].name) == 0 &&
				    strcmp(theirs->outputs[e].name, r->outputs[k].name) != 0)
					their_name = theirs->outputs[e].name;
			their_source = c->ctx->plan.jobs[owner].path;
		} else if (owner == SIZE_MAX && !c->is_dry) {
			their_name = earlier_alike(c, j, r->outputs[k].name, &their_source);
			earlier = " (an earlier build into this folder)";
		}
		if (!their_name)
			continue;   /* none, or the very name: the claim refuses it */
		char *mine = build_output_path(c->ctx, j, &r->outputs[k]);
		char *other = cli_path_join(o->out_dir, their_name, NULL);
		build_result_diag_kind(r, ANIMC_WARNING, "output-name-case", 0, 0, -1,
				       "'%s' and '%s', the output of '%s'%s, differ only in case: one file on file "
				       "systems that ignore case (Windows, macOS); rename one of the two sources",
				       mine ? mine : r->outputs[k].name, other ? other : their_name, their_source,
				       earlier);
		free(mine), free(other);
		any = true;
	}
	/* An up-to-date source fails too, as one whose recorded warning this
	 * build does not allow is compiled again to fail: its outputs were
	 * written by a build that let the warning pass, and stay (they are its
	 * last good build's) while it fails. */
	if (!any || c->is_dry || !o->warnings_as_errors ||
	    (r->status != BUILD_COMPILED && r->status != BUILD_CACHED && r->status != BUILD_UP_TO_DATE))
		return false;
	for (uint32_t k = 0; k < r->output_count; k++) {
		if (r->outputs[k].staged)
			unlink(r->outputs[k].staged);
		r->outputs[k].is_refused = true;
	}
	unsigned said = build_result_warnings_said(o, r);
	build_result_diag(r, ANIMC_ERROR, 0, 0, -1, "%u warning%s treated as errors; nothing written", said,
			  said == 1 ? "" : "s");
	r->status = BUILD_FAILED;
	return true;
}

/* A folder an output `name` lies in, or the output itself, that another
 * source's outputs of this run make something else: a file claimed where
 * `name` needs a folder (*in_file, that prefix in `at`), or a folder of
 * outputs claimed where `name` is to be a file.  Its job, or SIZE_MAX. */
/* Whether job `owner` wrote (or found as it would write) its output
 * `name`: one it could not write (a folder an earlier build left there)
 * is in no one's way. */
static bool wrote(const build_commit *c, size_t owner, const char *name)
{
	const build_result *r = &c->ctx->plan.jobs[owner].result;

	/* The job being committed puts its outputs in place after its claims. */
	for (uint32_t k = 0; k < r->output_count; k++)
		if (r->outputs[k].name && strcmp(r->outputs[k].name, name) == 0)
			return owner == c->committed ? !r->outputs[k].is_refused : r->outputs[k].is_written;
	return false;
}

static size_t folder_clash(const build_commit *c, const char *name, char *at, size_t at_size, bool *in_file)
{
	size_t owner = SIZE_MAX;

	*in_file = true;
	for (const char *slash = strchr(name, '/'); slash && owner == SIZE_MAX; slash = strchr(slash + 1, '/')) {
		if ((size_t)(slash - name) >= at_size)
			return SIZE_MAX;
		memcpy(at, name, (size_t)(slash - name));
		at[slash - name] = '\0';
		owner = claim_owner(c, at);
		if (owner != SIZE_MAX && owner < c->ctx->plan.count && !wrote(c, owner, at))
			owner = SIZE_MAX;
	}
	if (owner != SIZE_MAX || (size_t)snprintf(at, at_size, "%s/", name) >= at_size)
		return owner;
	*in_file = false;
	return claim_owner(c, at);
}

/* Claim the folders output `name` of job `owner` lies in, as "DIR/" (no
 * output's name ends so): folder_clash finds them.  False when memory ran
 * out. */
static bool claim_folders(build_commit *c, const char *name, size_t owner)
{
	char at[4096];

	for (const char *slash = strchr(name, '/'); slash; slash = strchr(slash + 1, '/')) {
		if ((size_t)(slash - name) + 1 >= sizeof at)
			return true;
		memcpy(at, name, (size_t)(slash - name) + 1);
		at[slash - name + 1] = '\0';
		if (claim_find(c, at))
			continue;   /* and those above it */
		if (claim_for(c, at, owner) == CLAIM_NO_MEMORY)
			return false;
	}
	return true;
}

/* Claim output `name` of job `i`, the folders it lies in, and its name
 * whatever the case of its letters (what folder_clash and say_name_case
 * look up). */
static claim_result claim_output(build_commit *c, const char *name, size_t i)
{
	claim_result made = claim_for(c, name, i);
	char *folded;

	if (made != CLAIM_MADE)
		return made;
	if (!claim_folders(c, name, i))
		return CLAIM_NO_MEMORY;
	folded = folded_claim(name);
	if (!folded)
		return CLAIM_NO_MEMORY;
	made = claim_for(c, folded, i);
	free(folded);
	return made == CLAIM_NO_MEMORY ? CLAIM_NO_MEMORY : CLAIM_MADE;
}

/* Memory ran out claiming the outputs of job j: none is written, and the
 * run ends (no clash is known, and none is said). */
static void refuse_for_memory(build_commit *c, build_job *j)
{
	build_result *r = &j->result;

	for (uint32_t k = 0; k < r->output_count; k++) {
		if (r->outputs[k].staged)
			unlink(r->outputs[k].staged);
		r->outputs[k].is_refused = true;
	}
	build_result_diag(r, ANIMC_ERROR, 0, 0, -1, "out of memory recording its outputs; nothing written");
	r->status = BUILD_FAILED;
	build_run_out_of_memory(c->ctx, "recording the outputs of the sources");
}

/* Why output k of job j, which another source or j itself writes in this
 * run (`owner`, SIZE_MAX: not known), is not written (its path, or NULL). */
static void say_claimed(const build_commit *c, build_job *j, uint32_t k, size_t owner, const char *path)
{
	build_result *r = &j->result;
	const build_output *o = &r->outputs[k];
	const build_job *other = owner < c->ctx->plan.count ? &c->ctx->plan.jobs[owner] : NULL;

	if (other == j) {
		const char *first = first_clip_at(r, k), *second = o->clip ? o->clip : "";
		size_t len = strlen(second);
		bool motion = len > 7 && strcmp(second + len - 7, ".motion") == 0;

		build_result_diag(r, ANIMC_ERROR, 0, 0, -1,
				  "'%s' would be written twice by this source, for '%s' and then for '%s' (%s); the "
				  "second is not written: rename it", path ? path : o->name, first, second,
				  motion ? "a clip named as another clip's root motion, CLIP.motion"
				  : strcmp(first, second) == 0 ? "two clips of one name"
				  : "clip names that make one file name");
	} else if (other && j->item_file && other->item_file) {
		/* Two items of a project: their destinations decide, said at
		 * the item's line (--base has no say in a project). */
		bool same_file = strcmp(j->item_file, other->item_file) == 0;
		uint32_t count = r->diag_count;

		build_result_diag(r, ANIMC_ERROR, 0, 0, -1,
				  "/build: '%s': its output %s is also the output of %s%s%u ('%s'); give it another "
				  "destination (/build:SOURCE;DEST)", j->path, o->name, same_file ? "line " : other->item_file,
				  same_file ? "" : ":", other->item_line, other->path);
		if (r->diag_count > count)
			r->diags[count].is_at_item = true;
	} else if (other) {
		build_result_diag(r, ANIMC_ERROR, 0, 0, -1, "'%s' is the output of '%s' in this run; not written: %s",
				  path ? path : o->name, other->path,
				  same_folder(j->path, other->path) ? "rename one of the two"
				  : "give --base DIR (a folder above both) to keep their folders apart, or rename one");
	} else {
		build_result_diag(r, ANIMC_ERROR, 0, 0, -1,
				  "'%s' is the output of another source in this run; not written", path ? path : o->name);
	}
}

void build_commit_job(build_commit *c, size_t i)
{
	build_job *j = &c->ctx->plan.jobs[i];
	build_result *r = &j->result;

	if (j->previous)
		j->previous->is_seen = true;
	r->source_diag_count = r->diag_count;
	bool refused = refuse_takeover(c, j) || say_name_case(c, j);
	for (uint32_t k = 0; !refused && k < r->output_count; k++) {
		build_output *o = &r->outputs[k];

		/* The root motion of a clip not written is not written either
		 * (it would be a file of no clip). */
		if (k > 0 && r->outputs[k - 1].is_refused && is_motion_of(&r->outputs[k - 1], o)) {
			if (o->staged)
				unlink(o->staged);
			o->is_refused = true;
			continue;
		}
		char at[4096];
		bool in_file;
		size_t clash = folder_clash(c, o->name, at, sizeof at, &in_file);

		if (clash != SIZE_MAX) {
			char *path = build_output_path(c->ctx, j, o), *other = cli_path_join(c->ctx->options->out_dir, at, NULL);

			if (o->staged)
				unlink(o->staged);
			o->is_refused = true;
			if (in_file)
				build_result_diag(r, ANIMC_ERROR, 0, 0, -1, "'%s' lies in '%s', the output of '%s' in this "
						  "run; not written: rename one of the two", path ? path : o->name,
						  other ? other : at, c->ctx->plan.jobs[clash].path);
			else
				build_result_diag(r, ANIMC_ERROR, 0, 0, -1, "'%s' is the folder of outputs of '%s' in this "
						  "run; not written: rename one of the two", path ? path : o->name,
						  c->ctx->plan.jobs[clash].path);
			free(path), free(other);
			r->status = BUILD_FAILED;
			continue;
		}
		claim_result made = claim_output(c, o->name, i);

		if (made == CLAIM_NO_MEMORY) {
			refuse_for_memory(c, j);
			break;
		}
		if (made == CLAIM_TAKEN) {
			char *path = build_output_path(c->ctx, j, o);
			size_t owner = claim_owner(c, o->name);

			if (o->staged)
				unlink(o->staged);
			o->is_refused = true;
			say_claimed(c, j, k, owner, path);
			free(path);
			r->status = BUILD_FAILED;
			continue;
		}
		char *target = c->is_dry ? NULL : build_output_path(c->ctx, j, o);
		/* An output up to date is not written, and the plan found it
		 * as this build wrote it: no source to guard (the lookup costs
		 * a stat of every source, half a no-op build's time). */
		size_t source = target && r->status != BUILD_UP_TO_DATE ? source_at(c, target) : SIZE_MAX;
		const char *before = target ? earlier_owner(c, j, o->name) : NULL;
		if (before) {
			build_result_diag_kind(r, ANIMC_WARNING, "output-taken-over", 0, 0, -1,
					       "'%s' was the output of '%s' (an earlier build into this folder); this "
					       "source writes it now: build the two into other folders, or give one "
					       "another name", target, before);
			/* Said once a run: the manifest's merge finds it too. */
			cli_strings_push(&c->ctx->takeovers_said, target);
		}
		if (source != SIZE_MAX) {
			if (o->staged)
				unlink(o->staged);
			o->is_refused = true;
			build_result_diag(r, ANIMC_ERROR, 0, 0, -1,
					  "'%s' is the source '%s'; not written over it: rename the source, or "
					  "build into another folder", target, c->ctx->plan.jobs[source].path);
			free(target);
			r->status = BUILD_FAILED;
			continue;
		}
		free(target);
		if (r->status == BUILD_UP_TO_DATE)
			o->is_written = true;
	}
	if (!c->is_dry && r->status != BUILD_UP_TO_DATE)
		put_in_place(c, j);
	if (!c->is_dry && (r->status == BUILD_COMPILED || r->status == BUILD_CACHED || r->status == BUILD_UP_TO_DATE))
		settle_mtimes(c, j);
	if (!c->is_dry && !c->dirty && is_unchanged_record(c, j)) {
		j->is_deferred = true;
		c->deferred++;
	} else if (!c->is_dry) {
		if (!c->dirty) {
			c->dirty = true;
			record_deferred(c);
		}
		record(c, j);
	}
	c->committed = i + 1;
}

/* ----------------------------------------------------------------- finish */

static bool output_unchanged(const char *path, const manifest_output *o)
{
	build_file_state now;
	build_hash h;
	cli_error err;

	if (!output_state(path, &now))
		return false;
	if (build_file_state_equal(&o->state, &now))
		return true;
	return now.size == o->size && build_hash_file(path, &h, &err) &&
	       build_hash_equal(&h, &o->hash);
}

/* What removing a recorded output came to. */
enum output_fate {
	OUTPUT_REMOVED,
	OUTPUT_GONE,      /* not there any more */
	OUTPUT_CHANGED,   /* no longer what animc wrote: left */
	OUTPUT_OUTSIDE,   /* its folder is reached through a symbolic link: left */
	OUTPUT_STUCK      /* still animc's, but unlink failed (*error says why) */
};

/* What clean and --prune say of an output changed since animc wrote it. */
#define CHANGED_ADVICE                                                                                     \
	"changed since animc wrote it; left, as not animc's any more: remove it by hand if it is not wanted"

/* What clean and --prune say of an output whose folder is reached through a link. */
#define OUTSIDE_ADVICE                                                                                     \
	"its folder is reached through a symbolic link in the output folder, through which animc removes "  \
	"nothing: remove it there by hand (the next clean or --prune then forgets it); to have animc remove " \
	"such outputs, build into the link's target with -o"

/*
 * The folders from OUTDIR down to a recorded output's, each opened by name
 * in the one above without following a symbolic link (OUTDIR itself, as
 * the user gave it, may be one).  A recorded path (the manifest's, a
 * journal's: files animc reads) holds no ".." and is not absolute, but a
 * link inside OUTDIR may still lead it elsewhere, and one swapped in while
 * animc works would redirect a removal by path: removal goes through these
 * descriptors instead.  `names` is a copy of the path cut at its slashes;
 * `fd[i]` is the folder named by names[i - 1] (fd[0] is OUTDIR).
 */
typedef struct output_folders {
	char *names;
	const char **name;   /* count names; the last is the output's */
	int *fd;             /* count descriptors, until output_folders_close */
	size_t count;
} output_folders;

static void output_folders_close(output_folders *w)
{
	for (size_t i = 0; w->fd && i < w->count; i++)
		if (w->fd[i] >= 0)
			close(w->fd[i]);
	free(w->names), free(w->name), free(w->fd);
}

/* Open the folders of OUTDIR/`rel`; 0 or an errno value (ELOOP or ENOTDIR:
 * a folder is a link). */
static int output_folders_open(output_folders *w, const char *out_dir, const char *rel)
{
	size_t n = 1;

	*w = (output_folders){ strdup(rel), NULL, NULL, 0 };
	for (const char *c = rel; *c; c++)
		n += *c == '/';
	if (w->names) {
		w->name = malloc(n * sizeof *w->name);
		w->fd = malloc(n * sizeof *w->fd);
	}
	if (!w->name || !w->fd)
		return ENOMEM;
	for (char *c = w->names, *next; c; c = next) {
		next = strchr(c, '/');
		if (next)
			*next++ = '\0';
		w->name[w->count++] = c;
	}
	w->fd[0] = open(out_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	for (size_t i = 1; i < w->count; i++) {
		if (w->fd[i - 1] < 0) {
			w->fd[i] = -1;
			continue;
		}
		w->fd[i] = openat(w->fd[i - 1], w->name[i - 1], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	}
	return w->fd[w->count - 1] < 0 ? errno : 0;
}

/* Whether the folder open at `fd` holds nothing (false when it cannot be read). */
static bool folder_is_empty(int fd)
{
	int copy = dup(fd);
	DIR *d = copy >= 0 ? fdopendir(copy) : NULL;
	struct dirent *e;
	bool is_empty = d != NULL;

	if (copy >= 0 && !d)
		close(copy);
	while (d && is_empty && (e = readdir(d)))
		is_empty = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
	if (d)
		closedir(d);
	return is_empty;
}

/* Remove the folders left empty between the output `rel` and OUTDIR.  One
 * left empty that cannot be removed (a mount point, a folder above it that
 * cannot be written) is said when ctx is given: it holds nothing of
 * animc's, but clean and --prune remove such folders. */
static void remove_empty_folders(const build_ctx *ctx, const output_folders *w, const char *rel)
{
	for (size_t i = w->count - 1; i > 0; i--) {
		if (unlinkat(w->fd[i - 1], w->name[i - 1], AT_REMOVEDIR) == 0)
			continue;
		int error = errno;
		size_t len = 0;

		/* A mount point, or a folder in one that cannot be written,
		 * fails before its files are counted. */
		if (!ctx || error == ENOTEMPTY || error == EEXIST || error == ENOENT || !folder_is_empty(w->fd[i]))
			break;
		for (size_t k = 0; k < i; k++)
			len += strlen(w->name[k]) + (k > 0);
		char *part = strndup(rel, len), *path = part ? cli_path_join(ctx->options->out_dir, part, NULL) : NULL;

		build_say_kind(ctx, ANIMC_WARNING, "output-left", path ? path : rel, "emptied, but cannot be "
			       "removed: %s; left", strerror(error));
		free(path), free(part);
		break;
	}
}

/* Remove an output animc wrote, when it is still what animc wrote and
 * where it wrote it; a folder it leaves empty that cannot be removed is
 * said when ctx is given. */
static enum output_fate output_remove(const build_ctx *ctx, const char *out_dir, const manifest_output *o,
				      int *error)
{
	char *path = cli_path_join(out_dir, o->path, NULL);
	output_folders folders;
	enum output_fate fate;
	struct stat st;
	int opened;

	*error = ENOMEM;
	if (!path)
		return OUTPUT_STUCK;
	opened = output_folders_open(&folders, out_dir, o->path);
	if (lstat(path, &st) != 0 && (errno == ENOENT || errno == ENOTDIR)) {
		fate = OUTPUT_GONE;
	} else if (opened == ELOOP || opened == ENOTDIR) {
		fate = OUTPUT_OUTSIDE;
	} else if (opened != 0) {
		*error = opened;
		fate = OUTPUT_STUCK;
	} else if (!output_unchanged(path, o)) {
		fate = lstat(path, &st) == 0 ? OUTPUT_CHANGED : OUTPUT_GONE;
	} else if (unlinkat(folders.fd[folders.count - 1], folders.name[folders.count - 1], 0) == 0) {
		fate = OUTPUT_REMOVED;
		remove_empty_folders(ctx, &folders, o->path);
	} else {
		*error = errno;
		fate = errno == ENOENT ? OUTPUT_GONE : OUTPUT_STUCK;
	}
	output_folders_close(&folders);
	free(path);
	return fate;
}

/* Whether a recorded source is still there.  Only a source the file
 * system says is not there is gone: one in a folder that cannot be read
 * (EACCES), or an input of the run that is missing itself or under one
 * (an unmounted share, a folder animc watch saw go), is kept; taken for
 * gone, its outputs would be stale, and --prune (every watch rebuild)
 * would delete them. */
/* Whether `path`, or the first folder up from it that is there, is a
 * symbolic link whose target is gone: a share not mounted, a disk not
 * plugged in.  Its files are not gone, only out of reach (the walk warned
 * `unreadable`), and keep their outputs until the link itself goes. */
static bool is_below_dangling_link(const char *path)
{
	char *at = strdup(path);
	struct stat st;
	bool is_dangling = false;

	for (char *cut = at; at && cut;) {
		if (lstat(at, &st) == 0) {
			is_dangling = S_ISLNK(st.st_mode) && stat(at, &st) != 0;
			break;
		}
		cut = strrchr(at, '/');
		if (cut)
			*cut = '\0';
	}
	free(at);
	return is_dangling;
}

static bool source_exists(const build_ctx *ctx, const char *path)
{
	struct stat st;
	const cli_strings *inputs = &ctx->options->inputs;

	/* A FIFO or a device in its place is the source, unreadable: it
	 * fails and keeps its outputs.  A folder is one of the tree. */
	if (stat(path, &st) == 0)
		return !S_ISDIR(st.st_mode);
	if (errno != ENOENT && errno != ENOTDIR)
		return true;
	if (is_below_dangling_link(path))
		return true;
	for (size_t i = 0; i < inputs->count; i++)
		if (cli_path_is_within(path, inputs->items[i]) && cli_stat_input(inputs->items[i], &st) != 0)
			return true;
	return false;
}

/* source_exists, told by a listing of the source's folder when it tells
 * (cli_kinds_by_listing's `kind`). */
static bool source_exists_as(const build_ctx *ctx, const char *path, unsigned char kind)
{
	if (kind == DT_UNKNOWN || kind == DT_LNK)
		return source_exists(ctx, path);
	return kind != DT_DIR;
}

/* Of each entry of the last run's manifest, what a listing of its source's
 * folder says (cli_kinds_by_listing): a folder of many sources is listed
 * once rather than each stat()ed.  NULL when out of memory. */
static unsigned char *old_source_kinds(const build_ctx *ctx)
{
	const char **paths = malloc((ctx->old.count + 1) * sizeof *paths);
	unsigned char *kinds = malloc(ctx->old.count + 1);

	if (paths && kinds) {
		size_t n = 0;

		/* Not those read lazily: the run reports on its sources alone. */
		for (size_t i = 0; i < ctx->old.count; i++)
			if (!ctx->old.entries[i].is_lazy)
				paths[n++] = ctx->old.entries[i].source;
		cli_kinds_by_listing(paths, n, kinds);
		for (size_t i = ctx->old.count; n < ctx->old.count && i-- > 0;)
			kinds[i] = ctx->old.entries[i].is_lazy ? DT_UNKNOWN : kinds[--n];
	} else {
		free(kinds);
		kinds = NULL;
	}
	free(paths);
	return kinds;
}

/* Whether the file `name` of `folder` is a source: one an importer
 * recognises.  A build skips the others (a texture beside its model, a
 * note), which claim no output. */
static bool is_source_file(const char *folder, const char *name)
{
	char *path = cli_path_join(folder, name, NULL);
	cli_source src;
	cli_error err;
	bool is = path && cli_source_open(&src, path, &err);

	if (is) {
		is = animc_importer_find(path, src.head, src.head_size) != NULL;
		cli_source_close(&src);
	}
	free(path);
	return is;
}

/* A file of a folder, by the name a build gives its outputs. */
typedef struct stem_file {
	char *stem;   /* build_safe_name of its stem */
	char *name;
} stem_file;

/* The files of a folder (no folder, no output), sorted by stem. */
typedef struct stem_folder {
	char *path;
	stem_file *files;
	size_t count;
} stem_folder;

/*
 * What tells a --prune run whether an orphan's source is there
 * (orphan_source_is_there), made once a run: looked up for each orphan, a
 * listing or a walk of the manifest each time made a run of per-file
 * rules after a killed run of thousands of sources take seconds each.
 */
struct orphan_lookup {
	char **roots;              /* where the run's sources are written from */
	size_t root_count;
	const char **recorded;     /* the out_bases the loaded manifest records, sorted */
	size_t recorded_count;
	stem_folder *folders;      /* those listed so far */
	size_t folder_count;
};

static int compare_string_ptr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int compare_stem_file(const void *a, const void *b)
{
	return strcmp(((const stem_file *)a)->stem, ((const stem_file *)b)->stem);
}

/* Add the file `name` to f (false: out of memory). */
static bool stem_folder_add(stem_folder *f, const char *name, size_t *cap)
{
	char *raw = strndup(name, cli_stem_length(name));
	char *safe = raw ? build_safe_name(raw, 0) : NULL;
	char *copy = safe ? strdup(name) : NULL;
	stem_file *more = copy && f->count == *cap ? realloc(f->files, (*cap = *cap * 2 + 16) * sizeof *more)
			   : f->files;

	free(raw);
	if (!copy || !more) {
		free(safe), free(copy);
		return false;
	}
	f->files = more;
	f->files[f->count++] = (stem_file){ safe, copy };
	return true;
}

/* List the folder `path` into f: its files, no folder, no output. */
static void stem_folder_list(stem_folder *f, const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	size_t cap = 0;

	while (d && (e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (e->d_type == DT_DIR || strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
		    (len > 4 && strcmp(e->d_name + len - 4, ".xnb") == 0) ||
		    (len > 8 && strcmp(e->d_name + len - 8, ".xnb.zst") == 0))
			continue;
		if (!stem_folder_add(f, e->d_name, &cap))
			break;
	}
	if (d)
		closedir(d);
	if (f->count)
		qsort(f->files, f->count, sizeof *f->files, compare_stem_file);
}

/* The listing of the folder `path`, listed when first asked for; NULL
 * when out of memory. */
static const stem_folder *stem_folder_get(struct orphan_lookup *l, const char *path)
{
	stem_folder *more;

	for (size_t i = 0; i < l->folder_count; i++)
		if (strcmp(l->folders[i].path, path) == 0)
			return &l->folders[i];
	more = realloc(l->folders, (l->folder_count + 1) * sizeof *more);
	if (!more)
		return NULL;
	l->folders = more;
	more = &l->folders[l->folder_count];
	*more = (stem_folder){ strdup(path), NULL, 0 };
	if (!more->path)
		return NULL;
	stem_folder_list(more, path);
	l->folder_count++;
	return more;
}

/* Whether `folder` holds a source (no folder, no output) a build names
 * `stem` (build_safe_name of its stem). */
static bool folder_holds_stem(struct orphan_lookup *l, const char *folder, const char *stem)
{
	const stem_folder *f = stem_folder_get(l, folder);
	size_t lo = 0, hi = f ? f->count : 0;

	while (lo < hi) {   /* the first file of that stem, or past them */
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(f->files[mid].stem, stem) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; f && i < f->count && strcmp(f->files[i].stem, stem) == 0; i++)
		if (is_source_file(folder, f->files[i].name))
			return true;
	return false;
}

/* The folder of `path` ("." for a bare name). */
static char *folder_of(const char *path)
{
	const char *base = cli_basename(path);
	size_t n = (size_t)(base - path);

	return !n ? strdup(".") : n == 1 ? strdup("/") : strndup(path, n - 1);
}

/* Whether `root`/FOLDER holds a file a build from `root` lands at the
 * out_base `out_base` (FOLDER/STEM, relative to OUTDIR). */
static bool root_lands_at(struct orphan_lookup *l, const char *root, const char *out_base)
{
	const char *stem = cli_basename(out_base);
	char *rel = strndup(out_base, (size_t)(stem - out_base));
	char *folder = rel ? cli_path_join(root, rel[0] ? rel : ".", NULL) : NULL;
	bool found = folder && folder_holds_stem(l, folder, stem);

	free(rel), free(folder);
	return found;
}

/* The out_bases an output at `o` may have been written to: its path less
 * its extension (and .motion: a clip written whole), and its folder (a
 * clip of a source of many). */
static size_t orphan_out_bases(const manifest_output *o, char *bases[2])
{
	size_t len = strlen(o->path), n = 0;
	const char *slash = strrchr(o->path, '/');

	if (len > 8 && strcmp(o->path + len - 8, ".xnb.zst") == 0)
		len -= 8;
	else if (len > 4 && strcmp(o->path + len - 4, ".xnb") == 0)
		len -= 4;
	if (o->is_motion && len > 7 && strncmp(o->path + len - 7, ".motion", 7) == 0)
		len -= 7;
	if ((bases[n] = strndup(o->path, len)))
		n++;
	if (slash && (bases[n] = strndup(o->path, (size_t)(slash - o->path))))
		n++;
	return n;
}

/* Whether the last run's manifest records a source built to `out_base`. */
static bool is_recorded_out_base(const struct orphan_lookup *l, const char *out_base)
{
	return l->recorded_count &&
	       bsearch(&out_base, l->recorded, l->recorded_count, sizeof *l->recorded, compare_string_ptr);
}

/* The roots of orphan_source_is_there: --base; else each folder given,
 * and the folder of each file given. */
static void orphan_roots_make(struct orphan_lookup *l, const build_options *opts)
{
	size_t count = opts->base_dir ? 1 : opts->inputs.count;

	l->roots = count ? calloc(count, sizeof *l->roots) : NULL;
	for (size_t r = 0; l->roots && r < count; r++) {
		const char *input = opts->base_dir ? opts->base_dir : opts->inputs.items[r];
		struct stat st;
		char *root = opts->base_dir || (stat(input, &st) == 0 && S_ISDIR(st.st_mode)) ? strdup(input)
			     : folder_of(input);

		if (root)
			l->roots[l->root_count++] = root;
	}
}

/* c's orphan lookup, made when first needed; NULL when out of memory. */
static struct orphan_lookup *orphan_lookup_get(build_commit *c)
{
	const build_ctx *ctx = c->ctx;
	struct orphan_lookup *l = c->orphan_lookup;

	if (l)
		return l;
	l = calloc(1, sizeof *l);
	if (!l)
		return NULL;
	orphan_roots_make(l, ctx->options);
	l->recorded = ctx->old.count ? malloc(ctx->old.count * sizeof *l->recorded) : NULL;
	for (size_t i = 0; l->recorded && i < ctx->old.count; i++)
		l->recorded[l->recorded_count++] = ctx->old.entries[i].out_base;
	if (l->recorded_count)
		qsort(l->recorded, l->recorded_count, sizeof *l->recorded, compare_string_ptr);
	c->orphan_lookup = l;
	return l;
}

static void orphan_lookup_release(struct orphan_lookup *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->root_count; i++)
		free(l->roots[i]);
	for (size_t i = 0; i < l->folder_count; i++) {
		for (size_t k = 0; k < l->folders[i].count; k++)
			free(l->folders[i].files[k].stem), free(l->folders[i].files[k].name);
		free(l->folders[i].files);
		free(l->folders[i].path);
	}
	free(l->roots);
	free(l->recorded);
	free(l->folders);
	free(l);
}

/*
 * Whether the source of orphan `o` may be there, unrecorded: a file that a
 * build from one of this run's roots (--base; else each folder given, and
 * the folder of each file given) writes where `o` lies, and of which the
 * manifest holds no record.  A run of it killed before its manifest
 * recorded it leaves such an orphan, which that source's next build
 * claims: --prune, which removes the outputs of sources gone, keeps it.
 * A recorded source's record says what it writes (an orphan beside it is
 * a clip it no longer holds); a source under another run's root is not
 * known here.
 */
static bool orphan_source_is_there(build_commit *c, const manifest_output *o)
{
	struct orphan_lookup *l = orphan_lookup_get(c);
	char *bases[2];
	size_t all = l ? orphan_out_bases(o, bases) : 0, count = 0;
	bool found = false;

	for (size_t b = 0; b < all; b++)
		if (is_recorded_out_base(l, bases[b]))
			free(bases[b]);
		else
			bases[count++] = bases[b];
	for (size_t r = 0; !found && l && r < l->root_count; r++)
		for (size_t b = 0; !found && b < count; b++)
			found = root_lands_at(l, l->roots[r], bases[b]);
	for (size_t b = 0; b < count; b++)
		free(bases[b]);
	return found;
}

/* A recorded output under the folder `name` (relative to OUTDIR): removed
 * when --prune would remove it at the end of the run, and settled. */
static void clear_stale_output(build_commit *c, const manifest_output *o, const char *name)
{
	size_t len = strlen(name);
	int error;

	if (strncmp(o->path, name, len) != 0 || o->path[len] != '/' || claim_find(c, o->path))
		return;
	if (output_remove(NULL, c->ctx->options->out_dir, o, &error) == OUTPUT_REMOVED && claim(c, o->path))
		c->pruned++;
}

/*
 * With --prune, a folder where an output goes (`path`, OUTDIR/`name`) may
 * hold stale outputs alone: those of a source folder named NAME.xnb that is
 * gone.  They go now rather than at the end of the run (build_commit_finish),
 * which would leave this output unwritten for a run.  Only outputs of gone
 * sources and orphans are removed, as the end of the run would; true when
 * that leaves no folder in the way.
 */
static bool clear_stale_folder(build_commit *c, const char *name, const char *path)
{
	const build_ctx *ctx = c->ctx;
	struct stat st;

	if (!ctx->options->prune || !ctx->has_old || lstat(path, &st) != 0 || !S_ISDIR(st.st_mode))
		return false;
	for (size_t i = 0; i < ctx->old.count; i++) {
		const manifest_entry *e = &ctx->old.entries[i];

		if (build_is_my_shard(ctx->options, e->out_base) && !source_exists(ctx, e->source))
			for (uint32_t k = 0; k < e->output_count; k++)
				clear_stale_output(c, &e->outputs[k], name);
	}
	for (size_t i = 0; i < ctx->old.orphan_count; i++)
		if (!orphan_source_is_there(c, &ctx->old.orphans[i]))
			clear_stale_output(c, &ctx->old.orphans[i], name);
	return lstat(path, &st) != 0 && errno == ENOENT;
}

static bool copy_output(manifest_output *dst, const manifest_output *src)
{
	*dst = *src;
	dst->path = strdup(src->path);
	dst->clip = strdup(src->clip);
	if (!dst->path || !dst->clip) {
		manifest_output_release(dst);
		return false;
	}
	return true;
}

static bool copy_entry(manifest_entry *dst, const manifest_entry *src)
{
	*dst = *src;
	dst->source = strdup(src->source);
	dst->skip_reason = src->skip_reason ? strdup(src->skip_reason) : NULL;
	dst->out_base = strdup(src->out_base);
	dst->deps = NULL;
	dst->outputs = NULL;
	dst->warnings = NULL;
	dst->dep_count = dst->output_count = dst->warning_count = 0;
	dst->is_ours = false;
	if (!dst->source || !dst->out_base || (src->skip_reason && !dst->skip_reason))
		goto fail;
	if (src->dep_count && !(dst->deps = calloc(src->dep_count, sizeof *dst->deps)))
		goto fail;
	for (uint32_t i = 0; i < src->dep_count; i++) {
		dst->deps[i] = src->deps[i];
		if (!(dst->deps[i].path = strdup(src->deps[i].path)))
			goto fail;
		dst->dep_count++;
	}
	if (src->output_count && !(dst->outputs = calloc(src->output_count, sizeof *dst->outputs)))
		goto fail;
	for (uint32_t i = 0; i < src->output_count; i++) {
		if (!copy_output(&dst->outputs[i], &src->outputs[i]))
			goto fail;
		dst->output_count++;
	}
	if (src->warning_count && !(dst->warnings = calloc(src->warning_count, sizeof *dst->warnings)))
		goto fail;
	for (uint32_t i = 0; i < src->warning_count; i++) {
		dst->warnings[i] = src->warnings[i];
		if (!(dst->warnings[i].message = strdup(src->warnings[i].message)))
			goto fail;
		dst->warning_count++;
	}
	return true;
fail:
	manifest_entry_release(dst);
	return false;
}

/* Keep an old output as an orphan, or remove it (--prune).  Counts. */
static void settle_orphan(build_commit *c, const manifest_output *o)
{
	char *path;
	manifest_output copy;

	if (claim_find(c, o->path))
		return;   /* written again this run */
	if (!claim(c, o->path))
		return;   /* settle each path once */
	path = cli_path_join(c->ctx->options->out_dir, o->path, NULL);
	if (!path)
		return;
	if (!output_unchanged(path, o)) {
		struct stat st;

		/* Gone, or no longer animc's: --prune, asked to remove it,
		 * says why it does not, as clean does; then it is forgotten. */
		if (c->ctx->options->prune && lstat(path, &st) == 0)
			build_say_kind(c->ctx, ANIMC_WARNING, "output-left", path, CHANGED_ADVICE);
		free(path);
		return;
	}
	if (c->ctx->options->prune && orphan_source_is_there(c, o)) {
		/* Not stale: its source's next build claims it. */
		free(path);
		if (copy_output(&copy, o) && !manifest_add_orphan(&c->next, &copy))
			manifest_output_release(&copy);
		return;
	}
	if (c->ctx->options->prune) {
		int error;
		enum output_fate fate = output_remove(c->ctx, c->ctx->options->out_dir, o, &error);

		if (fate == OUTPUT_REMOVED)
			c->pruned++;
		if (fate != OUTPUT_STUCK && fate != OUTPUT_OUTSIDE) {
			free(path);
			return;
		}
		/* Kept recorded, so that a later --prune or clean removes it
		 * (or says again why not). */
		if (fate == OUTPUT_OUTSIDE)
			build_say_kind(c->ctx, ANIMC_WARNING, "output-left", path, OUTSIDE_ADVICE "; left");
		else
			build_say_kind(c->ctx, ANIMC_WARNING, "output-left", path, "cannot remove: %s; left", strerror(error));
	}
	free(path);
	c->stale++;
	if (copy_output(&copy, o) && !manifest_add_orphan(&c->next, &copy))
		manifest_output_release(&copy);
}

/* Project items by source, then destination. */
static int compare_item(const void *a, const void *b)
{
	const build_mgcb_item *x = *(const build_mgcb_item *const *)a, *y = *(const build_mgcb_item *const *)b;
	int c = strcmp(x->source, y->source);

	return c ? c : strcmp(x->dest, y->dest);
}

/* The items this run's project builds (sorted by compare_item, in *out;
 * NULL: none). */
static size_t project_items(const build_options *o, const build_mgcb_item ***out)
{
	size_t n = 0;

	*out = NULL;
	if (!o->has_project || !(*out = malloc((o->project.count + 1) * sizeof **out)))
		return 0;
	for (size_t i = 0; i < o->project.count; i++)
		if (!o->project.items[i].is_copy)
			(*out)[n++] = &o->project.items[i];
	qsort(*out, n, sizeof **out, compare_item);
	return n;
}

/* Does this run's project build e's source to e's destination (in any
 * shard)? */
static bool project_holds(const build_mgcb_item **items, size_t count, const manifest_entry *e)
{
	build_mgcb_item key = { .source = e->source, .dest = e->out_base };
	const build_mgcb_item *k = &key;

	return items && bsearch(&k, items, count, sizeof *items, compare_item);
}

/* Did this run's project build the entry (it depends on the project file)
 * and no longer names its source at its destination (an item removed, a
 * destination changed, an item left out by $if)?  Its outputs are then
 * stale, as a deleted source's are. */
static bool dropped_from_project(const build_options *o, const build_mgcb_item **items, size_t count,
				 const manifest_entry *e)
{
	bool from_project = false;

	for (uint32_t d = 0; o->has_project && d < e->dep_count; d++)
		from_project |= strcmp(e->deps[d].path, o->project.path) == 0;
	return from_project && items && !project_holds(items, count, e);
}

/* Has entry e an output at `path`? */
static bool has_output(const manifest_entry *e, const char *path)
{
	for (uint32_t k = 0; k < e->output_count; k++)
		if (strcmp(e->outputs[k].path, path) == 0)
			return true;
	return false;
}

/* Does the source of entry e, built with --clip, still hold the clip whose
 * output o is (its root motion: the clip's)?  True when not known: up to
 * date, it holds what it held. */
static bool still_holds(const manifest_entry *e, const manifest_output *o)
{
	static const char motion[] = ".motion";
	size_t len = strlen(o->clip), m = sizeof motion - 1;

	if (!e->result || !e->result->held_clip_count)
		return true;
	if (o->is_motion && len >= m && strcmp(o->clip + len - m, motion) == 0)
		len -= m;
	for (uint32_t i = 0; i < e->result->held_clip_count; i++)
		if (strncmp(e->result->held_clips[i], o->clip, len) == 0 && !e->result->held_clips[i][len])
			return true;
	return false;
}

/*
 * A source that failed this run keeps the outputs its last good build
 * wrote (those no source of this run wrote, and still as animc wrote
 * them): a typo saved while `animc watch` runs, or a warning made an
 * error, must not cost the game its asset, and --prune only removes what
 * a source no longer holds.  They stay in its record, so clean removes
 * them and the next good build settles them.  So does a source compiled
 * with --clip, for the outputs of the clips it left out that it still
 * holds: --clip picks what this run compiles.  Those of clips it no
 * longer holds (renamed or removed since) are stale, as after a build of
 * the whole source.
 */
static void keep_last_good(build_commit *c)
{
	build_ctx *ctx = c->ctx;

	for (size_t i = 0; i < c->next.count; i++) {
		manifest_entry *e = &c->next.entries[i];
		const manifest_entry *old;

		bool unreadable = e->status == BUILD_SKIPPED && e->skip_reason &&
				  strcmp(e->skip_reason, BUILD_UNREADABLE_REASON) == 0;
		bool has_failed = e->status == BUILD_FAILED || unreadable;
		bool is_picked = e->status == BUILD_COMPILED && ctx->options->clip_names.count;

		if (!e->is_ours || (!has_failed && !is_picked) ||
		    !(old = manifest_find_output(&ctx->old, e->source, e->out_base)))
			continue;
		for (uint32_t k = 0; k < old->output_count; k++) {
			const manifest_output *o = &old->outputs[k];
			char *path;
			bool keep;

			/* A path claimed by a source that did not write it (this
			 * one, whose outputs went in place all or none) still
			 * holds the last good output. */
			size_t owner = claim_owner(c, o->path);
			bool is_unwritten = owner < ctx->plan.count && !wrote(c, owner, o->path);
			if (has_output(e, o->path) || (claim_find(c, o->path) && !is_unwritten) ||
			    (!has_failed && (!build_options_leaves_out(ctx->options, o->clip, o->is_motion) ||
					     !still_holds(e, o))))
				continue;
			path = cli_path_join(ctx->options->out_dir, o->path, NULL);
			keep = path && output_unchanged(path, o);
			free(path);
			manifest_output *grown = keep ? realloc(e->outputs, (e->output_count + 1) * sizeof *grown) : NULL;
			if (!grown)
				continue;
			e->outputs = grown;
			if (!copy_output(&e->outputs[e->output_count], o))
				continue;
			if (is_unwritten || claim(c, o->path))
				e->output_count++;
			else
				manifest_output_release(&e->outputs[e->output_count]);
		}
	}
}

/*
 * Entry e of the last run's manifest, of a source this run did not build,
 * into the new one, but for the outputs a source of this run wrote, which
 * are that source's now.  One that keeps every output borrows e's strings
 * and arrays (the loaded manifest outlives the saving of the new one),
 * rather than copying them: a per-file rule carries thousands.
 */
static void carry_entry(build_commit *c, const manifest_entry *e, bool is_gone)
{
	bool few[16], *taken;
	uint32_t kept = 0;
	manifest_entry copy;

	if (e->is_lazy) {
		/* No output of its is this run's (those were read whole): it
		 * stays as read, in its place (c->next.carries). */
		c->lazy_carried++;
		return;
	}
	taken = e->output_count <= 16 ? few : malloc(e->output_count * sizeof *taken);
	if (!taken)
		return;
	for (uint32_t k = 0; k < e->output_count; k++)
		kept += taken[k] = claim(c, e->outputs[k].path);
	if (kept == e->output_count) {
		copy = *e;
		copy.is_ours = false;
		copy.is_borrowed = true;
	} else if (copy_entry(&copy, e)) {
		kept = 0;
		for (uint32_t k = 0; k < copy.output_count; k++) {
			if (taken[k])
				copy.outputs[kept++] = copy.outputs[k];
			else
				manifest_output_release(&copy.outputs[k]);
		}
		/* Built again, it compiles: what it wrote is no longer there.
		 * Its records as read no longer hold. */
		memset(&copy.run_key, 0, sizeof copy.run_key);
		copy.raw = NULL;
		copy.output_count = kept;
	} else {
		kept = UINT32_MAX;
	}
	if (taken != few)
		free(taken);
	if (kept == UINT32_MAX)
		return;
	copy.carried_from = (size_t)(e - c->ctx->old.entries) + 1;
	/* Stale: what --prune would remove, those still as animc wrote them. */
	for (uint32_t k = 0; is_gone && k < kept; k++) {
		char *path = cli_path_join(c->ctx->options->out_dir, copy.outputs[k].path, NULL);

		c->stale += path && output_unchanged(path, &copy.outputs[k]);
		free(path);
	}
	if (!manifest_add(&c->next, &copy))
		manifest_entry_release(&copy);
}

/* Of a manifest read lazily, the entries that record an output this run
 * claimed (written by one of its sources now, or a folder it writes into)
 * or one the manifest holds as an orphan, read whole: they lose it, as
 * when read whole.  take_writers read those of most claims already. */
static void take_claimed(build_commit *c)
{
	const manifest *old = &c->ctx->old;
	const char **names;
	size_t n = 0;

	if (!old->lazy_count)
		return;
	names = malloc((c->claims.count + old->orphan_count + 1) * sizeof *names);
	if (!names) {
		manifest_take_all(&c->ctx->old);
		return;
	}
	for (size_t i = 0; i < c->claims.count; i++)
		if (!was_searched(c, c->claims.items[i]))
			names[n++] = c->claims.items[i];
	for (size_t i = 0; i < old->orphan_count; i++)
		names[n++] = old->orphans[i].path;
	if (n > 64)
		manifest_take_all(&c->ctx->old);   /* a walk for each costs more */
	else if (n)
		manifest_take_named(&c->ctx->old, "output", names, n);
	free(names);
}

void build_commit_finish(build_commit *c)
{
	build_ctx *ctx = c->ctx;

	if (c->is_dry || !ctx->has_old) {
		c->dirty = true;
		return;
	}
	keep_last_good(c);
	take_claimed(c);
	/* Sources this run did not name: kept as they were, unless the
	 * source is gone and --prune asks to clean up after it. */
	const build_mgcb_item **items;
	size_t item_count = project_items(ctx->options, &items);
	manifest_reserve(&c->next, ctx->old.count - ctx->old.lazy_count);   /* most are carried */
	if (ctx->old.lazy_count) {
		c->next.carries = &ctx->old;
		c->next.carry_at = c->next.count;
	}
	unsigned char *kinds = old_source_kinds(ctx);
	for (size_t i = 0; i < ctx->old.count; i++) {
		const manifest_entry *e = &ctx->old.entries[i];

		/* Recorded again; or this run built the source elsewhere, at
		 * a destination its project does not give it, or its project
		 * dropped it, which leaves these outputs to the orphans below.
		 * A source this run did not build keeps every record, one per
		 * destination; so does a source of two destinations, one of
		 * them another shard's.  One read lazily is of no source of
		 * this run (those were read whole), and not this run's to
		 * report on. */
		if (e->is_lazy) {
			carry_entry(c, e, false);
			continue;
		}
		if (e->is_seen || manifest_find_output(&c->next, e->source, e->out_base) ||
		    (manifest_find_ours(&c->next, e->source) && !project_holds(items, item_count, e)) ||
		    dropped_from_project(ctx->options, items, item_count, e))
			continue;
		/* Another shard's source: its shard counts and prunes it. */
		bool is_gone = build_is_my_shard(ctx->options, e->out_base) &&
			       !source_exists_as(ctx, e->source, kinds ? kinds[i] : DT_UNKNOWN);
		if (is_gone && ctx->options->prune) {
			cli_strings_push(&c->pruned_sources, e->source);
			continue;   /* its outputs become orphans below, and go */
		}
		carry_entry(c, e, is_gone);
	}
	free(items);
	free(kinds);
	/* Outputs of the last run that no source claims now: clips a source no
	 * longer holds, sources gone, names that changed. */
	for (size_t i = 0; i < ctx->old.count; i++)
		for (uint32_t k = 0; k < ctx->old.entries[i].output_count; k++)
			settle_orphan(c, &ctx->old.entries[i].outputs[k]);
	for (size_t i = 0; i < ctx->old.orphan_count; i++)
		settle_orphan(c, &ctx->old.orphans[i]);
	if (c->next.count + c->lazy_carried + c->deferred != ctx->old.count ||
	    c->next.orphan_count != ctx->old.orphan_count || c->pruned ||
	    !build_hash_equal(&c->next.options, &ctx->old.options) ||
	    c->next.has_skeleton != ctx->old.has_skeleton ||
	    (c->next.has_skeleton &&
	     (!build_hash_equal(&c->next.skeleton.hash, &ctx->old.skeleton.hash) ||
	      memcmp(&c->next.skeleton.state, &ctx->old.skeleton.state, sizeof c->next.skeleton.state) ||
	      strcmp(c->next.skeleton.path, ctx->old.skeleton.path) != 0)))
		c->dirty = true;
	if (c->dirty)
		record_deferred(c);
}

/* ----------------------------------------------------------------- temps */

/* A temporary file cli_write_atomic makes: ".NAME.XXXXXX", NAME an output
 * (.xnb, .xnb.zst) or the manifest. */
static bool is_temp_name(const char *name)
{
	size_t n = strlen(name);
	const char *tail;

	if (n < 9 || name[0] != '.' || name[n - 7] != '.')
		return false;
	for (tail = name + n - 6; *tail; tail++)
		if (!((*tail >= 'a' && *tail <= 'z') || (*tail >= 'A' && *tail <= 'Z') ||
		      (*tail >= '0' && *tail <= '9')))
			return false;
	n -= 7;
	return (n > 5 && memcmp(name + n - 4, ".xnb", 4) == 0) ||
	       (n > 9 && memcmp(name + n - 8, ".xnb.zst", 8) == 0) ||
	       (n == 9 && memcmp(name, ".manifest", 9) == 0);
}

/* What a sweep removed, and what it could not. */
typedef struct sweep_counts {
	unsigned removed, left;
} sweep_counts;

/*
 * Remove the temporary files under `dir` (the folder `name` of the one
 * open as `parent`, or OUTDIR at depth 0), and the folders that leaves
 * empty (a killed run may have made a folder for a file it never put in
 * place); never OUTDIR itself, nor a folder that was empty before.  Each
 * folder is opened in the one above without following a link, and each
 * file removed there, so a link swapped in meanwhile leads nowhere.  One
 * that cannot be removed is said when ctx is given.  True when `dir`
 * itself is gone.
 */
static bool sweep(const build_ctx *ctx, int parent, const char *name, const char *dir, int depth,
		  sweep_counts *n)
{
	int fd = depth == 0 ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
	       : depth < 4096 ? openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *entry;
	bool emptied = false;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	while ((entry = readdir(d))) {
		char *path;
		struct stat st;

		if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0)
			continue;
		path = cli_path_join(dir, entry->d_name, NULL);
		if (!path)
			break;
		if (fstatat(fd, entry->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
			/* gone meanwhile */
		} else if (S_ISDIR(st.st_mode)) {
			emptied |= sweep(ctx, fd, entry->d_name, path, depth + 1, n);
		} else if (!S_ISREG(st.st_mode) || !is_temp_name(entry->d_name)) {
			/* not animc's */
		} else if (unlinkat(fd, entry->d_name, 0) == 0) {
			n->removed++;
			emptied = true;
		} else if (errno != ENOENT) {
			n->left++;
			if (ctx)
				build_say(ctx, ANIMC_ERROR, path, "cannot remove: %s; left", strerror(errno));
		}
		free(path);
	}
	closedir(d);
	return emptied && depth > 0 && unlinkat(parent, name, AT_REMOVEDIR) == 0;
}

unsigned build_sweep_temps(const char *dir)
{
	sweep_counts n = { 0, 0 };

	sweep(NULL, AT_FDCWD, NULL, dir, 0, &n);
	return n.removed;
}

/* ----------------------------------------------------------------- clean */

/* What clean did, for its summary and exit status. */
typedef struct clean_counts {
	unsigned removed, temps, left;
	bool is_stuck;        /* something of animc's could not be removed */
	bool keeps_journals;  /* what they name is not in a saved manifest */
} clean_counts;

/* A recorded output, and where among the records it came. */
typedef struct clean_record {
	const manifest_output *out;
	size_t order;
} clean_record;

static int compare_clean_records(const void *a, const void *b)
{
	const clean_record *x = a, *y = b;
	int by_path = strcmp(x->out->path, y->out->path);

	return by_path ? by_path : (x->order > y->order) - (x->order < y->order);
}

/* Every output record of the manifest and the journals, by path (in the
 * order they were read within one path); NULL when out of memory. */
static clean_record *clean_records(const manifest *m, const manifest *journal, size_t *count)
{
	size_t n = manifest_output_total(m) + manifest_output_total(journal);
	clean_record *all = malloc((n ? n : 1) * sizeof *all);

	if (!all)
		return NULL;
	n = 0;
	for (size_t i = 0; i < m->count; i++)
		for (uint32_t k = 0; k < m->entries[i].output_count; k++, n++)
			all[n] = (clean_record){ &m->entries[i].outputs[k], n };
	for (size_t i = 0; i < m->orphan_count; i++, n++)
		all[n] = (clean_record){ &m->orphans[i], n };
	for (size_t i = 0; i < journal->orphan_count; i++, n++)
		all[n] = (clean_record){ &journal->orphans[i], n };
	qsort(all, n, sizeof *all, compare_clean_records);
	*count = n;
	return all;
}

/* Remove one output path, recorded `count` times (the manifest's record
 * and a journal's of a later write): what is there goes when it is what
 * any of them says animc wrote.  One still animc's that cannot be removed
 * (a read-only folder) goes into `left`, as an orphan. */
static void clean_output(const build_ctx *ctx, const clean_record *records, size_t count, manifest *left,
			 clean_counts *n)
{
	const char *out_dir = ctx->options->out_dir;
	const manifest_output *out = records[0].out;
	enum output_fate fate = OUTPUT_CHANGED;
	int error = 0;
	manifest_output copy;
	char *path;

	for (size_t k = 0; k < count && fate == OUTPUT_CHANGED; k++) {
		out = records[k].out;
		fate = output_remove(ctx, out_dir, out, &error);
	}
	if (fate == OUTPUT_GONE)
		return;
	if (fate == OUTPUT_REMOVED) {
		n->removed++;
		if (ctx->options->verbose) {
			fputs("removed ", stdout);
			cli_print_escaped(stdout, out_dir, 0);
			fputc('/', stdout);
			cli_print_escaped(stdout, out->path, 0);
			fputc('\n', stdout);
		}
		return;
	}
	n->left++;
	path = cli_path_join(out_dir, out->path, NULL);
	if (fate == OUTPUT_CHANGED) {
		build_say_kind(ctx, ANIMC_WARNING, "output-left", path ? path : out->path, CHANGED_ADVICE);
	} else if (fate == OUTPUT_OUTSIDE) {
		/* Kept recorded, as one that cannot be removed: said each time. */
		build_say_kind(ctx, ANIMC_WARNING, "output-left", path ? path : out->path, OUTSIDE_ADVICE "; left");
		if (copy_output(&copy, out) && !manifest_add_orphan(left, &copy))
			manifest_output_release(&copy);
	} else {
		build_say(ctx, ANIMC_ERROR, path ? path : out->path, "cannot remove: %s; left",
			  strerror(error));
		n->is_stuck = true;
		if (copy_output(&copy, out) && !manifest_add_orphan(left, &copy))
			manifest_output_release(&copy);
	}
	free(path);
}

/* Remove every output the manifest and the journals record; false when
 * out of memory (nothing removed). */
static bool clean_outputs(const build_ctx *ctx, const manifest *m, const manifest *journal, manifest *left,
			  clean_counts *n)
{
	size_t count = 0;
	clean_record *all = clean_records(m, journal, &count);

	if (!all)
		return false;
	for (size_t i = 0, same; i < count; i += same) {
		for (same = 1; i + same < count && strcmp(all[i].out->path, all[i + same].out->path) == 0; same++)
			;
		clean_output(ctx, &all[i], same, left, n);
	}
	free(all);
	return true;
}

/*
 * The manifest after clean: removed, or, when outputs of animc's could not
 * be removed, rewritten to record those alone.  Without it they would be
 * no one's: a later clean (the folder writable again) finds nothing to
 * remove.  True when a manifest stays.
 */
static bool settle_manifest(const build_ctx *ctx, const char *manifest_path, const manifest *left,
			    clean_counts *n)
{
	cli_error err;

	if (left->orphan_count) {
		if (!build_manifest_save_as(ctx, left, manifest_path, NULL, &err)) {
			build_say(ctx, ANIMC_ERROR, manifest_path, "%s; the manifest is kept as it was",
				  err.message);
			n->keeps_journals = true;
		}
		return true;
	}
	const char *name;
	int at = build_state_at(ctx, manifest_path, &name);

	if (unlinkat(at, name, 0) == 0 || errno == ENOENT)
		return false;
	build_say(ctx, ANIMC_ERROR, manifest_path, "cannot remove: %s", strerror(errno));
	n->is_stuck = true;
	return true;
}

/* Whether `name`, in OUTDIR/.animc, is a state file of builds: a lock,
 * the marker of a run. */
static bool is_state_file(const char *name)
{
	return strcmp(name, "lock") == 0 || strcmp(name, "manifest.lock") == 0 || strncmp(name, "running.", 8) == 0;
}

/* Remove the state file `name` of OUTDIR/.animc; one that cannot be is
 * said, and left: true. */
static bool remove_own(const build_ctx *ctx, int dir_fd, const char *dir_path, const char *name)
{
	char *path;
	int error;

	if (unlinkat(dir_fd, name, 0) == 0 || errno == ENOENT)
		return false;
	error = errno;
	path = cli_path_join(dir_path, name, NULL);
	build_say_kind(ctx, ANIMC_WARNING, "output-left", path ? path : dir_path, "cannot remove: %s; left",
		       strerror(error));
	free(path);
	return true;
}

/* A new descriptor of the state folder at dir_path, as the run opened it
 * (or opened now without following a link); -1 when it cannot be. */
static int state_dir_open(const build_ctx *ctx, const char *dir_path)
{
	return ctx->has_state_dir ? openat(ctx->state_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
	       : open(dir_path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

/* The state folder holds what animc did not write (an editor's
 * manifest~, an NFS .nfsXXXX of a file held open), which clean leaves as
 * it leaves every file it did not write: name it.  False when it cannot
 * tell what is there. */
static bool say_foreign_state(const build_ctx *ctx, const char *dir_path)
{
	int fd = state_dir_open(ctx, dir_path);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	char first[256] = "";
	size_t count = 0;

	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 && !is_state_file(e->d_name) &&
		    strncmp(e->d_name, JOURNAL_PREFIX, strlen(JOURNAL_PREFIX)) != 0 && count++ == 0)
			snprintf(first, sizeof first, "%s", e->d_name);
	if (d)
		closedir(d);
	else if (fd >= 0)
		close(fd);
	if (count)
		build_say_kind(ctx, ANIMC_WARNING, "output-left", dir_path, "not removed: it holds '%s'%s, which animc "
			       "did not write; remove it by hand", first, count > 1 ? " and more" : "");
	return count > 0;
}

/* The state files of builds (locks, markers of runs), and their folder;
 * nothing through a link put in its place (opened without following one).
 * `own_left`: a journal could not be removed (said). */
static void remove_state(const build_ctx *ctx, const char *dir_path, bool own_left, clean_counts *n)
{
	int fd = state_dir_open(ctx, dir_path);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;

	if (fd >= 0 && !d)
		close(fd);
	while (d && (e = readdir(d)))
		if (is_state_file(e->d_name) && remove_own(ctx, fd, dir_path, e->d_name))
			own_left = true;
	if (d)
		closedir(d);
	n->is_stuck |= own_left;
	if (rmdir(dir_path) != 0 && errno != ENOENT) {
		int error = errno;
		bool is_full = error == ENOTEMPTY || error == EEXIST;
		struct stat st;

		if (lstat(dir_path, &st) == 0 && S_ISLNK(st.st_mode))
			build_say_kind(ctx, ANIMC_WARNING, "output-left", dir_path, "is a symbolic link, not the folder "
				       "animc makes; left, with nothing removed through it: remove it by hand");
		else if (is_full && say_foreign_state(ctx, dir_path) && !own_left)
			return;   /* a file of someone else's, left as every such file is */
		else if (!is_full || !own_left)
			build_say_kind(ctx, ANIMC_WARNING, "output-left", dir_path, "not removed: %s", strerror(error));
		n->is_stuck = true;
	}
}

/* unlink() of the state file at `path`, in the state folder as the run
 * opened it. */
static int unlink_state_file(const build_ctx *ctx, const char *path)
{
	const char *name;
	int at = build_state_at(ctx, path, &name);

	return unlinkat(at, name, 0);
}

/* The journals clean read: each one it cannot remove is said, and left
 * (true when one is). */
static bool remove_journals(const build_ctx *ctx, const cli_strings *files, clean_counts *n)
{
	bool left = false;

	for (size_t i = 0; i < files->count; i++)
		if (unlink_state_file(ctx, files->items[i]) != 0 && errno != ENOENT) {
			build_say_kind(ctx, ANIMC_WARNING, "output-left", files->items[i], "cannot remove: %s; left",
				       strerror(errno));
			left = true;
		}
	n->is_stuck |= left;
	return left;
}

int build_clean(build_ctx *ctx)
{
	const build_options *o = ctx->options;
	char *manifest_path = cli_path_join(o->out_dir, MANIFEST_FILE, NULL);
	char *dir_path = cli_path_join(o->out_dir, MANIFEST_DIR, NULL);
	clean_counts n = { 0 };
	sweep_counts swept = { 0, 0 };
	cli_error err;
	manifest m, left = { 0 }, journal = { 0 };
	cli_strings journals = { 0 }, others = { 0 }, unread = { 0 };
	int status = ANIMC_EXIT_FAILED;

	if (!manifest_path || !dir_path)
		goto out;
	switch (build_manifest_load(ctx, &m, manifest_path, false, &err)) {
	case MANIFEST_LOADED:
		break;
	case MANIFEST_ABSENT:
		/* A build killed before it saved one: its temporary files and
		 * its state are still animc's to remove. */
		memset(&m, 0, sizeof m);
		break;
	case MANIFEST_OTHER_VERSION:
		build_say(ctx, ANIMC_ERROR, manifest_path, "%s, whose outputs this one does not know: nothing removed; "
			  "clean with the animc that wrote it, or remove the file", err.message);
		goto out;
	default:
		build_say(ctx, ANIMC_ERROR, manifest_path, "the manifest cannot be read (%s); nothing removed",
			  err.message);
		goto out;
	}
	/* What builds killed before their manifest recorded it wrote.  One
	 * of another animc's journals names outputs this one cannot read, as
	 * a manifest of another version does, and so does one that cannot be
	 * read: nothing is removed. */
	if (!build_journal_read_all(ctx, o->out_dir, &journal, &journals, &others, &unread) ||
	    (!others.count && !unread.count && !clean_outputs(ctx, &m, &journal, &left, &n))) {
		build_say(ctx, ANIMC_ERROR, o->out_dir, "out of memory; nothing removed");
		manifest_release(&m);
		goto out;
	}
	if (others.count) {
		build_say(ctx, ANIMC_ERROR, others.items[0], "another animc's journal, naming outputs this one cannot "
			  "read; nothing removed: clean with the animc that wrote it, or remove the file");
		manifest_release(&m);
		goto out;
	}
	if (unread.count) {
		build_say(ctx, ANIMC_ERROR, unread.items[0], "cannot be read, and the outputs it names would be "
			  "known to no one; nothing removed: clean again once it can be read");
		manifest_release(&m);
		goto out;
	}
	left.options = m.options;
	manifest_release(&m);
	sweep(ctx, AT_FDCWD, NULL, o->out_dir, 0, &swept);
	n.temps = swept.removed;
	n.left += swept.left;
	n.is_stuck |= swept.left > 0;
	bool keeps_manifest = settle_manifest(ctx, manifest_path, &left, &n);
	bool journal_left = !n.keeps_journals && remove_journals(ctx, &journals, &n);
	if (!keeps_manifest)
		remove_state(ctx, dir_path, journal_left, &n);
	if (!o->quiet)
		printf("removed %u output%s, %u temporary file%s; %u left\n", n.removed, n.removed == 1 ? "" : "s",
		       n.temps, n.temps == 1 ? "" : "s", n.left);
	status = n.is_stuck ? ANIMC_EXIT_FAILED : ANIMC_EXIT_OK;
out:
	manifest_release(&left);
	manifest_release(&journal);
	cli_strings_release(&journals);
	cli_strings_release(&others);
	cli_strings_release(&unread);
	free(manifest_path);
	free(dir_path);
	return status;
}
