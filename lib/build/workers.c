/*
 * workers.c - the worker-process pool, a runner (runner.h) that compiles
 * jobs in long-lived worker processes.  Each worker is
 * forked once (after the plan, so it knows every job) and takes its jobs
 * from a queue in memory it shares with the build: the build appends job
 * numbers in dispatch order, a free worker takes the next one with an
 * atomic compare-and-swap (and sleeps on a futex while the queue is
 * empty), so handing out a job costs neither process a system call and
 * no job waits behind another while a worker is free.  The worker compiles
 * the job (compile.c) and sends back the whole result as one record on its
 * pipe; the build reads those in batches.  A worker is where third-party
 * readers that can crash or loop run: one that dies, or runs past
 * --import-timeout, fails that job alone and is replaced.  Workers die with
 * the build (PR_SET_PDEATHSIG), run under an address-space cap
 * (--memory-limit), and their stdout and stderr (a reader's own messages,
 * libc's "double free") go to a memory file that becomes diagnostics naming
 * the file at hand.
 *
 * Each worker has a slot in the shared memory saying which queue position
 * it is at, since when, and with which importer.  It names a position
 * there before it takes it, so a worker that dies never holds a job the
 * build does not know of.
 *
 * Records: u32 length, u8 kind 'R', u32 job index, then the result
 * (result.c's encoding).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/futex.h>

#include "engine.h"
#include "isolate.h"
#include "runner.h"

/* What a worker's captured output may add to its job's diagnostics. */
#define CAPTURE_BYTES_MAX 16384
#define CAPTURE_LINES_MAX 20
/* Results are records on a pipe; none is larger than this. */
#define RECORD_BYTES_MAX ((size_t)1 << 31)

/* A queue position no worker is at. */
#define IDLE UINT32_MAX

/* What a worker shows the build, in the shared memory. */
typedef struct worker_slot {
	_Atomic uint32_t position;            /* the queue position it is at (or taking); IDLE */
	_Atomic uint32_t importer_position;   /* the position `importer` is for; IDLE */
	_Atomic uint32_t imported_position;   /* the position whose import returned; IDLE */
	_Atomic int64_t started_ns;           /* CLOCK_MONOTONIC, when it took the position */
	_Atomic int send_error;               /* errno of the result it could not send; 0 */
	char importer[32];
} worker_slot;

/* The shared memory: the queue's counters (a cache line of their own, so
 * that the slots after them stay aligned), the slots, then the queue. */
typedef struct shared_queue {
	_Alignas(64) _Atomic uint32_t head;   /* the next position to take */
	_Atomic uint32_t tail;       /* positions appended so far */
	_Atomic uint32_t epoch;      /* moves on each append and at the end: the futex */
	_Atomic uint32_t sleepers;   /* workers waiting for it to move */
	_Atomic uint32_t is_closed;  /* no more jobs come: a worker without one ends */
} shared_queue;
_Static_assert(sizeof(shared_queue) % _Alignof(worker_slot) == 0, "the slots follow the counters aligned");

typedef struct worker {
	pid_t pid;            /* 0: not running */
	int result_fd, capture_fd;
	worker_slot *slot;
	uint8_t *buf;
	size_t used, capacity;
} worker;

typedef struct pool {
	build_runner base;       /* first: a build_runner * is a pool * */
	build_ctx *ctx;
	build_fork_guard guard;
	worker *workers;
	unsigned count;
	pid_t parent;
	shared_queue *queue;
	uint32_t *positions;     /* job index at each queue position */
	void *mapping;
	size_t mapping_size;
	size_t finished;         /* positions whose job has its result */
	bool appended;           /* jobs appended since the workers were last woken */
	unsigned resumes;        /* build_clock_resumes() when last seen */
	int64_t resumed_ns;      /* when the build was last seen continued after a stop */
	int spawn_error;         /* errno of the last worker that could not be started */
	bool said_no_worker;     /* compiling here without one: said once */
} pool;

/* Shared memory between processes: no FUTEX_PRIVATE_FLAG. */
static void futex_wait(_Atomic uint32_t *word, uint32_t seen, long timeout_ms)
{
	struct timespec ts = { timeout_ms / 1000, (timeout_ms % 1000) * 1000000 };

	syscall(SYS_futex, (void *)(uintptr_t)word, FUTEX_WAIT, seen, &ts, NULL, 0);
}

static void futex_wake_all(_Atomic uint32_t *word)
{
	syscall(SYS_futex, (void *)(uintptr_t)word, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

/* One record: its length, kind and job, then its body, in one system call
 * when the pipe takes it whole (a call costs more than a small record). */
static bool send_record(int fd, char kind, uint32_t job, const void *body, size_t size)
{
	uint32_t length = (uint32_t)size + 5;
	uint8_t head[9];
	struct iovec parts[2] = { { head, sizeof head }, { (void *)(uintptr_t)body, size } };
	ssize_t n;

	if (size >= RECORD_BYTES_MAX) {
		errno = EMSGSIZE;
		return false;
	}
	errno = 0;
	memcpy(head, &length, 4);
	head[4] = (uint8_t)kind;
	memcpy(head + 5, &job, 4);
	do
		n = writev(fd, parts, 2);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return false;
	if ((size_t)n >= sizeof head)
		return cli_write_all(fd, (const uint8_t *)body + (n - (ssize_t)sizeof head),
				    size - (size_t)(n - (ssize_t)sizeof head));
	return cli_write_all(fd, head + n, sizeof head - (size_t)n) && cli_write_all(fd, body, size);
}

/* ------------------------------------------------------------ the worker */

typedef struct worker_self {
	worker_slot *slot;
	uint32_t position;
	int capture_fd;     /* what the job printed, until taken */
	char *captured;     /* CAPTURE_BYTES_MAX bytes to read it into; NULL */
} worker_self;

/* The importer of the job at hand, for the build to name should the worker
 * die on it.  The name is written between two marks, so that the build,
 * reading it while the worker lives, can tell a name being rewritten. */
static void tell_importer(void *user, const char *importer)
{
	worker_self *self = user;

	atomic_store(&self->slot->importer_position, IDLE);
	snprintf(self->slot->importer, sizeof self->slot->importer, "%s", importer);
	atomic_store(&self->slot->importer_position, self->position);
}

/* The import of the job at hand returned: a worker stopped from now on was
 * in animc's passes, not in the importer. */
static void tell_imported(void *user)
{
	worker_self *self = user;

	atomic_store(&self->slot->imported_position, self->position);
}

/* Take the next queue position, naming it in the slot first; false once the
 * queue is closed and empty. */
static bool take(shared_queue *q, worker_slot *slot, uint32_t *position)
{
	for (;;) {
		uint32_t epoch = atomic_load(&q->epoch);
		uint32_t head = atomic_load(&q->head);

		if (head < atomic_load(&q->tail)) {
			atomic_store(&slot->importer_position, IDLE);
			atomic_store(&slot->imported_position, IDLE);
			atomic_store(&slot->send_error, 0);
			atomic_store(&slot->started_ns, build_now_ns());
			atomic_store(&slot->position, head);
			if (atomic_compare_exchange_strong(&q->head, &head, head + 1)) {
				*position = head;
				return true;
			}
			continue;
		}
		atomic_store(&slot->position, IDLE);
		if (atomic_load(&q->is_closed))
			return false;
		/* Anything appended since `epoch` was read moved it: then the
		 * wait returns at once.  The time-out is only a safety net. */
		atomic_fetch_add(&q->sleepers, 1);
		futex_wait(&q->epoch, epoch, 1000);
		atomic_fetch_sub(&q->sleepers, 1);
	}
}

/* What the job printed (its reader, libc), as warnings naming the file. */
static void add_captured(build_result *r, const char *text, size_t size, animc_severity severity)
{
	unsigned lines = 0;

	for (size_t at = 0; at < size && lines < CAPTURE_LINES_MAX;) {
		const char *nl = memchr(text + at, '\n', size - at);
		size_t len = nl ? (size_t)(nl - (text + at)) : size - at;

		while (len && (text[at + len - 1] == '\r' || text[at + len - 1] == ' '))
			len--;
		if (len) {
			build_result_diag_kind(r, severity, "importer-output", 0, 0, -1, "the importer printed: %.*s",
					       (int)(len > 1000 ? 1000 : len), text + at);
			lines++;
		}
		at += (nl ? (size_t)(nl - (text + at)) + 1 : size - at);
	}
}

static size_t read_capture(int fd, char *buf, size_t size)
{
	ssize_t n = pread(fd, buf, size, 0);

	return n > 0 ? (size_t)n : 0;
}

/* What the job printed so far, taken as warnings: before the compile's
 * --warnings-as-errors judgement (told), and after its outputs are staged. */
static void take_captured(worker_self *self, build_result *r)
{
	size_t n;

	fflush(stdout);
	fflush(stderr);
	if (!self->captured)
		return;
	n = read_capture(self->capture_fd, self->captured, CAPTURE_BYTES_MAX);
	add_captured(r, self->captured, n, ANIMC_WARNING);
	if (n && ftruncate(self->capture_fd, 0) != 0)
		_exit(1);
}

static void tell_compiled(void *user, build_result *r)
{
	take_captured(user, r);
}

/* The result of the job at hand cannot be sent (errno `error`): the worker
 * ends, leaving the error in its slot for the build to say. */
static _Noreturn void fail_send(worker_slot *slot, int error)
{
	atomic_store(&slot->send_error, error ? error : EIO);
	_exit(1);
}

static _Noreturn void worker_main(pool *p, worker *w)
{
	build_ctx *ctx = p->ctx;
	worker_self self = { w->slot, IDLE, w->capture_fd, malloc(CAPTURE_BYTES_MAX) };

	/* Die with the build, even when it is SIGKILLed. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != p->parent)
		_exit(1);
	/* A stop is the build's to make (it kills its workers): a worker
	 * that died of Ctrl-C, which signals the whole process group, the
	 * workers first, would be taken for a crash of the source at work. */
	cli_catch_stop_signals(SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	for (unsigned i = 0; i < p->count; i++) {
		worker *other = &p->workers[i];

		if (other != w && other->pid) {
			close(other->result_fd);
			close(other->capture_fd);
		}
	}
	if (ctx->lock_fd >= 0)
		close(ctx->lock_fd);
	/* libc writes "double free or corruption" to stderr, not the tty. */
	setenv("LIBC_FATAL_STDERR_", "1", 1);
	dup2(w->capture_fd, STDOUT_FILENO);
	dup2(w->capture_fd, STDERR_FILENO);
	/* What an importer prints just before it crashes is captured too. */
	setvbuf(stderr, NULL, _IONBF, 0);
	build_limit_memory(ctx->options->memory_limit_bytes);
	ctx->on_probe = tell_importer;
	ctx->on_imported = tell_imported;
	ctx->on_compiled = tell_compiled;
	ctx->on_probe_user = &self;
	for (;;) {
		uint32_t position, index;
		build_result r;
		uint8_t *record;
		size_t size;

		if (!take(p->queue, w->slot, &position))
			_exit(0);
		index = p->positions[position];
		if (index >= ctx->plan.count)
			_exit(1);
		self.position = position;
		build_compile(ctx, &ctx->plan.jobs[index], &r);
		if (ctx->command == CMD_BUILD)
			build_stage_outputs(ctx, &ctx->plan.jobs[index], &r);
		take_captured(&self, &r);
		if (!build_result_encode(&r, &record, &size))
			fail_send(w->slot, ENOMEM);
		build_result_release(&r);
		if (!send_record(w->result_fd, 'R', index, record, size))
			fail_send(w->slot, errno);
		free(record);
	}
}

/* ------------------------------------------------------------ the parent */

static void notify(pool *p, size_t job)
{
	const build_run_hooks *hooks = p->base.hooks;

	if (hooks && hooks->on_done)
		hooks->on_done(hooks->user, job);
}

static void close_worker(worker *w)
{
	worker_slot *slot = w->slot;

	close(w->result_fd);
	close(w->capture_fd);
	free(w->buf);
	memset(w, 0, sizeof *w);
	w->slot = slot;
	atomic_store(&slot->position, IDLE);
	atomic_store(&slot->importer_position, IDLE);
}

static bool spawn(pool *p, worker *w)
{
	int result[2], capture;
	pid_t pid;

	capture = memfd_create("animc-worker-output", MFD_CLOEXEC);
	if (capture < 0) {
		p->spawn_error = errno;
		return false;
	}
	if (fcntl(capture, F_SETFL, O_APPEND) != 0 || pipe2(result, O_CLOEXEC) != 0) {
		p->spawn_error = errno;
		close(capture);
		return false;
	}
	atomic_store(&w->slot->position, IDLE);
	atomic_store(&w->slot->importer_position, IDLE);
	fflush(stdout);
	fflush(stderr);
	if (p->guard.before)
		p->guard.before(p->guard.user);
	pid = fork();
	if (pid != 0 && p->guard.after)
		p->guard.after(p->guard.user);
	if (pid < 0) {
		p->spawn_error = errno;
		close(capture);
		close(result[0]);
		close(result[1]);
		return false;
	}
	if (pid == 0) {
		close(result[0]);
		w->result_fd = result[1];
		w->capture_fd = capture;
		worker_main(p, w);
	}
	close(result[1]);
	fcntl(result[0], F_SETFL, O_NONBLOCK);
	w->pid = pid;
	w->result_fd = result[0];
	w->capture_fd = capture;
	w->used = 0;
	return true;
}

/* The job at queue position `position` of a worker that died or was
 * stopped: failed, saying why. */
static void fail_job(pool *p, worker *w, uint32_t position, int status, bool timed_out)
{
	build_job *j = &p->ctx->plan.jobs[p->positions[position]];
	build_result *r = &j->result;
	const char *importer;
	char *captured = malloc(CAPTURE_BYTES_MAX + 1);
	size_t size = captured ? read_capture(w->capture_fd, captured, CAPTURE_BYTES_MAX) : 0;
	bool out_of_memory = false, imported;
	build_memory_cap cap = build_memory_cap_of(p->ctx->options->memory_limit_bytes);

	/* The worker is gone: its slot holds still. */
	imported = atomic_load(&w->slot->imported_position) == position;
	if (atomic_load(&w->slot->importer_position) == position)
		snprintf(j->importer_at_work, sizeof j->importer_at_work, "%s", w->slot->importer);
	importer = j->importer_at_work[0] ? j->importer_at_work : NULL;
	if (captured) {
		captured[size] = '\0';
		out_of_memory = strstr(captured, "bad_alloc") || strstr(captured, "Cannot allocate memory") ||
				strstr(captured, "out of memory");
	}
	build_result_release(r);
	r->status = BUILD_FAILED;
	snprintf(r->importer, sizeof r->importer, "%s", importer ? importer : "");
	if (timed_out && imported)
		build_result_diag(r, ANIMC_ERROR, 0, 0, -1,
				  "compiling did not finish within %g s (--import-timeout): the %s%simporter "
				  "was done, animc's passes were not; stopped, nothing written (a long take, "
				  "lossy or compact, may need more: raise --import-timeout, 0 for no limit)",
				  p->ctx->options->import_timeout_s, importer ? importer : "", importer ? " " : "");
	else if (timed_out)
		build_result_diag(r, ANIMC_ERROR, 0, 0, -1,
				  "the %s%simporter did not finish within %g s (--import-timeout); "
				  "stopped, nothing written", importer ? importer : "", importer ? " " : "",
				  p->ctx->options->import_timeout_s);
	else if (out_of_memory && cap.bytes)
		build_result_diag(r, ANIMC_ERROR, 0, 0, -1,
				  "ran out of memory: the %s needs more than the limit of %llu MiB "
				  "(%s); nothing written", imported ? "compile" : "import",
				  (unsigned long long)(cap.bytes >> 20), cap.by);
	else if (out_of_memory)
		build_result_diag(r, ANIMC_ERROR, 0, 0, -1, "ran out of memory; nothing written");
	else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
		/* Not a crash: something outside killed the worker (the
		 * system's out-of-memory killer, a person). */
		build_result_diag(r, ANIMC_ERROR, 0, 0, -1,
				  "the worker compiling this file was killed from outside (SIGKILL: the "
				  "system's out-of-memory killer, or someone); it was not compiled");
	else if (WIFSIGNALED(status) && imported)
		build_result_diag(r, ANIMC_ERROR, 0, 0, -1,
				  "compiling crashed (%s) after the %s%simporter was done; it was not compiled",
				  strsignal(WTERMSIG(status)), importer ? importer : "", importer ? " " : "");
	else if (WIFSIGNALED(status))
		build_result_diag(r, ANIMC_ERROR, 0, 0, -1,
				  "the %s%simporter crashed on this file (%s); it was not compiled",
				  importer ? importer : "", importer ? " " : "", strsignal(WTERMSIG(status)));
	else if (WIFEXITED(status) && atomic_load(&w->slot->send_error))
		build_result_diag(r, ANIMC_ERROR, 0, 0, -1,
				  "the worker compiling this file could not send its result to the build (%s); "
				  "it was not compiled", strerror(atomic_load(&w->slot->send_error)));
	else
		build_result_diag(r, ANIMC_ERROR, 0, 0, -1,
				  "the %s%simporter ended without a result (exit status %d)",
				  importer ? importer : "", importer ? " " : "",
				  WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	if (captured && !timed_out)
		add_captured(r, captured, size, ANIMC_NOTE);
	free(captured);
	r->time_s = (double)(build_now_ns() - atomic_load(&w->slot->started_ns)) / 1e9;
	j->is_done = true;
	p->finished++;
	p->ctx->left_temps = true;
}

/* What draining a worker's pipe came to. */
typedef enum drain_state {
	DRAIN_OPEN,     /* it may send more */
	DRAIN_ENDED,    /* its end of the pipe is closed: it is gone, or going */
	DRAIN_BROKEN    /* its records cannot be read (out of memory here, a
			 * read error, or what no worker sends): some are lost */
} drain_state;

/* A worker's results cannot be read (errno `error`): the run cannot go on. */
static void fail_unreadable(pool *p, int error)
{
	static char what[160];

	snprintf(what, sizeof what, "a worker's results could not be read (%s)", strerror(error));
	build_run_fail(p->ctx, what);
}

/* Take the records a worker has sent. */
static drain_state drain(pool *p, worker *w)
{
	drain_state state = DRAIN_OPEN;
	size_t at = 0;

	for (;;) {
		ssize_t n;

		if (w->capacity - w->used < 65536) {
			size_t capacity = w->capacity ? w->capacity * 2 : 131072;
			uint8_t *grown = build_run_realloc(w->buf, capacity);

			if (!grown) {
				build_run_out_of_memory(p->ctx, "reading the workers' results");
				return DRAIN_BROKEN;
			}
			w->buf = grown;
			w->capacity = capacity;
		}
		n = read(w->result_fd, w->buf + w->used, w->capacity - w->used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (n < 0) {
			/* Not the end of the pipe: the worker lives on, and
			 * waiting for it to end would wait for ever. */
			fail_unreadable(p, errno);
			return DRAIN_BROKEN;
		}
		if (n == 0) {
			state = DRAIN_ENDED;   /* take what came before the end */
			break;
		}
		w->used += (size_t)n;
		/* Less than there was room for: the pipe is empty now, and
		 * poll says when more comes. */
		if (w->used < w->capacity)
			break;
	}
	for (;;) {
		uint32_t length, index;
		size_t whole;
		build_job *j;

		if (w->used - at < 9)
			break;
		memcpy(&length, w->buf + at, 4);
		memcpy(&index, w->buf + at + 5, 4);
		if (length < 5 || length > RECORD_BYTES_MAX || w->buf[at + 4] != 'R' ||
		    index >= p->ctx->plan.count) {
			build_run_fail(p->ctx, "a worker sent a result that could not be read");
			return DRAIN_BROKEN;
		}
		whole = (size_t)length + 4;
		if (w->used - at < whole)
			break;
		j = &p->ctx->plan.jobs[index];
		if (!j->is_done) {   /* else failed already: a worker is not asked twice */
			errno = 0;
			if (!build_result_decode(w->buf + at + 9, length - 5, &j->result)) {
				if (errno == ENOMEM)
					build_run_out_of_memory(p->ctx, "reading the workers' results");
				else
					build_run_fail(p->ctx, "a worker sent a result that could not be read");
				return DRAIN_BROKEN;
			}
			j->is_done = true;
			p->finished++;
			notify(p, index);
		}
		at += whole;
	}
	if (at) {
		memmove(w->buf, w->buf + at, w->used - at);
		w->used -= at;
	}
	return state;
}

/* A worker that ended (or is stopped: timed_out): the job it was at fails,
 * unless its result came, or another worker took that position. */
static void reap(pool *p, worker *w, bool timed_out)
{
	uint32_t position;
	int status = 0;

	if (timed_out)
		kill(w->pid, SIGKILL);
	while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
		;
	w->pid = 0;
	/* Its last records, and every other worker's: a position this one
	 * named but another took and finished shows as finished then. */
	(void)drain(p, w);
	for (unsigned i = 0; i < p->count; i++)
		if (p->workers[i].pid)
			(void)drain(p, &p->workers[i]);   /* one that ended: the poll loop reaps it */
	position = atomic_load(&w->slot->position);
	if (position != IDLE && position < atomic_load(&p->queue->head) &&
	    !p->ctx->plan.jobs[p->positions[position]].is_done) {
		bool held = false;

		for (unsigned i = 0; i < p->count && !held; i++)
			held = p->workers[i].pid && atomic_load(&p->workers[i].slot->position) == position;
		if (!held) {
			fail_job(p, w, position, status, timed_out);
			notify(p, p->positions[position]);
		}
	}
	close_worker(w);
}

/* For the progress line: when each job at hand started, and with what. */
static void note_jobs_at_hand(pool *p)
{
	uint32_t head = atomic_load(&p->queue->head);

	for (unsigned i = 0; i < p->count; i++) {
		worker *w = &p->workers[i];
		uint32_t position = w->pid ? atomic_load(&w->slot->position) : IDLE;
		build_job *j;
		char name[32];

		if (position == IDLE || position >= head)
			continue;
		j = &p->ctx->plan.jobs[p->positions[position]];
		if (j->is_done)
			continue;
		j->started_s = (double)atomic_load(&w->slot->started_ns) / 1e9;
		j->is_imported = atomic_load(&w->slot->imported_position) == position;
		if (atomic_load(&w->slot->importer_position) != position)
			continue;
		memcpy(name, w->slot->importer, sizeof name);
		name[sizeof name - 1] = '\0';
		if (atomic_load(&w->slot->importer_position) == position)
			memcpy(j->importer_at_work, name, sizeof name);
	}
}
/* Seconds until the first --import-timeout deadline of a job at hand;
 * workers past theirs are stopped (their jobs fail). */
static double check_deadlines(pool *p)
{
	double timeout_s = p->ctx->options->import_timeout_s, first = 1e9;
	uint32_t head = atomic_load(&p->queue->head);
	int64_t now = build_now_ns();

	if (timeout_s <= 0)
		return first;
	/* Stopped (Ctrl-Z) and continued: the time stopped is no compile's,
	 * so every deadline starts again. */
	if (build_clock_resumes() != p->resumes) {
		p->resumes = build_clock_resumes();
		p->resumed_ns = now;
	}
	for (unsigned i = 0; i < p->count; i++) {
		worker *w = &p->workers[i];
		uint32_t position = w->pid ? atomic_load(&w->slot->position) : IDLE;
		int64_t from;
		double left;

		if (position == IDLE || position >= head || p->ctx->plan.jobs[p->positions[position]].is_done)
			continue;
		from = atomic_load(&w->slot->started_ns);
		if (from < p->resumed_ns)
			from = p->resumed_ns;
		left = timeout_s - (double)(now - from) / 1e9;
		if (left <= 0)
			reap(p, w, true);
		else if (left < first)
			first = left;
	}
	return first;
}

static void stop_all(pool *p)
{
	for (unsigned i = 0; i < p->count; i++) {
		worker *w = &p->workers[i];

		if (!w->pid)
			continue;
		kill(w->pid, SIGKILL);
		while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR)
			;
		close_worker(w);
	}
}

/* Compile the job at the head of the queue here, in this process: when no
 * worker can be forked at all (a process limit reached).  Said once: here
 * no --import-timeout or --memory-limit holds, and a crash ends the run. */
static void compile_head_here(pool *p)
{
	uint32_t head = atomic_load(&p->queue->head);
	size_t index = p->positions[head];
	build_job *j = &p->ctx->plan.jobs[index];

	if (!p->said_no_worker) {
		p->said_no_worker = true;
		build_say_kind(p->ctx, ANIMC_WARNING, animc_warning_kind_at(ANIMC_WARN_NO_WORKER)->name, NULL,
			       "cannot start a worker process (%s): compiling in the build process, where "
			       "--import-timeout and --memory-limit do not hold, and an importer's crash ends the "
			       "build", strerror(p->spawn_error));
	}

	atomic_store(&p->queue->head, head + 1);
	j->started_s = build_now_s();
	build_compile(p->ctx, j, &j->result);
	if (p->ctx->command == CMD_BUILD)
		build_stage_outputs(p->ctx, j, &j->result);
	p->finished++;
	build_runner_done(&p->base, index);
}

static void wake_workers(pool *p)
{
	atomic_fetch_add(&p->queue->epoch, 1);
	if (atomic_load(&p->queue->sleepers))
		futex_wake_all(&p->queue->epoch);
}

/* Append a job to the queue (the workers are woken by the next wait). */
static void pool_start(build_runner *r, size_t index)
{
	pool *p = (pool *)r;
	uint32_t tail = atomic_load(&p->queue->tail);

	p->positions[tail] = (uint32_t)index;
	atomic_store(&p->queue->tail, tail + 1);
	p->appended = true;
}

static bool pool_is_free(build_runner *r)
{
	pool *p = (pool *)r;

	return atomic_load(&p->queue->tail) - atomic_load(&p->queue->head) < p->count;
}

static size_t pool_pending(build_runner *r)
{
	pool *p = (pool *)r;

	return atomic_load(&p->queue->tail) - p->finished;
}

/* A worker for each job waiting, as many as asked for; with no process at
 * all, the next job compiles here. */
static void spawn_for_queue(pool *p)
{
	uint32_t untaken = atomic_load(&p->queue->tail) - atomic_load(&p->queue->head);
	unsigned alive = 0;

	for (unsigned i = 0; i < p->count; i++)
		alive += p->workers[i].pid != 0;
	for (unsigned i = 0; i < p->count && alive < p->count && untaken > 0; i++) {
		if (p->workers[i].pid)
			continue;
		if (spawn(p, &p->workers[i])) {
			alive++;
			continue;
		}
		if (!alive)
			compile_head_here(p);
		break;   /* those running take the jobs */
	}
}

static void pool_warm(build_runner *r, unsigned count)
{
	pool *p = (pool *)r;

	for (unsigned i = 0; i < count && i < p->count; i++)
		if (!spawn(p, &p->workers[i]))
			break;
}

/* The jobs at hand: when each started, and with which importer. */
static void pool_note_at_hand(build_runner *r)
{
	note_jobs_at_hand((pool *)r);
}

/*
 * A worker whose records cannot be read: the results it sent since the
 * last drain are lost, and it may be blocked writing more into a pipe no
 * one reads (waiting for it to end would wait for ever).  It is killed and
 * reaped; the run cannot finish those jobs, so it ends (false from
 * pool_wait), as out of memory when that was the cause.
 */
static void discard(pool *p, worker *w)
{
	kill(w->pid, SIGKILL);
	while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR)
		;
	close_worker(w);
	p->ctx->left_temps = true;   /* it may have been writing a staged file */
}

static bool pool_wait(build_runner *r, double wait_s, int wake_fd, bool is_all_started)
{
	pool *p = (pool *)r;
	bool is_broken = false;
	struct pollfd fds[1025];
	unsigned polled[1025], nfds = 0, alive = 0;
	uint32_t untaken;
	double deadline_s;

	if (p->appended)
		wake_workers(p);
	p->appended = false;
	spawn_for_queue(p);
	deadline_s = check_deadlines(p);
	if (deadline_s < wait_s)
		wait_s = deadline_s;
	for (unsigned i = 0; i < p->count; i++) {
		worker *w = &p->workers[i];

		if (!w->pid)
			continue;
		alive++;
		fds[nfds] = (struct pollfd){ w->result_fd, POLLIN, 0 };
		polled[nfds++] = i;
	}
	/* A free worker waits for a lookup: wake when one comes back. */
	if (wake_fd >= 0)
		fds[nfds++] = (struct pollfd){ wake_fd, POLLIN, 0 };
	if (!nfds)
		return true;
	/* While the workers have plenty queued, results are taken in
	 * batches: a wake-up costs more than the result it brings. */
	untaken = atomic_load(&p->queue->tail) - atomic_load(&p->queue->head);
	if (is_all_started && untaken >= 2 * (uint32_t)alive && wait_s > 0.002) {
		struct timespec nap = { 0, 2000000 };

		nanosleep(&nap, NULL);
		wait_s -= 0.002;
	}
	if (poll(fds, nfds, (int)(wait_s * 1000) + 1) < 0 && errno != EINTR)
		return false;
	for (unsigned k = 0; k < alive; k++) {
		worker *w = &p->workers[polled[k]];
		drain_state state;

		if (!w->pid || !(fds[k].revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		state = drain(p, w);
		if (state == DRAIN_BROKEN) {
			discard(p, w);
			is_broken = true;
		} else if (state == DRAIN_ENDED) {
			reap(p, w, false);
		}
	}
	return !is_broken && !p->ctx->run_failure;
}

static void pool_destroy(build_runner *r, bool is_stopped)
{
	pool *p = (pool *)r;

	if (is_stopped) {
		stop_all(p);
	} else {
		/* Idle workers end once the queue is closed. */
		atomic_store(&p->queue->is_closed, 1);
		wake_workers(p);
		for (unsigned i = 0; i < p->count; i++) {
			worker *w = &p->workers[i];

			if (!w->pid)
				continue;
			while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR)
				;
			close_worker(w);
		}
	}
	munmap(p->mapping, p->mapping_size);
	free(p->workers);
	free(p);
}

static const build_runner_ops pool_ops = {
	.start = pool_start,
	.is_free = pool_is_free,
	.pending = pool_pending,
	.wait = pool_wait,
	.warm = pool_warm,
	.note_at_hand = pool_note_at_hand,
	.destroy = pool_destroy,
};

build_runner *build_pool_runner_create(build_ctx *ctx, unsigned worker_count, size_t jobs,
				       const build_fork_guard *guard, const build_run_hooks *hooks)
{
	pool *p = calloc(1, sizeof *p);

	if (worker_count > jobs)
		worker_count = (unsigned)jobs;
	if (!p || !worker_count) {
		free(p);
		return NULL;
	}
	p->base = (build_runner){ &pool_ops, ctx, hooks };
	p->ctx = ctx;
	p->parent = getpid();
	if (guard)
		p->guard = *guard;
	p->mapping_size = sizeof *p->queue + worker_count * sizeof(worker_slot) + jobs * sizeof(uint32_t);
	p->mapping = mmap(NULL, p->mapping_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	p->workers = calloc(worker_count, sizeof *p->workers);
	if (p->mapping == MAP_FAILED || !p->workers) {
		if (p->mapping != MAP_FAILED)
			munmap(p->mapping, p->mapping_size);
		free(p->workers);
		free(p);
		return NULL;
	}
	p->queue = p->mapping;
	p->positions = (uint32_t *)((worker_slot *)(p->queue + 1) + worker_count);
	p->count = worker_count;
	for (unsigned i = 0; i < worker_count; i++) {
		p->workers[i].slot = (worker_slot *)(p->queue + 1) + i;
		atomic_store(&p->workers[i].slot->position, IDLE);
		atomic_store(&p->workers[i].slot->importer_position, IDLE);
	}
	signal(SIGPIPE, SIG_IGN);
	return &p->base;
}
