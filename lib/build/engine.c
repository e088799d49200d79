/*
 * engine.c - runs `animc build`, `animc outputs` and `animc clean` once
 * their options are parsed: takes the lock on OUTDIR, reads the manifest,
 * and runs the stages of engine.h (plan, compile, commit in job order,
 * report).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"
#include "isolate.h"

static volatile int stop_signal;

void *(*build_run_realloc)(void *ptr, size_t size) = realloc;

void build_run_fail(build_ctx *ctx, const char *what)
{
	if (!ctx->run_failure)
		ctx->run_failure = what;
}

void build_run_out_of_memory(build_ctx *ctx, const char *what)
{
	if (ctx->run_failure)
		return;
	ctx->run_failure = what;
	ctx->is_out_of_memory = true;
}

static void on_stop(int sig)
{
	stop_signal = sig;
}

typedef struct run_state {
	build_ctx *ctx;
	const build_engine_deps *deps;
	build_commit commit;
	build_status_sink own_status;
	build_status_sink *status;  /* own_status, or the caller's */
	char *manifest_path;
	char *running;              /* OUTDIR/.animc/running.<pid>.<token> */
	bool marked_running;        /* made by this run, removed at its end */
	bool had_out_dir, had_state_dir;   /* OUTDIR and OUTDIR/.animc before the run */
	double last_save_s;
	int stop_with;              /* the signal that stopped the run; 0: none */
} run_state;

/* Save what is known so far: the jobs committed, and for the others what
 * the last run recorded (still true: nothing of theirs was written yet).
 * A build killed after this rebuilds only what it had not committed.  The
 * manifest saved records every output the journal named: it is emptied. */
static void save_checkpoint(run_state *rs)
{
	build_ctx *ctx = rs->ctx;
	manifest view = rs->commit.next;
	manifest_entry *entries;
	size_t n = rs->commit.next.count;
	char *data;
	cli_error err;
	size_t size;

	entries = malloc((rs->commit.next.count + ctx->old.count + 1) * sizeof *entries);
	if (!entries)
		return;
	if (n)
		memcpy(entries, rs->commit.next.entries, n * sizeof *entries);
	/* An output of a source committed now that it no longer writes (a
	 * clip it lost) stays recorded as an orphan, as the end of the run
	 * would keep it: stale, and --prune or clean removes it. */
	size_t lost = ctx->old.orphan_count;
	for (size_t i = 0; i < ctx->old.count; i++)
		lost += ctx->old.entries[i].output_count;
	manifest_output *orphans = malloc((lost ? lost : 1) * sizeof *orphans);
	if (!orphans) {
		free(entries);
		return;
	}
	if (ctx->old.orphan_count)
		memcpy(orphans, ctx->old.orphans, ctx->old.orphan_count * sizeof *orphans);
	lost = ctx->old.orphan_count;
	for (size_t i = 0; i < ctx->old.count; i++) {
		const manifest_entry *e = &ctx->old.entries[i];

		if (!manifest_find_output(&rs->commit.next, e->source, e->out_base)) {
			entries[n++] = *e;
			continue;
		}
		for (uint32_t k = 0; k < e->output_count; k++)
			if (!build_commit_claims(&rs->commit, e->outputs[k].path))
				orphans[lost++] = e->outputs[k];
	}
	view.entries = entries;
	view.count = n;
	view.carries = NULL;   /* entries holds them */
	view.orphans = orphans;
	view.orphan_count = lost;
	(void)data, (void)size;
	view.index = NULL;
	view.index_size = 0;
	view.base_index = NULL;
	view.base_index_size = 0;
	view.loaded_hash_known = false;
	/* Found by source when merging with a build running beside this one. */
	{
		manifest lookup = { 0 };

		for (size_t i = 0; i < n && lookup.count == i; i++)
			if (!manifest_add(&lookup, &entries[i]))
				break;
		if (lookup.count == n) {
			view.index = lookup.index;
			view.index_size = lookup.index_size;
		}
		if (build_manifest_save(ctx, &view, &rs->commit.pruned_sources, rs->manifest_path, &err))
			build_journal_clear(&rs->commit.journal);
		free(lookup.entries);
		free(lookup.index);
	}
	free(orphans);
	free(entries);
}

/* Commit every job that is done, in order, telling the status as each goes. */
static void commit_ready(run_state *rs)
{
	build_plan *plan = &rs->ctx->plan;

	/* A run that cannot go on commits nothing more. */
	while (!rs->ctx->run_failure && rs->commit.committed < plan->count && plan->jobs[rs->commit.committed].is_done) {
		size_t i = rs->commit.committed;

		build_commit_job(&rs->commit, i);
		rs->status->ops->job_committed(rs->status, i);
	}
	if (rs->ctx->command == CMD_BUILD && rs->commit.committed && build_now_s() - rs->last_save_s > 2.0) {
		save_checkpoint(rs);
		rs->last_save_s = build_now_s();
	}
}

static void hook_done(void *user, size_t job)
{
	run_state *rs = user;

	/* Before commit renames its staged outputs. */
	build_cache_store(rs->ctx, job);
	rs->status->ops->job_done(rs->status, job);
	commit_ready(rs);
}

static void hook_tick(void *user)
{
	run_state *rs = user;

	rs->status->ops->tick(rs->status);
}

int build_state_at(const build_ctx *ctx, const char *path, const char **name)
{
	if (ctx && ctx->has_state_dir) {
		*name = cli_basename(path);
		return ctx->state_fd;
	}
	*name = path;
	return AT_FDCWD;
}

/* unlink() of the state file `path`, through the state folder's descriptor. */
static int unlink_state(const build_ctx *ctx, const char *path)
{
	const char *name;
	int at = build_state_at(ctx, path, &name);

	return unlinkat(at, name, 0);
}

static bool is_same_inode(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* Are the lock open at fd and the folder open at state_fd still those at
 * `dir` (OUTDIR/.animc) and in it?  A clean that held the lock while this
 * run waited for it removed the file (and .animc with it), and a later
 * build may have made another: a lock on the old one shuts out neither. */
static bool is_in_place(int state_fd, const char *dir, int fd)
{
	struct stat held, named, opened, there;

	return fstat(fd, &held) == 0 && fstatat(state_fd, "lock", &named, AT_SYMLINK_NOFOLLOW) == 0 &&
	       is_same_inode(&held, &named) && fstat(state_fd, &opened) == 0 &&
	       fstatat(AT_FDCWD, dir, &there, AT_SYMLINK_NOFOLLOW) == 0 && is_same_inode(&opened, &there);
}

/* OUTDIR/.animc, made when missing and opened without following a
 * symbolic link in its place: its descriptor, or -1, said, or with *again
 * when a link that was there as it was opened is gone (to open again). */
static int open_state_dir(const build_ctx *ctx, const char *dir, bool for_clean, bool *again)
{
	cli_error err;
	struct stat st;
	int fd, error;

	*again = false;
	if (!cli_mkdir_p(dir, &err)) {
		build_say(ctx, ANIMC_ERROR, dir, "%s", err.message);
		return -1;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0)
		return fd;
	error = errno;
	bool is_there = fstatat(AT_FDCWD, dir, &st, AT_SYMLINK_NOFOLLOW) == 0;

	if ((error == ELOOP || error == ENOTDIR) && is_there && S_ISDIR(st.st_mode))
		*again = true;
	else if (is_there && S_ISLNK(st.st_mode))
		build_say(ctx, ANIMC_ERROR, dir, "is a symbolic link, not the folder animc makes: nothing %s, and "
			  "nothing made, read or removed through it; remove the link by hand",
			  for_clean ? "cleaned" : "built");
	else
		build_say(ctx, ANIMC_ERROR, dir, "cannot open: %s", strerror(error));
	return -1;
}

/* `text` with its control characters as '?', to be said on one line. */
static void printable(char *text)
{
	for (char *c = text; *c; c++)
		*c = (unsigned char)*c < ' ' || *c == 0x7f ? '?' : *c;
}

/* The command line of process `pid` (0: this one), its arguments joined
 * by spaces, cut to `size`, its control characters as '?' (an argument
 * holding a newline broke the line naming a lock's holder, and the holder's
 * own line, written cut at it, no longer named it); empty when it cannot
 * be read. */
static void read_command(long pid, char *comm, size_t size)
{
	char name[64];
	FILE *f;

	comm[0] = '\0';
	if (pid)
		snprintf(name, sizeof name, "/proc/%ld/cmdline", pid);
	f = fopen(pid ? name : "/proc/self/cmdline", "re");
	if (f) {
		size_t n = fread(comm, 1, size - 1, f);

		for (size_t i = 0; i + 1 < n; i++)
			comm[i] = comm[i] ? comm[i] : ' ';
		comm[n] = '\0';
		fclose(f);
		printable(comm);
	}
}

/* The process holding a lock on the file open at fd (alone, or `shared`
 * too) that /proc/locks lists first, and into *count how many hold one;
 * 0 when it cannot tell (another PID namespace, no /proc, a holder that
 * let go meanwhile). */
static long lock_holder_pid(int fd, bool shared, unsigned *count)
{
	struct stat st;
	FILE *locks = fstat(fd, &st) == 0 ? fopen("/proc/locks", "re") : NULL;
	char line[256], want[64];
	long pid = 0;

	*count = 0;
	if (!locks)
		return 0;
	snprintf(want, sizeof want, " %02x:%02x:%llu ", major(st.st_dev), minor(st.st_dev),
		 (unsigned long long)st.st_ino);
	while (fgets(line, sizeof line, locks)) {
		const char *alone = strstr(line, " WRITE "), *with = shared ? strstr(line, " READ ") : NULL;
		const char *after = alone ? alone + 7 : with ? with + 6 : NULL;

		if (!after || !strstr(line, want) || strstr(line, "->"))
			continue;
		long holder = strtol(after, NULL, 10);
		if (holder <= 0)
			continue;
		*count += 1;
		pid = pid ? pid : holder;
	}
	fclose(locks);
	return pid;
}

/* "process N (command)" of process `pid` into `who`. */
static void name_process(long pid, char *who, size_t size)
{
	char comm[64];

	read_command(pid, comm, sizeof comm);
	snprintf(who, size, comm[0] ? "process %ld (%s)" : "process %ld", pid, comm);
}

void build_lock_holder(int fd, char *who, size_t size)
{
	unsigned count;
	long pid = lock_holder_pid(fd, false, &count);

	who[0] = '\0';
	if (pid > 0)
		name_process(pid, who, size);
}

/* Whether the holder's line `line` names a process that runs now with the
 * command it wrote: one killed before it took its line out is gone, or
 * its number taken by another process (a waiter would name it while
 * another holds the lock, an animc that writes no line).  With no /proc
 * to tell, the line is taken, as the one thing that names the holder. */
static bool names_a_running_holder(const char *line)
{
	char comm[64], now[128];
	long pid = strncmp(line, "process ", 8) == 0 ? strtol(line + 8, NULL, 10) : 0;

	if (pid <= 0)
		return false;
	read_command(pid, comm, sizeof comm);
	if (!comm[0]) {
		/* None read: with no /proc to ask (this process's own command
		 * unread too), the line is all there is to name the holder by. */
		read_command(0, comm, sizeof comm);
		return !comm[0];
	}
	snprintf(now, sizeof now, "process %ld (%s)", pid, comm);
	return strcmp(line, now) == 0;
}

/* Who holds the lock alone, as the holder wrote it in the file (lock_alone):
 * what /proc/locks cannot tell (no /proc to read it from, a holder that let
 * go meanwhile).  Empty when it holds no such line, or one of a process
 * not running it now (names_a_running_holder; nor one of another PID
 * namespace, whose number means another process here). */
static void lock_holder_written(int fd, char *who, size_t size)
{
	char line[128];
	ssize_t n = pread(fd, line, sizeof line - 1, 0);

	who[0] = '\0';
	if (n <= 0)
		return;
	line[n] = '\0';
	line[strcspn(line, "\n")] = '\0';
	printable(line);
	if (names_a_running_holder(line))
		snprintf(who, size, "%s", line);
}

/* Take the lock at fd shared, waiting for the one who holds it alone (a
 * clean, or a build removing what killed runs left), said on stderr, -q
 * or not, once a run (*said): a run that seems to hang says why.  One who
 * let go as it was looked up is not waited for, nor said.  A stop signal
 * ends the wait: false. */
static bool wait_for_lock(const build_ctx *ctx, int fd, const char *path, bool *said)
{
	char who[128];

	if (flock(fd, LOCK_SH | LOCK_NB) == 0)
		return true;
	build_lock_holder(fd, who, sizeof who);
	if (!who[0])
		lock_holder_written(fd, who, sizeof who);
	if (flock(fd, LOCK_SH | LOCK_NB) == 0)
		return true;
	if (!*said)
		fprintf(stderr, "animc: waiting for '%s', locked by %s: a clean or another build of this folder\n",
			path, who[0] ? who : "another process");
	fflush(stderr);
	*said = true;
	while (flock(fd, LOCK_SH) != 0)
		if (errno != EINTR || *ctx->stop_signal)
			return false;
	return true;
}

/* Take the lock at fd alone, not waiting: 0, EWOULDBLOCK when another
 * holds it, or the errno of a file system that cannot lock files (ENOLCK
 * on an NFS mount whose lock daemon is not reachable, EOPNOTSUPP...).
 * Taken, this process writes into it who it is ("process N (command)"),
 * for a run that waits for it to name it. */
static int lock_alone(int fd)
{
	char comm[64], line[128];
	int n;

	if (flock(fd, LOCK_EX | LOCK_NB) != 0)
		return errno == EAGAIN ? EWOULDBLOCK : errno;
	read_command(0, comm, sizeof comm);
	if (!comm[0]) {
		snprintf(comm, sizeof comm, "%s", program_invocation_short_name);
		printable(comm);
	}
	n = snprintf(line, sizeof line, "process %ld (%s)\n", (long)getpid(), comm);
	if (n > 0 && ftruncate(fd, 0) == 0 && pwrite(fd, line, (size_t)n, 0) < 0)
		(void)ftruncate(fd, 0);
	return 0;
}

/* Let go of the lock held alone (lock_alone), keeping it shared; and of
 * the line naming this process in it: a waiter that cannot tell the holder
 * from /proc/locks reads that line, which would name this process while
 * another holds the lock alone (an animc that writes none), or once it
 * has ended. */
static void lock_share(int fd)
{
	flock(fd, LOCK_SH);
	(void)ftruncate(fd, 0);
}

/* Close the lock; held alone with this process's line in it (a clean, or
 * a build that ended before it let go), the line goes first. */
static void lock_close(int fd)
{
	struct stat st;

	if (fstat(fd, &st) == 0 && st.st_size > 0 && flock(fd, LOCK_EX | LOCK_NB) == 0)
		(void)ftruncate(fd, 0);
	close(fd);
}

/* The lock could not be opened.  A symbolic link in its place is not
 * followed: the file at its far end, made or locked, would lie outside
 * OUTDIR. */
static void say_lock_unopened(const build_ctx *ctx, int state_fd, const char *path, bool for_clean)
{
	struct stat st;

	if (errno == ELOOP && fstatat(state_fd, "lock", &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
		build_say(ctx, ANIMC_ERROR, path, "is a symbolic link, not the lock animc makes: nothing %s, and "
			  "nothing made or locked through it; remove the link by hand", for_clean ? "cleaned" : "built");
	else
		build_say(ctx, ANIMC_ERROR, path, "cannot open: %s", strerror(errno));
}

/* A clean refused: the lock at fd is held, said with who holds it, as a
 * build waiting for it says (every build holds it shared, so /proc/locks
 * lists them; else the line of one holding it alone). */
static void say_build_writing(const build_ctx *ctx, const char *out_dir, int fd)
{
	char who[160] = "";
	unsigned count;
	long pid = lock_holder_pid(fd, true, &count);

	if (pid > 0)
		name_process(pid, who, sizeof who);
	else
		lock_holder_written(fd, who, sizeof who);
	if (count > 1)
		build_say(ctx, ANIMC_ERROR, out_dir, "%u builds are writing this folder (%s and %u more); clean it when "
			  "they end", count, who, count - 1);
	else
		build_say(ctx, ANIMC_ERROR, out_dir, "a build is writing this folder%s%s%s; clean it when it ends",
			  who[0] ? " (" : "", who, who[0] ? ")" : "");
}

/*
 * OUTDIR/.animc/lock: every build holds it shared for its whole run, so
 * builds (per-file make and ninja rules) run side by side; `clean` needs it
 * alone, and so does removing what killed runs left (a build that finds
 * itself alone does that first).  Each build marks itself running with
 * .animc/running.<pid>.<token> until it ends cleanly.  A lock taken on a
 * file no longer at its path (a clean removed it meanwhile) is let go,
 * and the folder and the lock are made and taken again.  Returns the descriptor,
 * or -1 (said); *alone says whether no other build runs.
 */
static int take_lock(const build_ctx *ctx, const char *out_dir, bool for_clean, bool *alone, int *state_fd)
{
	char *dir = cli_path_join(out_dir, MANIFEST_DIR, NULL);
	char *path = cli_path_join(out_dir, MANIFEST_DIR "/lock", NULL);
	bool is_said = false, again, said_wait = false;
	int fd = -1, held;

	*state_fd = -1;
	for (int tries = 0; tries < 100 && !is_said && fd < 0; tries++) {
		*alone = false;
		is_said = true;
		if (*state_fd >= 0)
			close(*state_fd);
		if (!dir || !path) {
			*state_fd = -1;
			build_say(ctx, ANIMC_ERROR, out_dir, "out of memory");
		} else if ((*state_fd = open_state_dir(ctx, dir, for_clean, &again)) < 0) {
			is_said = !again;
		} else if ((fd = openat(*state_fd, "lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666)) < 0) {
			say_lock_unopened(ctx, *state_fd, path, for_clean);
		} else if ((held = lock_alone(fd)) != 0 && held != EWOULDBLOCK) {
			build_say(ctx, ANIMC_ERROR, path, "cannot lock: %s: the output folder's file system cannot lock "
				  "files, and builds and clean of one folder need the lock to keep apart; build into "
				  "a folder on another file system", strerror(held));
			close(fd);
			fd = -1;
		} else if (for_clean && held) {
			say_build_writing(ctx, out_dir, fd);
			close(fd);
			fd = -1;
		} else {
			is_said = false;
			*alone = !held;
			if (!*alone && !wait_for_lock(ctx, fd, path, &said_wait)) {
				close(fd);   /* stopped: said by the caller */
				fd = -1;
				is_said = true;
				break;
			}
			if (!is_in_place(*state_fd, dir, fd)) {
				close(fd);
				fd = -1;
			}
		}
	}
	if (fd < 0 && !is_said)
		build_say(ctx, ANIMC_ERROR, path, "cannot take the lock: the file was removed each time it was taken "
			  "(by animc clean, run again and again?)");
	if (fd < 0 && *state_fd >= 0) {
		close(*state_fd);
		*state_fd = -1;
	}
	free(dir);
	free(path);
	return fd;
}

/* take_lock into ctx: the lock and the state folder's descriptor. */
static bool take_ctx_lock(build_ctx *ctx, const char *out_dir, bool for_clean, bool *alone)
{
	ctx->lock_fd = take_lock(ctx, out_dir, for_clean, alone, &ctx->state_fd);
	ctx->has_state_dir = ctx->lock_fd >= 0;
	return ctx->has_state_dir;
}

/* With the lock alone: the markers of runs that did not end cleanly mean
 * temporary files may be left; remove those and the markers. */
static void sweep_if_interrupted(const build_ctx *ctx, const char *out_dir, bool verbose,
				 build_status_sink *status)
{
	int fd = openat(ctx->state_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	bool any = false;

	if (fd >= 0 && !d)
		close(fd);
	while (d && (e = readdir(d)))
		if (strncmp(e->d_name, "running", 7) == 0) {
			unlinkat(ctx->state_fd, e->d_name, 0);
			any = true;
		}
	if (d)
		closedir(d);
	if (any) {
		unsigned swept = build_sweep_temps(out_dir);
		char line[96];

		if (swept && verbose) {
			snprintf(line, sizeof line, "removed %u temporary file%s of an interrupted build", swept,
				 swept == 1 ? "" : "s");
			status->ops->note(status, line);
		}
	}
}

/* Sweep after this run's own losses (a worker killed mid-write), when no
 * other build runs; otherwise leave the marker for the next one alone. */
static bool sweep_own(int lock_fd, const char *out_dir)
{
	if (lock_fd < 0 || lock_alone(lock_fd) != 0)
		return false;
	build_sweep_temps(out_dir);
	lock_share(lock_fd);
	return true;
}

/* The manifest is read and parsed on a thread of its own while the plan
 * walks the inputs: neither needs the other until the check. */
typedef struct manifest_loader {
	const build_ctx *ctx;
	manifest *m;
	const char *path;
	manifest_load_status status;
	cli_error err;
	pthread_t thread;
	bool is_threaded, is_lazy;
} manifest_loader;

static void *load_manifest(void *arg)
{
	manifest_loader *l = arg;

	l->status = build_manifest_load(l->ctx, l->m, l->path, l->is_lazy, &l->err);
	return NULL;
}

static void manifest_loader_start(manifest_loader *l, const build_ctx *ctx, manifest *m, const char *path)
{
	l->ctx = ctx;
	l->m = m;
	l->path = path;
	l->is_threaded = pthread_create(&l->thread, NULL, load_manifest, l) == 0;
	if (!l->is_threaded)
		load_manifest(l);
}

static manifest_load_status manifest_loader_finish(manifest_loader *l)
{
	if (l->is_threaded)
		pthread_join(l->thread, NULL);
	l->is_threaded = false;
	return l->status;
}

static void options_key(const build_options *o, build_hash *out)
{
	XXH3_state_t *state = XXH3_createState();

	memset(out, 0, sizeof *out);
	if (!state)
		return;
	XXH3_128bits_reset(state);
	build_key_options(o, build_key_emit_xxh3, state);
	build_hash_from_state(state, out);
	XXH3_freeState(state);
}

/* The --skeleton model's state and hash (the manifest's, when the file is
 * unchanged).  False (said) when it cannot be read. */
static bool skeleton_state(build_ctx *ctx)
{
	const char *path = ctx->options->skeleton_path;
	struct stat st;
	cli_error err;

	ctx->skeleton.path = strdup(path);
	if (!ctx->skeleton.path || stat(path, &st) != 0) {
		build_say(ctx, ANIMC_ERROR, path, "cannot open: %s", strerror(errno));
		return false;
	}
	build_source_state_from(&st, &ctx->skeleton.state);
	if (ctx->has_old && ctx->old.has_skeleton && strcmp(ctx->old.skeleton.path, path) == 0 &&
	    build_file_state_equal(&ctx->old.skeleton.state, &ctx->skeleton.state)) {
		ctx->skeleton.hash = ctx->old.skeleton.hash;
	} else if (!cli_read_file(path, &ctx->skeleton_bytes, &ctx->skeleton_size, &err)) {
		build_say(ctx, ANIMC_ERROR, path, "%s", err.message);
		return false;
	} else {
		ctx->has_skeleton_bytes = true;
		build_hash_bytes(ctx->skeleton_bytes, ctx->skeleton_size, &ctx->skeleton.hash);
	}
	build_file_state_distrust_recent(&ctx->skeleton.state);
	ctx->has_skeleton_state = true;
	return true;
}

/* What loading the model says, printed; its errors kept for the reports
 * too, which a build that stops on them still writes. */
static void skeleton_diag(void *user, const animc_diag *d)
{
	build_ctx *ctx = user;

	if (d->severity == ANIMC_WARNING && ctx->status) {
		build_say_at_kind(ctx, d->severity, d->kind, d->path, d->line, "%s", d->message);
		return;
	}
	cli_print_diag(&ctx->printer, d);
	if (d->severity == ANIMC_ERROR && ctx->status)
		build_said_add(&ctx->status->said, d->severity, NULL, d->path, d->line, d->message);
}

/* The project's files as dependencies of its items, each read and hashed
 * here once rather than by every item's compile.  One that cannot be read
 * now is left for the compiles, which read it themselves. */
void build_take_project_deps(build_ctx *ctx)
{
	const build_options *o = ctx->options;

	if (!o->has_project || !o->project.file_count ||
	    !(ctx->project_deps = calloc(o->project.file_count, sizeof *ctx->project_deps)))
		return;
	for (size_t i = 0; i < o->project.file_count; i++) {
		build_dep *d = &ctx->project_deps[ctx->project_dep_count];
		struct stat st;
		cli_error err;

		if (stat(o->project.files[i], &st) != 0 || !build_hash_file(o->project.files[i], &d->hash, &err) ||
		    !(d->path = strdup(o->project.files[i])))
			continue;
		build_source_state_from(&st, &d->state);
		build_file_state_distrust_recent(&d->state);
		ctx->project_dep_count++;
	}
}

const build_dep *build_project_dep(const build_ctx *ctx, const char *path)
{
	for (size_t i = 0; i < ctx->project_dep_count; i++)
		if (strcmp(ctx->project_deps[i].path, path) == 0)
			return &ctx->project_deps[i];
	return NULL;
}

static void collect_skeleton_read(void *user, const char *path)
{
	cli_strings_push(&((build_ctx *)user)->skeleton_reads, path);
}

static void collect_skeleton_absent(void *user, const char *path)
{
	cli_strings_push(&((build_ctx *)user)->skeleton_absent, path);
}

/* Most of what loading the model may print that is kept, and its lines. */
#define MODEL_OUTPUT_BYTES 16384
#define MODEL_OUTPUT_LINES 20

/* Each line of `text` as a warning about the model, as a worker says what
 * a source's importer printed. */
static void say_model_output(const char *text, size_t size, animc_diag_sink *sink)
{
	unsigned lines = 0;

	for (size_t at = 0; at < size && lines < MODEL_OUTPUT_LINES;) {
		const char *nl = memchr(text + at, '\n', size - at);
		size_t len = nl ? (size_t)(nl - (text + at)) : size - at;
		size_t next = at + len + (nl != NULL);

		while (len && (text[at + len - 1] == '\r' || text[at + len - 1] == ' '))
			len--;
		if (len && lines++ < MODEL_OUTPUT_LINES)
			animc_diag_report_kind(sink, ANIMC_WARNING, ANIMC_WARN_IMPORTER_OUTPUT, 0, 0,
					       "the importer printed: %.*s", (int)(len > 1000 ? 1000 : len), text + at);
		at = next;
	}
}

/* Diagnostics held while the standard output and error are taken. */
typedef struct held_diags {
	animc_diag *items;
	size_t count;
} held_diags;

static void hold_diag(void *user, const animc_diag *d)
{
	held_diags *h = user;
	animc_diag *grown = realloc(h->items, (h->count + 1) * sizeof *grown);

	if (!grown)
		return;
	h->items = grown;
	grown[h->count] = *d;
	grown[h->count].path = d->path ? strdup(d->path) : NULL;
	grown[h->count].message = strdup(d->message ? d->message : "");
	if (grown[h->count].message)
		h->count++;
}

/* Say the held diagnostics to `sink`, and release them. */
static void say_held(held_diags *h, animc_diag_sink *sink)
{
	for (size_t i = 0; i < h->count; i++) {
		sink->error_count += h->items[i].severity == ANIMC_ERROR;
		sink->warning_count += h->items[i].severity == ANIMC_WARNING;
		if (sink->fn)
			sink->fn(sink->user, &h->items[i]);
		free((char *)(uintptr_t)h->items[i].path);
		free((char *)(uintptr_t)h->items[i].message);
	}
	free(h->items);
}

/* Load the --skeleton model from its bytes, `model`.  What its reader
 * prints (Assimp writes some complaints to the standard output) is taken
 * and said as warnings about the model, never a raw line on the output
 * that --report - uses.  Taken in memory, as the workers take theirs: a
 * tmpfile() needs /tmp, and where it was read-only or full the lines went
 * out raw, and no warning said them. */
static animc_status load_model(build_ctx *ctx, const uint8_t *model, size_t model_size,
			       const animc_import_options *hooks, animc_diag_sink *sink)
{
	int capture = memfd_create("animc-model-output", MFD_CLOEXEC);
	int saved[2] = { dup(STDOUT_FILENO), dup(STDERR_FILENO) };
	bool is_captured = capture >= 0 && saved[0] >= 0 && saved[1] >= 0;
	char *text = NULL;
	ssize_t n = 0;
	animc_status status;
	held_diags held = { NULL, 0 };
	/* Said once the output is back, not into the capture. */
	animc_diag_sink holding = { hold_diag, &held, sink->path, 0, 0 };

	fflush(stdout);
	fflush(stderr);
	if (is_captured)
		is_captured = dup2(capture, STDOUT_FILENO) >= 0 && dup2(capture, STDERR_FILENO) >= 0;
	status = animc_skeleton_load_bytes(ctx->options->skeleton_path, model, model_size, hooks, &ctx->skeleton_model,
					   &holding);
	fflush(stdout);
	fflush(stderr);
	for (int k = 0; k < 2; k++)
		if (saved[k] >= 0) {
			dup2(saved[k], k == 0 ? STDOUT_FILENO : STDERR_FILENO);
			close(saved[k]);
		}
	say_held(&held, sink);
	if (is_captured && (text = malloc(MODEL_OUTPUT_BYTES)))
		n = pread(capture, text, MODEL_OUTPUT_BYTES, 0);
	if (n > 0)
		say_model_output(text, (size_t)n, sink);
	free(text);
	if (capture >= 0)
		close(capture);
	return status;
}

/* The model's import ends, tried in a child first where the sources' would
 * run in workers: a model that crashes Assimp fails the run, said, instead
 * of ending animc. */
static bool model_loads_alone(build_ctx *ctx, const uint8_t *model, size_t model_size)
{
	const build_options *o = ctx->options;
	char *why = NULL;

	if (build_model_loads(o->skeleton_path, model, model_size, o->import_timeout_s,
			      build_memory_cap_of(o->memory_limit_bytes).bytes, &why))
		return true;
	build_say(ctx, ANIMC_ERROR, o->skeleton_path, "%s; nothing built", why ? why : "out of memory");
	free(why);
	return false;
}

/* Before the first compile: the model loaded, the key's shared part hashed. */
static bool prepare_compile(build_ctx *ctx)
{
	const build_options *o = ctx->options;
	uint8_t *model = NULL;
	size_t model_size = 0;
	cli_error err;

	if (o->skeleton_path) {
		animc_diag_sink sink = { skeleton_diag, ctx, o->skeleton_path, 0, 0 };
		animc_import_options hooks = { .on_file_read = collect_skeleton_read,
					       .on_file_missing = collect_skeleton_absent,
					       .on_file_read_user = ctx };

		/* Read once: the bytes hashed, when its state changed. */
		model = ctx->skeleton_bytes;
		model_size = ctx->skeleton_size;
		ctx->skeleton_bytes = NULL;
		if (!ctx->has_skeleton_bytes && !cli_read_file(o->skeleton_path, &model, &model_size, &err)) {
			build_say(ctx, ANIMC_ERROR, o->skeleton_path, "%s", err.message);
			return false;
		}
		ctx->has_skeleton_bytes = false;
		if (!model_loads_alone(ctx, model, model_size) ||
		    load_model(ctx, model, model_size, &hooks, &sink) != ANIMC_OK) {
			free(model);
			return false;
		}
		ctx->skeleton_loaded = true;
		ctx->options->import.skeleton = &ctx->skeleton_model;
		/* The lossy passes measure the error on the model's shell. */
		ctx->options->process.reduce.skeleton = &ctx->skeleton_model;
	}
	build_take_project_deps(ctx);
	ctx->key_prefix = XXH3_createState();
	if (!ctx->key_prefix) {
		free(model);
		return false;
	}
	XXH3_128bits_reset(ctx->key_prefix);
	build_key_prefix(o, model, model_size, build_key_emit_xxh3, ctx->key_prefix);
	if (ctx->command == CMD_BUILD && !build_cache_open(ctx, model, model_size)) {
		free(model);
		return false;
	}
	free(model);
	return true;
}

static void release_ctx(build_ctx *ctx)
{
	build_cache_close(ctx, 0);
	build_plan_release(&ctx->plan);
	cli_strings_release(&ctx->plan_notes);
	cli_strings_release(&ctx->takeovers_said);
	if (ctx->has_old)
		manifest_release(&ctx->old);
	free(ctx->skeleton.path);
	free(ctx->skeleton_bytes);
	for (size_t i = 0; i < ctx->project_dep_count; i++)
		free(ctx->project_deps[i].path);
	free(ctx->project_deps);
	animc_skeleton_release(&ctx->skeleton_model);
	cli_strings_release(&ctx->skeleton_reads);
	cli_strings_release(&ctx->skeleton_absent);
	if (ctx->key_prefix)
		XXH3_freeState(ctx->key_prefix);
	if (ctx->lock_fd >= 0)
		lock_close(ctx->lock_fd);
	if (ctx->has_state_dir)
		close(ctx->state_fd);
	ctx->has_state_dir = false;
}


/* `animc clean`: remove what builds wrote, holding the lock alone.  A
 * folder without OUTDIR/.animc no build has written: it is left as it is
 * (no lock is made in it either). */
static int run_clean(build_ctx *ctx)
{
	const char *out_dir = ctx->options->out_dir;
	char *state = cli_path_join(out_dir, MANIFEST_DIR, NULL);
	struct stat st;
	bool alone, has_state;

	if (!state)
		return ANIMC_EXIT_FAILED;
	has_state = lstat(state, &st) == 0;
	if (has_state && S_ISLNK(st.st_mode)) {
		/* Its manifest, journals and lock would be read and removed
		 * through the link. */
		build_say(ctx, ANIMC_ERROR, state, "is a symbolic link, not the folder animc makes: nothing cleaned, "
			  "and nothing removed through it; remove the link by hand");
		free(state);
		return ANIMC_EXIT_FAILED;
	}
	free(state);
	if (stat(out_dir, &st) != 0) {
		build_say_kind(ctx, ANIMC_WARNING, "nothing-to-clean", out_dir, "no such folder; nothing to clean");
		return ANIMC_EXIT_OK;
	}
	if (!has_state) {
		build_say_kind(ctx, ANIMC_WARNING, "nothing-to-clean", out_dir, "no animc manifest here; nothing to "
			       "clean");
		return ANIMC_EXIT_OK;
	}
	return take_ctx_lock(ctx, out_dir, true, &alone) ? build_clean(ctx) : ANIMC_EXIT_FAILED;
}

/* Before a build plans: the cache (a URL or folder that cannot be used is
 * said before any work), OUTDIR and its lock, what killed runs left, and
 * this run's marker.  False (said) on failure. */
static bool open_out_dir(run_state *rs)
{
	build_ctx *ctx = rs->ctx;
	const build_options *o = ctx->options;
	cli_error err;
	bool alone;
	int fd;

	if (!build_cache_start(ctx))
		return false;
	{
		char *state = cli_path_join(o->out_dir, MANIFEST_DIR, NULL);
		struct stat st;
		bool is_link = state && lstat(state, &st) == 0 && S_ISLNK(st.st_mode);

		rs->had_out_dir = stat(o->out_dir, &st) == 0;
		rs->had_state_dir = !state || stat(state, &st) == 0;
		/* As clean: the manifest --prune removes by, read through a link,
		 * is no proof of what is animc's here. */
		if (is_link)
			build_say(ctx, ANIMC_ERROR, state, "is a symbolic link, not the folder animc makes: nothing "
				  "built, and nothing read or removed through it; remove the link by hand");
		free(state);
		if (is_link)
			return false;
	}
	long gone = build_gone_input_holding_out_dir(o);
	if (gone >= 0) {
		/* Making OUTDIR would make its input again, empty. */
		build_say(ctx, ANIMC_ERROR, o->inputs.items[gone], "cannot open: %s; nothing built, and the output "
			  "folder '%s' inside it is not made", strerror(ENOENT), o->out_dir);
		return false;
	}
	if (!cli_mkdir_p(o->out_dir, &err)) {
		build_say(ctx, ANIMC_ERROR, o->out_dir, "%s", err.message);
		return false;
	}
	if (!take_ctx_lock(ctx, o->out_dir, false, &alone))
		return false;
	if (alone) {
		sweep_if_interrupted(ctx, o->out_dir, o->verbose, rs->status);
		/* Outputs of killed runs their manifest never recorded: known
		 * before the plan reads it. */
		build_journal_fold(ctx, o->out_dir);
		lock_share(ctx->lock_fd);
	}
	const char *marker;
	int at = build_state_at(ctx, rs->running, &marker);

	fd = openat(at, marker, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
	if (fd < 0) {
		/* What a build writes is recorded there (the journal, the
		 * manifest): outputs it could not record would be unknown to
		 * clean and --prune. */
		build_say(ctx, ANIMC_ERROR, rs->running, "cannot create: %s; nothing built (animc records what it "
			  "writes in %s/" MANIFEST_DIR "): make that folder writable, or give another -o",
			  strerror(errno), o->out_dir);
		return false;
	}
	if (fd >= 0)
		close(fd);
	rs->marked_running = fd >= 0;
	return true;
}

/* What every key of this run shares: the options' key and the skeleton's. */
static void make_run_key(build_ctx *ctx)
{
	uint8_t shared[33];

	memcpy(shared, ctx->options_key.bytes, 16);
	memcpy(shared + 16, ctx->skeleton.hash.bytes, 16);
	shared[32] = ctx->options->skeleton_path != NULL;
	build_hash_bytes(shared, sizeof shared, &ctx->run_key);
}

/* A build over another animc's manifest would overwrite the records of
 * the outputs that animc wrote, which no animc would then know (clean and
 * --prune leave them for good): refused, as clean refuses, and the file
 * kept for that animc. */
static bool refuse_other_manifest(build_ctx *ctx, const char *path, const cli_error *err)
{
	build_say(ctx, ANIMC_ERROR, path, "%s, whose outputs this one does not know: nothing built, and the manifest "
		  "is kept; build with the animc that wrote it, build into another folder with -o, or remove the "
		  "file (its outputs are then left to you) to build here anew", err->message);
	return false;
}

/* Whether the manifest is read lazily (manifest_load_lazy): a build given
 * files alone, as a per-file rule is, reads the records of those files
 * and saves the others as they were read, and reports on its files alone
 * (no stale count of sources it was not given).  Not with --prune or a
 * project, whose runs settle every source recorded. */
static bool reads_lazily(const build_ctx *ctx)
{
	const build_options *o = ctx->options;
	struct stat st;

	if (ctx->command != CMD_BUILD || o->prune || o->has_project || !o->inputs.count)
		return false;
	for (size_t i = 0; i < o->inputs.count; i++)
		if (stat(o->inputs.items[i], &st) != 0 || !S_ISREG(st.st_mode))
			return false;
	return true;
}

/* A run of more jobs than this reads a lazily read manifest whole. */
#define LAZY_JOBS_MAX 32

static bool is_listed_leaf(const char *path, void *plan_arg)
{
	const build_plan *plan = plan_arg;
	const char *leaf = cli_basename(path);

	for (size_t i = 0; i < plan->count; i++)
		if (plan->jobs[i].is_listed && strcmp(cli_basename(plan->jobs[i].path), leaf) == 0)
			return true;
	return false;
}

/* Of a manifest read lazily, the records this run's plan looks at read
 * whole: before build_plan_add_readers (readers, false) those of the
 * sources that read a file of the same name as one it is given; then
 * (readers, true) those of its sources and of their destinations.  False
 * (said) when one is not well-formed: then the run compiles every
 * source, as over a damaged manifest. */
static bool take_records(build_ctx *ctx, const char *manifest_path, bool readers)
{
	bool ok = true;

	if (!ctx->has_old || !ctx->old.lazy_count)
		return true;
	if (ctx->plan.count > LAZY_JOBS_MAX)
		ok = manifest_take_all(&ctx->old);
	else if (!readers && ctx->options->base_dir)
		manifest_take_if(&ctx->old, "dep", is_listed_leaf, &ctx->plan);
	for (size_t i = 0; ok && readers && i < ctx->plan.count; i++)
		ok = manifest_take_source(&ctx->old, ctx->plan.jobs[i].path, ctx->plan.jobs[i].out_base);
	if (ok)
		return true;
	/* Said as a read of every record says it. */
	build_say_kind(ctx, ANIMC_WARNING, "manifest", manifest_path, "%s; compiling every source",
		       ctx->old.take_error ? ctx->old.take_error : "a record is not well-formed");
	manifest_release(&ctx->old);
	ctx->has_old = false;
	return false;
}

/* The plan, checked against the manifest (read on a thread meanwhile), and
 * what compiling needs.  False (said) when the run cannot go on. */
static bool plan_run(run_state *rs, size_t *to_compile)
{
	build_ctx *ctx = rs->ctx;
	manifest_loader loader = { 0 };
	manifest_load_status loaded;
	bool plan_ok;

	/* Loaded with --rebuild too: what earlier runs wrote stays tracked. */
	loader.is_lazy = reads_lazily(ctx);
	manifest_loader_start(&loader, ctx, &ctx->old, rs->manifest_path);
	options_key(ctx->options, &ctx->options_key);
	plan_ok = build_plan_make(ctx);
	loaded = manifest_loader_finish(&loader);
	/* A list of outputs writes none: it plans as with no manifest. */
	if (loaded == MANIFEST_OTHER_VERSION && ctx->command == CMD_BUILD)
		return refuse_other_manifest(ctx, rs->manifest_path, &loader.err);
	switch (loaded) {
	case MANIFEST_LOADED:
		ctx->has_old = true;
		break;
	case MANIFEST_ABSENT:
		break;
	default:
		build_say_kind(ctx, ANIMC_WARNING, "manifest", rs->manifest_path, "%s; compiling every source", loader.err.message);
		break;
	}
	take_records(ctx, rs->manifest_path, false);
	if (plan_ok)
		plan_ok = build_plan_add_readers(ctx);
	take_records(ctx, rs->manifest_path, true);
	if (!plan_ok || (ctx->options->skeleton_path && !skeleton_state(ctx)))
		return false;
	make_run_key(ctx);
	for (size_t i = 0; i < ctx->plan_notes.count; i++) {
		char folder[4096], line[4200];

		cli_escape(folder, sizeof folder, ctx->plan_notes.items[i]);
		snprintf(line, sizeof line, "skipped folder %s (walked already through another path)", folder);
		rs->status->ops->note(rs->status, line);
	}
	build_plan_shard(ctx);
	build_plan_check(ctx);
	*to_compile = 0;
	for (size_t i = 0; i < ctx->plan.count; i++)
		*to_compile += ctx->plan.jobs[i].needs_compile;
	return !*to_compile || prepare_compile(ctx);
}

static void catch_stop_signals(void)
{
	cli_catch_stop_signals(on_stop);
}

build_runner *build_engine_runner(void *user, build_ctx *ctx, size_t count, const build_run_hooks *hooks)
{
	build_gate gate;
	build_fork_guard guard;
	bool has_gate = build_cache_gate(ctx, &gate, &guard);

	(void)user;
	/* One source, read by an importer of animc's own (not a third-party
	 * reader that may crash or loop), with no --import-timeout and no
	 * --memory-limit to hold it to (only a worker can be stopped):
	 * compiled here, and a per-file make rule then starts no process. */
	if (count == 1 && ctx->options->import_timeout_s == 0 && ctx->options->memory_limit_bytes == 0) {
		for (size_t i = 0; i < ctx->plan.count; i++)
			if (ctx->plan.jobs[i].needs_compile && !ctx->plan.jobs[i].is_done) {
				if (build_job_is_safe_in_process(ctx, i))
					return build_local_runner_create(ctx, hooks);
				break;
			}
	}
	return build_pool_runner_create(ctx, ctx->options->jobs, count, has_gate ? &guard : NULL, hooks);
}

/* Compile what the plan needs: the cache stage as the gate, then the
 * runner.  False when stopped by a signal (or no runner could be made). */
static bool run_jobs(run_state *rs, const build_run_hooks *hooks)
{
	build_ctx *ctx = rs->ctx;
	size_t count = build_schedule_count(ctx);
	build_gate gate;
	build_fork_guard guard;
	bool has_gate = build_cache_gate(ctx, &gate, &guard), completed;
	build_runner *runner;

	if (!count || !ctx->options->jobs)
		return true;
	if (rs->deps && rs->deps->make_runner)
		runner = rs->deps->make_runner(rs->deps->user, ctx, count, hooks);
	else
		runner = build_engine_runner(NULL, ctx, count, hooks);
	if (!runner) {
		build_run_out_of_memory(ctx, "starting the compiles");
		return false;
	}
	completed = build_schedule(ctx, runner, has_gate ? &gate : NULL, hooks);
	runner->ops->destroy(runner, !completed);
	return completed;
}

/* Whether the regular file at `path` holds a NUL byte in its first 4 KiB. */
static bool holds_binary(const char *path)
{
	char head[4096];
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(head, 1, sizeof head, f) : 0;

	if (f)
		fclose(f);
	return memchr(head, '\0', n) != NULL;
}

static bool is_same_file(const char *path, const struct stat *st)
{
	struct stat at;

	return path && stat(path, &at) == 0 && at.st_dev == st->st_dev && at.st_ino == st->st_ino;
}

/* A file an import of job j read: recorded by the last build, or by this
 * one once `has_results`. */
static bool is_dep_of(const build_job *j, const struct stat *st, bool has_results)
{
	for (uint32_t d = 0; j->previous && d < j->previous->dep_count; d++)
		if (is_same_file(j->previous->deps[d].path, st))
			return true;
	for (uint32_t d = 0; has_results && d < j->result.dep_count; d++)
		if (is_same_file(j->result.deps[d].path, st))
			return true;
	return false;
}

/*
 * Whether the file at `path`, which a report is about to be written over,
 * is one the build reads (by device and inode, whatever its spelling): a
 * source, its sidecar, the --skeleton model, the --clips document, a file
 * of the --mgcb project, or a file an import read.  What it is in `what`.
 */
static bool is_read_by_build(const build_ctx *ctx, const char *path, bool has_results, char *what, size_t size)
{
	const build_options *o = ctx->options;
	struct stat st;

	if (stat(path, &st) != 0)
		return false;
	if (is_same_file(o->skeleton_path, &st)) {
		snprintf(what, size, "the --skeleton model");
		return true;
	}
	if (is_same_file(o->author.clips_path, &st)) {
		snprintf(what, size, "the --clips document");
		return true;
	}
	for (size_t i = 0; i < o->response_files.count; i++) {
		if (is_same_file(o->response_files.items[i], &st)) {
			snprintf(what, size, "the response file @%s", o->response_files.items[i]);
			return true;
		}
	}
	for (size_t i = 0; o->has_project && i < o->project.file_count; i++) {
		if (is_same_file(o->project.files[i], &st)) {
			snprintf(what, size, "a file of the MonoGame project");
			return true;
		}
	}
	for (size_t i = 0; i < ctx->plan.count; i++) {
		const build_job *j = &ctx->plan.jobs[i];
		char *sidecar = j->has_no_sidecar ? NULL : build_author_sidecar(&o->author, j->path, j->is_explicit);
		bool is_sidecar = is_same_file(sidecar, &st);

		free(sidecar);
		if (is_same_file(j->path, &st) || is_sidecar || is_dep_of(j, &st, has_results)) {
			if (is_same_file(j->path, &st))
				snprintf(what, size, "a source of the build");
			else if (is_sidecar)
				snprintf(what, size, "the clip-split sidecar of '%s'", j->path);
			else
				snprintf(what, size, "a file the import of '%s' reads", j->path);
			return true;
		}
	}
	if (S_ISREG(st.st_mode) && holds_binary(path)) {
		/* No report is: a file the build reads that no record names,
		 * such as the buffer of a glTF --skeleton model. */
		snprintf(what, size, "a file holding binary data, as no report does");
		return true;
	}
	return false;
}

/* A report file that cannot be written fails the run. */
static void write_report(const char *path, bool (*write)(const build_ctx *, const char *, cli_error *),
			 const build_ctx *ctx, build_totals *totals)
{
	cli_error err;
	char what[PATH_MAX + 64];

	/* A file an import read that the plan could not know of (its first
	 * build): the report is not written over it. */
	if (path && strcmp(path, "-") != 0 && is_read_by_build(ctx, path, true, what, sizeof what)) {
		build_say(ctx, ANIMC_ERROR, path, "a report names this file, %s, which the report would be written "
			  "over: not written; give the report another name", what);
		totals->reports_failed++;
	} else if (path && !write(ctx, path, &err)) {
		build_say(ctx, ANIMC_ERROR, path, "%s", err.message);
		totals->reports_failed++;   /* not a source: the summary says which */
	}
}

/*
 * A build stopped by a signal (rs->stop_with) says so, and still writes
 * --report and --junit: the `finished` first sources of the plan (those
 * committed: their outputs are in place) and a run error saying it was
 * stopped, as a build that stops before it builds does, so that no report
 * of an earlier run stays for a CI to read.  Run in the build's own flow
 * once no worker runs, never in the signal handler, which only sets
 * stop_signal.
 */
static void report_stopped(run_state *rs, size_t finished)
{
	build_ctx *ctx = rs->ctx;
	build_plan *plan = &ctx->plan;
	size_t planned = plan->count;
	const char *name = sigabbrev_np(rs->stop_with);
	build_memory_cap cap = build_memory_cap_of(0);   /* this process's own, not its workers' */
	char limit[96] = "";
	build_totals totals;

	if (ctx->is_out_of_memory && cap.bytes)
		snprintf(limit, sizeof limit, ", under the limit of %llu MiB (%s)", (unsigned long long)(cap.bytes >> 20),
			 cap.by);
	if (rs->stop_with)
		build_say(ctx, ANIMC_ERROR, NULL, "the build was stopped (SIG%s) after %zu of %zu source%s; what it "
			  "finished is in place, and the next build does the rest", name ? name : "?", finished,
			  planned, planned == 1 ? "" : "s");
	else
		build_say(ctx, ANIMC_ERROR, NULL, "the build %s %s%s; it stopped after %zu of %zu source%s: what it "
			  "finished is in place, and the next build does the rest",
			  ctx->is_out_of_memory ? "ran out of memory" : "could not go on:", ctx->run_failure, limit,
			  finished, planned, planned == 1 ? "" : "s");
	plan->count = finished;
	build_totals_count(rs->ctx, &totals);
	write_report(rs->ctx->options->report_path, build_report_json, rs->ctx, &totals);
	write_report(rs->ctx->options->junit_path, build_report_junit, rs->ctx, &totals);
	plan->count = planned;
}

/* Stopped by a signal, or unable to go on (ctx->run_failure: out of
 * memory): nothing half-done stays (staged files of results not committed,
 * what the stopped workers were writing); what was committed is saved (by
 * a failed run, when it changed anything), and reported.  A signal is
 * raised again once the run is released; a failed run fails. */
static int stop_run(run_state *rs)
{
	build_ctx *ctx = rs->ctx;
	bool is_failed = !stop_signal && ctx->run_failure;

	rs->stop_with = is_failed ? 0 : stop_signal ? stop_signal : SIGTERM;
	rs->status->ops->clear(rs->status);
	if (ctx->command == CMD_BUILD) {
		build_unstage(ctx, rs->commit.committed);
		if (!is_failed || rs->commit.dirty)
			save_checkpoint(rs);
		report_stopped(rs, rs->commit.committed);
		if (sweep_own(ctx->lock_fd, ctx->options->out_dir))
			unlink_state(ctx, rs->running);
	} else if (is_failed) {
		report_stopped(rs, rs->commit.committed);
	}
	rs->marked_running = false;
	build_commit_release(&rs->commit);
	return is_failed ? ANIMC_EXIT_FAILED : 128 + rs->stop_with;
}

/* After the last commit of a build: the manifest, the reports, the
 * summary; the exit status. */
static int finish_build(run_state *rs)
{
	build_ctx *ctx = rs->ctx;
	const build_options *o = ctx->options;
	build_totals totals;
	cli_error err;

	if (rs->commit.dirty) {
		if (build_manifest_save(ctx, &rs->commit.next, &rs->commit.pruned_sources, rs->manifest_path, &err))
			build_journal_clear(&rs->commit.journal);
		else if (rs->commit.journal.pending)
			build_say_kind(ctx, ANIMC_WARNING, "manifest", rs->manifest_path, "%s; the state of the folder "
				  "is not saved: the next build compiles again what this one compiled, and '%s' keeps "
				  "what it wrote known to clean", err.message, rs->commit.journal.path);
		else
			build_say_kind(ctx, ANIMC_WARNING, "manifest", rs->manifest_path, "%s; the state of the folder "
				  "is not saved: the next build compiles again what this one compiled", err.message);
	}
	/* The depfile first, the JSON report last: each counts the failures
	 * of those written before it (in run_diagnostics). */
	build_totals_count(ctx, &totals);
	write_report(o->depfile_path, build_report_depfile, ctx, &totals);
	write_report(o->junit_path, build_report_junit, ctx, &totals);
	write_report(o->report_path, build_report_json, ctx, &totals);
	unsigned reports_failed = totals.reports_failed;
	build_totals_count(ctx, &totals);
	totals.reports_failed = reports_failed;
	totals.pruned = rs->commit.pruned;
	rs->status->ops->summary(rs->status, &totals, rs->commit.stale);
	if (ctx->left_temps && !sweep_own(ctx->lock_fd, o->out_dir))
		rs->marked_running = false;   /* left for the next build alone here */
	return totals.failed || totals.reports_failed || totals.run_errors ? ANIMC_EXIT_FAILED : ANIMC_EXIT_OK;
}

/* Whether the run put an output in place (a failed source may have:
 * one its take back could not undo, or beside one another source claimed). */
static bool wrote_any(const build_ctx *ctx)
{
	for (size_t i = 0; i < ctx->plan.count; i++)
		for (uint32_t k = 0; k < ctx->plan.jobs[i].result.output_count; k++)
			if (ctx->plan.jobs[i].result.outputs[k].is_written)
				return true;
	return false;
}

/*
 * A build that wrote nothing into an OUTDIR without a state folder
 * leaves it as it was: the state folder it made goes, and so does OUTDIR
 * when this run made it and it is empty.  Only when no other build holds
 * the lock; the manifest then records nothing anyway.
 */
static void forget_out_dir(run_state *rs)
{
	build_ctx *ctx = rs->ctx;
	const char *out_dir = ctx->options->out_dir;
	static const char *const files[] = { MANIFEST_FILE, MANIFEST_FILE ".lock", MANIFEST_DIR "/lock" };
	build_totals totals;

	build_totals_count(ctx, &totals);
	if (rs->had_state_dir || ctx->options->keeps_state || totals.compiled || totals.cached || totals.up_to_date || rs->commit.pruned ||
	    rs->commit.journal.pending || wrote_any(ctx) || ctx->lock_fd < 0 || lock_alone(ctx->lock_fd) != 0)
		return;
	if (rs->marked_running && unlink_state(ctx, rs->running) == 0)
		rs->marked_running = false;
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		char *path = cli_path_join(out_dir, files[i], NULL);

		if (path)
			unlink_state(ctx, path);
		free(path);
	}
	char *state = cli_path_join(out_dir, MANIFEST_DIR, NULL);
	if (state && rmdir(state) == 0 && !rs->had_out_dir)
		rmdir(out_dir);
	free(state);
}

/* A --mgcb project's warnings under --warnings-as-errors: a misspelt switch
 * or parameter changes what would be built, so nothing is.  False (said). */
static bool project_passes(const build_ctx *ctx)
{
	const build_options *o = ctx->options;

	if (o->is_project_broken)
		return false;   /* said as it was read */
	if (!o->has_project || !o->warnings_as_errors || !o->project.warnings)
		return true;
	build_say(ctx, ANIMC_ERROR, o->mgcb_path, "%u warning%s treated as errors; nothing built", o->project.warnings,
		  o->project.warnings == 1 ? "" : "s");
	return false;
}

/* A build that stops before its plan is made or used (the project, OUTDIR,
 * --skeleton) still writes --report and --junit, of no source, with what was said (the project's warnings, the error), so
 * that CI reads this run's and not an earlier run's that passed. */
static int stop_before_plan(run_state *rs)
{
	build_plan *plan = &rs->ctx->plan;
	size_t planned = plan->count;   /* a plan that stopped: nothing of it was built */
	build_totals totals;

	plan->count = 0;
	build_totals_count(rs->ctx, &totals);
	write_report(rs->ctx->options->report_path, build_report_json, rs->ctx, &totals);
	write_report(rs->ctx->options->junit_path, build_report_junit, rs->ctx, &totals);
	plan->count = planned;
	return ANIMC_EXIT_FAILED;
}

/* `path` as the system reaches it: its folders resolved (links followed),
 * those not made yet taken as spelt; its last name as given when
 * `keeps_name` (a report is renamed over that name, a link or not).
 * malloc()ed; NULL when it cannot be told. */
static char *reached_path(const char *path, bool keeps_name)
{
	size_t end = strlen(path);
	char *real = keeps_name ? NULL : realpath(path, NULL), *out;

	while (!real) {
		char *head;

		while (end > 0 && path[end - 1] != '/')
			end--;
		while (end > 1 && path[end - 1] == '/')
			end--;
		if (end <= 1) {
			real = end && path[0] == '/' ? strdup("/") : realpath(".", NULL);
			if (!real)
				return NULL;
			break;
		}
		head = strndup(path, end);
		real = head ? realpath(head, NULL) : NULL;
		free(head);
	}
	out = malloc(strlen(real) + strlen(path) + 2);
	if (out)
		strcpy(out, real);
	for (const char *p = path + end; out && *p;) {
		size_t n = strcspn(p, "/");
		char *slash = strrchr(out, '/');

		if (n == 2 && p[0] == '.' && p[1] == '.') {
			if (slash)
				*(slash == out ? slash + 1 : slash) = '\0';
		} else if (n && !(n == 1 && p[0] == '.')) {
			if (strcmp(out, "/") != 0)
				strcat(out, "/");
			strncat(out, p, n);
		}
		p += n;
		while (*p == '/')
			p++;
	}
	free(real);
	return out;
}

long build_gone_input_holding_out_dir(const build_options *o)
{
	struct stat st;
	char *out;
	long found = -1;

	if (o->base_dir || stat(o->out_dir, &st) == 0 || !(out = reached_path(o->out_dir, false)))
		return -1;
	for (size_t i = 0; found < 0 && i < o->inputs.count; i++) {
		char *input;
		size_t n;

		if (cli_stat_input(o->inputs.items[i], &st) == 0 || !(errno == ENOENT || errno == ENOTDIR))
			continue;
		input = reached_path(o->inputs.items[i], false);
		n = input ? strlen(input) : 0;
		if (input && strncmp(out, input, n) == 0 && (out[n] == '/' || out[n] == '\0' || strcmp(input, "/") == 0))
			found = (long)i;
		free(input);
	}
	free(out);
	return found;
}

/* Whether `rel` (under OUTDIR) is where a source built to `base` writes:
 * BASE.xnb, BASE.motion.xnb, or a clip's BASE/CLIP.xnb (and .xnb.zst). */
static bool is_output_of(const char *rel, const char *base)
{
	size_t n = strlen(base), len;
	const char *tail = rel + n;

	if (strncmp(rel, base, n) != 0)
		return false;
	len = strlen(tail);
	if (!((len >= 4 && strcmp(tail + len - 4, ".xnb") == 0) || (len >= 8 && strcmp(tail + len - 8, ".xnb.zst") == 0)))
		return false;
	return tail[0] == '/' || strcmp(tail, ".xnb") == 0 || strcmp(tail, ".xnb.zst") == 0 ||
	       strcmp(tail, ".motion.xnb") == 0 || strcmp(tail, ".motion.xnb.zst") == 0;
}

/*
 * A --report, --junit or --depfile file the run writes last over a file of
 * its own: one of OUTDIR/.animc (the manifest, the lock a build holding it
 * shares with others), or, once `has_plan`, a place a source of the plan
 * writes.  The run stops before it builds anything, writing no report, as
 * for a report that names a source.  False (said) for the first such.
 */
static bool reports_miss_own_files(const build_ctx *ctx, bool has_plan)
{
	const build_options *o = ctx->options;
	const char *const paths[3] = { o->report_path, o->junit_path, o->depfile_path };
	char *out = reached_path(o->out_dir, false);
	bool ok = true;

	for (size_t k = 0; out && ok && k < 3; k++) {
		char *at = paths[k] && strcmp(paths[k], "-") != 0 ? reached_path(paths[k], true) : NULL;
		const char *rel = at && cli_path_is_within(at, out) && strcmp(at, out) != 0
					  ? at + strlen(out) + (strcmp(out, "/") != 0) : NULL;
		const build_job *j = NULL;

		if (rel && cli_path_is_within(rel, MANIFEST_DIR)) {
			char *state = cli_path_join(o->out_dir, MANIFEST_DIR, NULL);

			build_say(ctx, ANIMC_ERROR, paths[k], "a report names this file, in %s where animc records "
				  "the builds of that folder, which the report would be written over: nothing built; "
				  "give the report another place", state ? state : MANIFEST_DIR);
			free(state);
			ok = false;
		}
		for (size_t i = 0; rel && ok && has_plan && i < ctx->plan.count; i++)
			if (ctx->plan.jobs[i].out_base && is_output_of(rel, ctx->plan.jobs[i].out_base))
				j = &ctx->plan.jobs[i];
		if (j) {
			build_say(ctx, ANIMC_ERROR, paths[k], "a report names this file, an output of the build (of "
				  "'%s'), which the report would be written over: nothing built; give the report "
				  "another name", j->path);
			ok = false;
		}
		char what[PATH_MAX + 64];

		if (ok && has_plan && at && is_read_by_build(ctx, paths[k], false, what, sizeof what)) {
			build_say(ctx, ANIMC_ERROR, paths[k], "a report names this file, %s, which the report would "
				  "be written over: nothing built; give the report another name", what);
			ok = false;
		}
		free(at);
	}
	free(out);
	return ok;
}

/* Stopped by a signal before anything was written (waiting for OUTDIR's
 * lock, or planning): the marker goes, the signal is raised again
 * (build_engine_run_with). */
static int stop_unstarted(run_state *rs)
{
	rs->stop_with = stop_signal;
	if (rs->ctx->command == CMD_BUILD)
		report_stopped(rs, 0);
	return 128 + rs->stop_with;
}

/* Plan, compile, commit in order, report: `animc build` and `animc outputs`. */
static int run_build(run_state *rs)
{
	build_ctx *ctx = rs->ctx;
	build_run_hooks hooks = { hook_done, hook_tick, rs };
	build_totals totals;
	size_t to_compile = 0;
	cli_error err;
	bool completed;
	int status;

	/* Caught before OUTDIR holds anything of this run's (its running
	 * marker): a stop while planning removes it, as a stop later does. */
	if (ctx->command == CMD_BUILD)
		catch_stop_signals();
	if (ctx->command == CMD_BUILD && !reports_miss_own_files(ctx, false))
		return ANIMC_EXIT_FAILED;
	if (ctx->command == CMD_BUILD && (!project_passes(ctx) || !open_out_dir(rs)))
		return stop_signal ? stop_unstarted(rs) : stop_before_plan(rs);
	/* Files a build could not write are no list of outputs. */
	if (ctx->command == CMD_OUTPUTS && !cli_folder_may_be_made(ctx->options->out_dir, &err)) {
		build_say(ctx, ANIMC_ERROR, ctx->options->out_dir, "%s", err.message);
		return ANIMC_EXIT_FAILED;
	}
	bool planned = plan_run(rs, &to_compile);

	if (ctx->report_over_source) {
		/* No report is written: it would be written over a source. */
		build_say(ctx, ANIMC_ERROR, ctx->report_over_source, "a report names this file, a source of the "
			  "build, which the report would be written over: nothing built; give the report "
			  "another name");
		return ANIMC_EXIT_FAILED;
	}
	if (ctx->command == CMD_BUILD && !reports_miss_own_files(ctx, true))
		return ANIMC_EXIT_FAILED;
	if (!planned && !stop_signal)
		return ctx->command == CMD_BUILD ? stop_before_plan(rs) : ANIMC_EXIT_FAILED;
	if (stop_signal)
		return stop_unstarted(rs);
	if (!build_commit_init(&rs->commit, ctx, ctx->command == CMD_OUTPUTS))
		return ANIMC_EXIT_FAILED;
	build_status_begin(rs->status, to_compile);
	rs->last_save_s = build_now_s();
	commit_ready(rs);
	completed = run_jobs(rs, &hooks);
	commit_ready(rs);
	build_cache_close(ctx, build_now_s() - rs->status->start_s);
	if (!completed || stop_signal || ctx->run_failure)
		return stop_run(rs);
	build_commit_finish(&rs->commit);
	if (ctx->command == CMD_BUILD) {
		status = finish_build(rs);
		forget_out_dir(rs);
	} else {
		build_totals_count(ctx, &totals);
		status = totals.failed ? ANIMC_EXIT_FAILED : ANIMC_EXIT_OK;
	}
	build_commit_release(&rs->commit);
	return status;
}

/* MANIFEST_DIR/running.<pid>.<token>: two builds of one pid (in two PID
 * namespaces, containers sharing an output volume; or a pid reused) have
 * markers of their own, and the one that ends cleanly leaves the other's,
 * which tells the next build alone to sweep what a killed run left. */
static void running_name(char *name, size_t size)
{
	uint64_t token = 0;
	struct timespec now;

	if (getrandom(&token, sizeof token, GRND_NONBLOCK) != (ssize_t)sizeof token) {
		clock_gettime(CLOCK_REALTIME, &now);
		token = ((uint64_t)now.tv_sec << 30) ^ (uint64_t)now.tv_nsec ^ ((uint64_t)getpid() << 40);
	}
	snprintf(name, size, MANIFEST_DIR "/running.%ld.%016llx", (long)getpid(), (unsigned long long)token);
}

int build_engine_run_with(build_command command, build_options *o, const build_engine_deps *deps)
{
	build_ctx ctx;
	run_state rs;
	char name[64];
	int status;

	memset(&ctx, 0, sizeof ctx);
	memset(&rs, 0, sizeof rs);
	/* Under a file-size limit (ulimit -f) an output or the manifest over
	 * it would kill the writer (a worker taken for a crashed importer, or
	 * the build itself, leaving its temporary files): ignored, the write
	 * fails with EFBIG, said as any write that fails.  The workers inherit
	 * it. */
	signal(SIGXFSZ, SIG_IGN);
	/* A build stopped (Ctrl-Z) and continued does not count the time
	 * stopped against --import-timeout. */
	build_clock_watch_stops();
	ctx.options = o;
	ctx.command = command;
	ctx.printer.out = stderr;
	ctx.printer.show_notes = o->verbose;
	ctx.lock_fd = -1;
	ctx.stop_signal = &stop_signal;
	rs.ctx = &ctx;
	rs.deps = deps;
	rs.status = deps && deps->status ? deps->status : &rs.own_status;
	ctx.status = rs.status;
	if (rs.status != &rs.own_status)
		rs.status->ctx = &ctx;   /* the caller's sink, for this run */
	else if (command == CMD_OUTPUTS)
		build_status_outputs_init(rs.status, &ctx);
	else
		build_status_console_init(rs.status, &ctx);
	/* The project's warnings were said as it was read. */
	rs.status->run_warnings = o->has_project || o->is_project_broken ? o->project.warnings : 0;
	build_said_release(&rs.status->said);
	for (size_t i = 0; (o->has_project || o->is_project_broken) && i < o->project.said.count; i++) {
		const build_said *s = &o->project.said.items[i];

		build_said_add(&rs.status->said, s->severity, s->kind, s->subject, s->line, s->message);
	}
	for (size_t i = 0; i < o->said_before.count; i++) {
		const build_said *s = &o->said_before.items[i];

		rs.status->run_warnings += s->severity == ANIMC_WARNING;
		build_said_add(&rs.status->said, s->severity, s->kind, s->subject, s->line, s->message);
	}
	/* A project that cannot be read may also be what names OUTDIR: the
	 * run stops before it needs one, with its reports written. */
	rs.manifest_path = o->out_dir ? cli_path_join(o->out_dir, MANIFEST_FILE, NULL) : NULL;
	running_name(name, sizeof name);
	rs.running = o->out_dir ? cli_path_join(o->out_dir, name, NULL) : NULL;
	if (o->is_project_broken && command == CMD_BUILD)
		status = stop_before_plan(&rs);
	else if (!rs.manifest_path || !rs.running)
		status = ANIMC_EXIT_FAILED;
	else if (command == CMD_CLEAN)
		status = run_clean(&ctx);
	else
		status = run_build(&rs);
	if (!rs.stop_with)
		cli_stdout_sync();
	/* Ending here, the run left no temporary file behind. */
	if (rs.marked_running)
		unlink_state(&ctx, rs.running);
	release_ctx(&ctx);
	build_said_release(&rs.status->said);
	free(rs.manifest_path);
	free(rs.running);
	if (rs.stop_with) {
		/* Ends the process as the signal would have. */
		signal(rs.stop_with, SIG_DFL);
		raise(rs.stop_with);
	}
	return status;
}

int build_engine_run(build_command command, build_options *o)
{
	return build_engine_run_with(command, o, NULL);
}
