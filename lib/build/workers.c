/*
 * workers.c - compiles jobs in long-lived worker processes.  Each worker is
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
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/futex.h>

#include "runner.h"
#include "engine.h"

/* What a worker's captured output may add to its job's diagnostics. */
#define CAPTURE_BYTES_MAX 16384
#define CAPTURE_LINES_MAX 20
/* Results are records on a pipe; none is larger than this. */
#define RECORD_BYTES_MAX ((size_t)1 << 31)

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

/* A queue position no worker is at. */
#define IDLE UINT32_MAX

/* What a worker shows the build, in the shared memory. */
typedef struct worker_slot {
	_Atomic uint32_t position;            /* the queue position it is at (or taking); IDLE */
	_Atomic uint32_t importer_position;   /* the position `importer` is for; IDLE */
	_Atomic int64_t started_ns;           /* CLOCK_MONOTONIC, when it took the position */
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
	build_ctx *ctx;
	worker *workers;
	unsigned count;
	pid_t parent;
	shared_queue *queue;
	uint32_t *positions;     /* job index at each queue position */
	void *mapping;
	size_t mapping_size;
	size_t finished;         /* positions whose job has its result */
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

	if (size >= RECORD_BYTES_MAX)
		return false;
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

/* Take the next queue position, naming it in the slot first; false once the
 * queue is closed and empty. */
static bool take(shared_queue *q, worker_slot *slot, uint32_t *position)
{
	for (;;) {
		uint32_t epoch = atomic_load(&q->epoch);
		uint32_t head = atomic_load(&q->head);

		if (head < atomic_load(&q->tail)) {
			atomic_store(&slot->importer_position, IDLE);
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
			build_result_diag(r, severity, 0, 0, -1, "the importer printed: %.*s",
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

static void apply_memory_limit(uint64_t bytes)
{
#ifndef UNDER_ASAN
	struct rlimit limit = { (rlim_t)bytes, (rlim_t)bytes };

	if (bytes)
		setrlimit(RLIMIT_AS, &limit);
#else
	(void)bytes;   /* AddressSanitizer reserves terabytes of address space */
#endif
}

static _Noreturn void worker_main(pool *p, worker *w)
{
	build_ctx *ctx = p->ctx;
	worker_self self = { w->slot, IDLE };
	char *captured = malloc(CAPTURE_BYTES_MAX);

	/* Die with the build, even when it is SIGKILLed. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != p->parent)
		_exit(1);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
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
	apply_memory_limit(ctx->options->memory_limit_bytes);
	ctx->on_probe = tell_importer;
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
		fflush(stdout);
		fflush(stderr);
		if (captured) {
			size_t n = read_capture(w->capture_fd, captured, CAPTURE_BYTES_MAX);

			add_captured(&r, captured, n, ANIMC_WARNING);
			if (n && ftruncate(w->capture_fd, 0) != 0)
				_exit(1);
		}
		if (!build_result_encode(&r, &record, &size))
			_exit(1);
		build_result_release(&r);
		if (!send_record(w->result_fd, 'R', index, record, size))
			_exit(1);
		free(record);
	}
}

/* ------------------------------------------------------------ the parent */

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
	if (capture < 0)
		return false;
	if (fcntl(capture, F_SETFL, O_APPEND) != 0 || pipe2(result, O_CLOEXEC) != 0) {
		close(capture);
		return false;
	}
	atomic_store(&w->slot->position, IDLE);
	atomic_store(&w->slot->importer_position, IDLE);
	fflush(stdout);
	fflush(stderr);
	cli_cache_before_fork(p->ctx->cache);
	pid = fork();
	if (pid != 0)
		cli_cache_after_fork(p->ctx->cache);
	if (pid < 0) {
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
	bool out_of_memory = false;

	/* The worker is gone: its slot holds still. */
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
	if (timed_out)
		build_result_diag(r, ANIMC_ERROR, 0, 0, -1,
				  "the %s%simporter did not finish within %g s (--import-timeout); "
				  "stopped, nothing written", importer ? importer : "", importer ? " " : "",
				  p->ctx->options->import_timeout_s);
	else if (out_of_memory && p->ctx->options->memory_limit_bytes)
		build_result_diag(r, ANIMC_ERROR, 0, 0, -1,
				  "ran out of memory: the import needs more than the limit of %llu MiB "
				  "(--memory-limit); nothing written",
				  (unsigned long long)(p->ctx->options->memory_limit_bytes >> 20));
	else if (out_of_memory)
		build_result_diag(r, ANIMC_ERROR, 0, 0, -1, "ran out of memory; nothing written");
	else if (WIFSIGNALED(status))
		build_result_diag(r, ANIMC_ERROR, 0, 0, -1,
				  "the %s%simporter crashed on this file (%s); it was not compiled",
				  importer ? importer : "", importer ? " " : "", strsignal(WTERMSIG(status)));
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
	p->ctx->lost_workers = true;
}

/* Take the records a worker has sent; false when it is gone (or sent what
 * no worker sends). */
static bool drain(pool *p, worker *w, const build_run_hooks *hooks)
{
	bool is_open = true;
	size_t at = 0;

	for (;;) {
		ssize_t n;

		if (w->capacity - w->used < 65536) {
			size_t capacity = w->capacity ? w->capacity * 2 : 131072;
			uint8_t *grown = realloc(w->buf, capacity);

			if (!grown)
				return false;
			w->buf = grown;
			w->capacity = capacity;
		}
		n = read(w->result_fd, w->buf + w->used, w->capacity - w->used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (n <= 0) {
			is_open = false;   /* take what came before the end */
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
		    index >= p->ctx->plan.count)
			return false;
		whole = (size_t)length + 4;
		if (w->used - at < whole)
			break;
		j = &p->ctx->plan.jobs[index];
		if (!j->is_done) {   /* else failed already: a worker is not asked twice */
			if (!build_result_decode(w->buf + at + 9, length - 5, &j->result))
				return false;
			j->is_done = true;
			p->finished++;
			if (hooks && hooks->on_done)
				hooks->on_done(hooks->user, index);
		}
		at += whole;
	}
	if (at) {
		memmove(w->buf, w->buf + at, w->used - at);
		w->used -= at;
	}
	return is_open;
}

/* A worker that ended (or is stopped: timed_out): the job it was at fails,
 * unless its result came, or another worker took that position. */
static void reap(pool *p, worker *w, bool timed_out, const build_run_hooks *hooks)
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
	drain(p, w, hooks);
	for (unsigned i = 0; i < p->count; i++)
		if (p->workers[i].pid)
			(void)drain(p, &p->workers[i], hooks);   /* one that ended: the poll loop reaps it */
	position = atomic_load(&w->slot->position);
	if (position != IDLE && position < atomic_load(&p->queue->head) &&
	    !p->ctx->plan.jobs[p->positions[position]].is_done) {
		bool held = false;

		for (unsigned i = 0; i < p->count && !held; i++)
			held = p->workers[i].pid && atomic_load(&p->workers[i].slot->position) == position;
		if (!held) {
			fail_job(p, w, position, status, timed_out);
			if (hooks && hooks->on_done)
				hooks->on_done(hooks->user, p->positions[position]);
		}
	}
	close_worker(w);
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

/* The importer of a job's file needs no process of its own. */
static bool is_safe_in_process(const build_job *j)
{
	const animc_importer *importer;
	cli_source src;

	if (!cli_source_open(&src, j->path, NULL, 0))
		return true;   /* the compile says why, as a worker would */
	importer = animc_importer_find(j->path, src.head, src.head_size);
	cli_source_close(&src);
	return !importer || !importer->needs_isolation;
}

/* Jobs that took long last time (or are large) first, so that a slow file
 * does not end the run alone; the rest in plan order. */
static size_t *dispatch_order(const build_plan *plan, size_t *count)
{
	size_t *order = malloc((plan->count ? plan->count : 1) * sizeof *order), n = 0;

	if (!order)
		return NULL;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < plan->count; i++) {
			const build_job *j = &plan->jobs[i];
			bool heavy = (j->previous && j->previous->time_s >= 1.0) || j->size >= (1u << 20);

			if (j->needs_compile && !j->is_done && heavy == (pass == 0))
				order[n++] = i;
		}
	*count = n;
	return order;
}

/* The next job in dispatch order that needs a worker, settling cache hits
 * on the way (they need none); SIZE_MAX when none is left, or when the
 * next one's lookup is under way and, with a worker free, worth waiting
 * for (*is_waiting set, *wait_s lowered).  Does not take the job: the
 * caller moves *next on. */
static size_t next_to_compile(build_ctx *ctx, const size_t *order, size_t queued, size_t *next,
			      bool is_worker_free, double *wait_s, bool *is_waiting, const build_run_hooks *hooks)
{
	while (*next < queued) {
		size_t index = order[*next];
		double cache_wait_s = 0;

		build_cache_ahead(ctx, order, queued, *next);
		switch (build_cache_check(ctx, index, is_worker_free, &cache_wait_s)) {
		case CACHE_DONE:
			(*next)++;
			ctx->plan.jobs[index].is_done = true;
			if (hooks && hooks->on_done)
				hooks->on_done(hooks->user, index);
			continue;
		case CACHE_WAIT:
			*is_waiting = true;
			if (cache_wait_s < *wait_s)
				*wait_s = cache_wait_s;
			return SIZE_MAX;
		case CACHE_COMPILE:
			return index;
		}
	}
	return SIZE_MAX;
}

/* Compile job `index` here, in this process. */
static void compile_here(build_ctx *ctx, size_t index, const build_run_hooks *hooks)
{
	build_job *j = &ctx->plan.jobs[index];

	j->started_s = build_now_s();
	build_compile(ctx, j, &j->result);
	if (ctx->command == CMD_BUILD)
		build_stage_outputs(ctx, j, &j->result);
	j->is_done = true;
	if (hooks && hooks->on_done)
		hooks->on_done(hooks->user, index);
}

/* Append a job to the queue (the workers are woken by wake_workers). */
static void append(pool *p, size_t index)
{
	uint32_t tail = atomic_load(&p->queue->tail);

	p->positions[tail] = (uint32_t)index;
	atomic_store(&p->queue->tail, tail + 1);
}

static void wake_workers(pool *p)
{
	atomic_fetch_add(&p->queue->epoch, 1);
	if (atomic_load(&p->queue->sleepers))
		futex_wake_all(&p->queue->epoch);
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
static double check_deadlines(pool *p, const build_run_hooks *hooks)
{
	double timeout_s = p->ctx->options->import_timeout_s, first = 1e9;
	uint32_t head = atomic_load(&p->queue->head);
	int64_t now = build_now_ns();

	if (timeout_s <= 0)
		return first;
	for (unsigned i = 0; i < p->count; i++) {
		worker *w = &p->workers[i];
		uint32_t position = w->pid ? atomic_load(&w->slot->position) : IDLE;
		double left;

		if (position == IDLE || position >= head || p->ctx->plan.jobs[p->positions[position]].is_done)
			continue;
		left = timeout_s - (double)(now - atomic_load(&w->slot->started_ns)) / 1e9;
		if (left <= 0)
			reap(p, w, true, hooks);
		else if (left < first)
			first = left;
	}
	return first;
}

bool build_run(build_ctx *ctx, unsigned worker_count, const build_run_hooks *hooks)
{
	pool p = { ctx, NULL, 0, getpid(), NULL, NULL, NULL, 0, 0 };
	size_t queued, next = 0;
	size_t *order = dispatch_order(&ctx->plan, &queued);
	bool stopped = false;

	if (!order)
		return false;
	if (worker_count > queued)
		worker_count = (unsigned)queued;
	if (worker_count == 0) {
		free(order);
		return true;
	}
	/* One source, read by an importer of animc's own (not a third-party
	 * reader that may crash or loop): compile it here.  A per-file make
	 * rule over an XML source then starts no process. */
	if (queued == 1 && is_safe_in_process(&ctx->plan.jobs[order[0]])) {
		/* The cache first, as for a worker. */
		for (;;) {
			double wait_s = 1;
			bool is_waiting = false;
			struct pollfd fd;

			if (next_to_compile(ctx, order, queued, &next, true, &wait_s, &is_waiting, hooks) != SIZE_MAX)
				break;
			if (!is_waiting) {   /* a hit, settled */
				free(order);
				return !*ctx->stop_signal;
			}
			fd = (struct pollfd){ build_cache_fd(ctx), POLLIN, 0 };
			poll(&fd, 1, (int)(wait_s * 1000) + 1);
		}
		compile_here(ctx, order[0], hooks);
		free(order);
		return !*ctx->stop_signal;
	}
	p.mapping_size = sizeof *p.queue + worker_count * sizeof(worker_slot) + queued * sizeof(uint32_t);
	p.mapping = mmap(NULL, p.mapping_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	p.workers = calloc(worker_count, sizeof *p.workers);
	if (p.mapping == MAP_FAILED || !p.workers) {
		if (p.mapping != MAP_FAILED)
			munmap(p.mapping, p.mapping_size);
		free(p.workers);
		free(order);
		return false;
	}
	p.queue = p.mapping;
	p.positions = (uint32_t *)((worker_slot *)(p.queue + 1) + worker_count);
	p.count = worker_count;
	for (unsigned i = 0; i < worker_count; i++) {
		p.workers[i].slot = (worker_slot *)(p.queue + 1) + i;
		atomic_store(&p.workers[i].slot->position, IDLE);
		atomic_store(&p.workers[i].slot->importer_position, IDLE);
	}
	signal(SIGPIPE, SIG_IGN);
	/* Workers that sources compiled without a lookup will keep busy are
	 * forked before the first lookup, which has the cache's thread load
	 * libcurl: a fork during the load would wait for it
	 * (cli_cache_before_fork).
	 * The others as jobs come (none, when every source is a hit). */
	if (ctx->cache) {
		size_t local = 0;

		for (size_t k = 0; k < queued && local < worker_count; k++)
			local += ctx->plan.jobs[order[k]].skips_cache;
		for (unsigned i = 0; i < local; i++)
			if (!spawn(&p, &p.workers[i]))
				break;
	}
	while (next < queued || p.finished < atomic_load(&p.queue->tail)) {
		struct pollfd fds[1025];
		unsigned polled[1025], nfds = 0, worker_fds, alive = 0;
		double wait_s = 0.25, deadline_s;
		bool is_waiting = false, appended = false;
		uint32_t tail, untaken;

		if (*ctx->stop_signal) {
			stopped = true;
			break;
		}
		/* Fill the queue.  With no cache every job goes in at once; with
		 * one, a job goes in once its lookup has answered as a miss (a
		 * hit needs no worker), in dispatch order.  A lookup under way
		 * holds the jobs after it back; while the queue has a job for
		 * each worker, it costs no patience (build_cache_check). */
		while (next < queued) {
			size_t pick;
			bool is_worker_free;

			tail = atomic_load(&p.queue->tail);
			is_worker_free = tail - atomic_load(&p.queue->head) < worker_count;
			pick = next_to_compile(ctx, order, queued, &next, is_worker_free, &wait_s, &is_waiting, hooks);
			if (pick == SIZE_MAX)
				break;
			append(&p, pick);
			next++;
			appended = true;
		}
		if (appended)
			wake_workers(&p);
		tail = atomic_load(&p.queue->tail);
		untaken = tail - atomic_load(&p.queue->head);
		/* A worker for each job waiting, as many as asked for. */
		for (unsigned i = 0; i < p.count; i++)
			alive += p.workers[i].pid != 0;
		for (unsigned i = 0; i < p.count && alive < p.count && untaken > 0; i++) {
			if (p.workers[i].pid)
				continue;
			if (spawn(&p, &p.workers[i])) {
				alive++;
				continue;
			}
			if (alive)
				break;   /* those running take the jobs */
			/* No process at all: compile here. */
			{
				uint32_t head = atomic_load(&p.queue->head);

				atomic_store(&p.queue->head, head + 1);
				compile_here(ctx, p.positions[head], hooks);
				p.finished++;
			}
			break;
		}
		/* The last jobs were hits: nothing to wait for. */
		if (next == queued && p.finished == atomic_load(&p.queue->tail))
			break;
		deadline_s = check_deadlines(&p, hooks);
		if (deadline_s < wait_s)
			wait_s = deadline_s;
		for (unsigned i = 0; i < p.count; i++) {
			worker *w = &p.workers[i];

			if (!w->pid)
				continue;
			fds[nfds] = (struct pollfd){ w->result_fd, POLLIN, 0 };
			polled[nfds++] = i;
		}
		worker_fds = nfds;
		/* A free worker waits for a lookup: wake when one comes back. */
		if (is_waiting && build_cache_fd(ctx) >= 0)
			fds[nfds++] = (struct pollfd){ build_cache_fd(ctx), POLLIN, 0 };
		if (!nfds)
			continue;
		/* While the workers have plenty queued, results are taken in
		 * batches: a wake-up costs more than the result it brings. */
		if (next == queued && untaken >= 2 * (uint32_t)alive && wait_s > 0.002) {
			struct timespec nap = { 0, 2000000 };

			nanosleep(&nap, NULL);
			wait_s -= 0.002;
		}
		if (poll(fds, nfds, (int)(wait_s * 1000) + 1) < 0 && errno != EINTR)
			break;
		for (unsigned k = 0; k < worker_fds; k++) {
			worker *w = &p.workers[polled[k]];

			if (w->pid && (fds[k].revents & (POLLIN | POLLHUP | POLLERR)) && !drain(&p, w, hooks))
				reap(&p, w, false, hooks);
		}
		if (hooks && hooks->on_tick) {
			note_jobs_at_hand(&p);
			hooks->on_tick(hooks->user);
		}
	}
	if (stopped) {
		stop_all(&p);
	} else {
		/* Idle workers end once the queue is closed. */
		atomic_store(&p.queue->is_closed, 1);
		wake_workers(&p);
		for (unsigned i = 0; i < p.count; i++) {
			worker *w = &p.workers[i];

			if (!w->pid)
				continue;
			while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR)
				;
			close_worker(w);
		}
	}
	munmap(p.mapping, p.mapping_size);
	free(p.workers);
	free(order);
	return !stopped;
}
