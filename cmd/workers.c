/*
 * workers.c - compiles jobs in long-lived worker processes.  Each worker is
 * forked once (after the plan, so it knows every job), reads job numbers
 * from a pipe, compiles each (compile.c) and sends back the whole result
 * as one record.  A worker is where third-party readers that can crash or
 * loop run: one that dies, or runs past --import-timeout, fails that job
 * alone and is replaced.  Workers die with the build (PR_SET_PDEATHSIG), run
 * under an address-space cap (--memory-limit), and their stdout and stderr
 * (a reader's own messages, libc's "double free") go to a memory file that
 * becomes diagnostics naming the file at hand.
 *
 * Records: u32 length, u8 kind, then the body.  Kind 'B' (the importer a
 * job uses, once probed), 'R' (the job's result, result.c's encoding).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "build.h"

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

typedef struct worker {
	pid_t pid;            /* 0: not running */
	int job_fd, result_fd, capture_fd;
	size_t job;           /* the job at hand; SIZE_MAX when idle */
	size_t next_job;      /* sent to it already, to start after; SIZE_MAX: none */
	double deadline_s;    /* 0: none */
	uint8_t *buf;
	size_t used, capacity;
} worker;

typedef struct pool {
	build_ctx *ctx;
	worker *workers;
	unsigned count;
	pid_t parent;
	size_t *retry;          /* jobs to send again (their worker died first) */
	unsigned retry_count;
} pool;

static bool read_all(int fd, void *data, size_t size)
{
	uint8_t *p = data;

	while (size) {
		ssize_t n = read(fd, p, size);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		p += n;
		size -= (size_t)n;
	}
	return true;
}

/* One record: its length and kind, then its body, in one system call when
 * the pipe takes it whole (a call costs more than a small record). */
static bool send_record(int fd, char kind, const void *body, size_t size)
{
	uint32_t length = (uint32_t)size + 1;
	uint8_t head[5];
	struct iovec parts[2] = { { head, sizeof head }, { (void *)(uintptr_t)body, size } };
	ssize_t n;

	if (size >= RECORD_BYTES_MAX)
		return false;
	memcpy(head, &length, 4);
	head[4] = (uint8_t)kind;
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
	int result_fd;
} worker_self;

static void tell_importer(void *user, const char *importer)
{
	worker_self *self = user;

	send_record(self->result_fd, 'B', importer, strlen(importer));
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
	worker_self self = { w->result_fd };
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
			close(other->job_fd);
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
		uint32_t index;
		build_result r;
		uint8_t *record;
		size_t size;

		if (!read_all(w->job_fd, &index, 4) || index >= ctx->plan.count)
			_exit(0);
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
		if (!send_record(w->result_fd, 'R', record, size))
			_exit(1);
		free(record);
	}
}

/* ------------------------------------------------------------ the parent */

static void close_worker(worker *w)
{
	if (w->job_fd >= 0)
		close(w->job_fd);
	close(w->result_fd);
	close(w->capture_fd);
	free(w->buf);
	memset(w, 0, sizeof *w);
	w->job = SIZE_MAX;
	w->next_job = SIZE_MAX;
}

static bool spawn(pool *p, worker *w)
{
	int job[2], result[2], capture;
	pid_t pid;

	capture = memfd_create("animc-worker-output", MFD_CLOEXEC);
	if (capture < 0)
		return false;
	if (fcntl(capture, F_SETFL, O_APPEND) != 0 || pipe2(job, O_CLOEXEC) != 0) {
		close(capture);
		return false;
	}
	if (pipe2(result, O_CLOEXEC) != 0) {
		close(capture);
		close(job[0]);
		close(job[1]);
		return false;
	}
	fflush(stdout);
	fflush(stderr);
	cli_cache_before_fork(p->ctx->cache);
	pid = fork();
	if (pid != 0)
		cli_cache_after_fork(p->ctx->cache);
	if (pid < 0) {
		close(capture);
		close(job[0]);
		close(job[1]);
		close(result[0]);
		close(result[1]);
		return false;
	}
	if (pid == 0) {
		close(job[1]);
		close(result[0]);
		w->job_fd = job[0];
		w->result_fd = result[1];
		w->capture_fd = capture;
		worker_main(p, w);
	}
	close(job[0]);
	close(result[1]);
	fcntl(result[0], F_SETFL, O_NONBLOCK);
	w->pid = pid;
	w->job_fd = job[1];
	w->result_fd = result[0];
	w->capture_fd = capture;
	w->job = SIZE_MAX;
	w->next_job = SIZE_MAX;
	w->used = 0;
	return true;
}

/* The job of a worker that died or was stopped: failed, saying why. */
static void fail_job(pool *p, worker *w, int status, bool timed_out)
{
	build_job *j = &p->ctx->plan.jobs[w->job];
	build_result *r = &j->result;
	const char *importer = j->importer_at_work[0] ? j->importer_at_work : NULL;
	char *captured = malloc(CAPTURE_BYTES_MAX + 1);
	size_t size = captured ? read_capture(w->capture_fd, captured, CAPTURE_BYTES_MAX) : 0;
	bool out_of_memory = false;

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
	r->time_s = build_now_s() - j->started_s;
	j->is_done = true;
	p->ctx->lost_workers = true;
}

/* Start the job sent after the one that ended, or go idle. */
static void advance(pool *p, worker *w)
{
	w->job = w->next_job;
	w->next_job = SIZE_MAX;
	w->deadline_s = 0;
	if (w->job != SIZE_MAX) {
		build_job *j = &p->ctx->plan.jobs[w->job];

		j->started_s = build_now_s();
		j->importer_at_work[0] = '\0';
		if (p->ctx->options->import_timeout_s > 0)
			w->deadline_s = j->started_s + p->ctx->options->import_timeout_s;
	}
}

static void reap(pool *p, worker *w, bool timed_out, const build_run_hooks *hooks)
{
	int status = 0;

	/* A job sent but not started goes to another worker. */
	if (w->next_job != SIZE_MAX && p->retry_count < p->count)
		p->retry[p->retry_count++] = w->next_job;
	w->next_job = SIZE_MAX;

	if (timed_out)
		kill(w->pid, SIGKILL);
	while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
		;
	if (w->job != SIZE_MAX) {
		size_t job = w->job;

		fail_job(p, w, status, timed_out);
		if (hooks && hooks->on_done)
			hooks->on_done(hooks->user, job);
	}
	close_worker(w);
}

/* Take the records a worker has sent; false when it is gone. */
static bool drain(pool *p, worker *w, const build_run_hooks *hooks)
{
	bool is_open = true;

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
		uint32_t length;
		size_t whole;

		if (w->used < 5)
			return is_open;
		memcpy(&length, w->buf, 4);
		if (length == 0 || length > RECORD_BYTES_MAX)
			return false;
		whole = (size_t)length + 4;
		if (w->used < whole)
			return is_open;
		if (w->job == SIZE_MAX)
			return false;   /* a record nobody asked for */
		if (w->buf[4] == 'B') {
			build_job *j = &p->ctx->plan.jobs[w->job];
			size_t n = length - 1 < sizeof j->importer_at_work - 1 ? length - 1 :
										  sizeof j->importer_at_work - 1;

			memcpy(j->importer_at_work, w->buf + 5, n);
			j->importer_at_work[n] = '\0';
		} else if (w->buf[4] == 'R') {
			build_job *j = &p->ctx->plan.jobs[w->job];
			size_t job = w->job;

			if (!build_result_decode(w->buf + 5, length - 1, &j->result))
				return false;
			j->is_done = true;
			advance(p, w);
			if (hooks && hooks->on_done)
				hooks->on_done(hooks->user, job);
		} else {
			return false;
		}
		memmove(w->buf, w->buf + whole, w->used - whole);
		w->used -= whole;
	}
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
 * next one's lookup is worth waiting for (*is_waiting set, *wait_s
 * lowered).  Does not take the job: the caller moves *next on. */
static size_t next_to_compile(build_ctx *ctx, const size_t *order, size_t queued, size_t *next,
			      double *wait_s, bool *is_waiting, const build_run_hooks *hooks)
{
	while (*next < queued) {
		size_t index = order[*next];
		double cache_wait_s = 0;

		build_cache_ahead(ctx, order, queued, *next);
		switch (build_cache_check(ctx, index, &cache_wait_s)) {
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

bool build_run(build_ctx *ctx, unsigned worker_count, const build_run_hooks *hooks)
{
	pool p = { ctx, NULL, 0, getpid(), NULL, 0 };
	size_t queued, next = 0, busy = 0;
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
		build_job *j = &ctx->plan.jobs[order[0]];

		/* The cache first, as for a worker. */
		for (;;) {
			double wait_s = 1;
			bool is_waiting = false;
			struct pollfd fd;

			if (next_to_compile(ctx, order, queued, &next, &wait_s, &is_waiting, hooks) != SIZE_MAX)
				break;
			if (!is_waiting) {   /* a hit, settled */
				free(order);
				return !*ctx->stop_signal;
			}
			fd = (struct pollfd){ build_cache_fd(ctx), POLLIN, 0 };
			poll(&fd, 1, (int)(wait_s * 1000) + 1);
		}
		j->started_s = build_now_s();
		if (hooks && hooks->on_started)
			hooks->on_started(hooks->user, order[0]);
		build_compile(ctx, j, &j->result);
		if (ctx->command == CMD_BUILD)
			build_stage_outputs(ctx, j, &j->result);
		j->is_done = true;
		if (hooks && hooks->on_done)
			hooks->on_done(hooks->user, order[0]);
		free(order);
		return !*ctx->stop_signal;
	}
	p.workers = calloc(worker_count, sizeof *p.workers);
	p.retry = calloc(worker_count, sizeof *p.retry);
	if (!p.workers || !p.retry) {
		free(p.workers);
		free(p.retry);
		free(order);
		return false;
	}
	p.count = worker_count;
	for (unsigned i = 0; i < worker_count; i++) {
		p.workers[i].job = SIZE_MAX;
		p.workers[i].next_job = SIZE_MAX;
	}
	signal(SIGPIPE, SIG_IGN);
	while (next < queued || p.retry_count || busy) {
		struct pollfd fds[1025];
		unsigned polled[1025], nfds = 0;
		double now, wait_s = 0.25;
		bool is_waiting = false;

		if (*ctx->stop_signal) {
			stopped = true;
			break;
		}
		for (unsigned i = 0; i < p.count && (next < queued || p.retry_count); i++) {
			worker *w = &p.workers[i];
			build_job *j;
			uint32_t index;

			if (w->pid && w->job != SIZE_MAX) {
				/* Send the next job ahead, so that the worker does not
				 * wait for this process between small jobs; not behind a
				 * job that took long before, and not near the end, where
				 * a job waiting behind a slow one would end the run late. */
				const build_job *head = &ctx->plan.jobs[w->job];
				size_t left = queued - next;

				size_t pick;

				if (w->next_job != SIZE_MAX || p.retry_count || left <= 2 * (size_t)p.count ||
				    (head->previous && head->previous->time_s >= 0.1) || head->size >= (64u << 10))
					continue;
				pick = next_to_compile(ctx, order, queued, &next, &wait_s, &is_waiting, hooks);
				if (pick == SIZE_MAX)
					continue;
				index = (uint32_t)pick;
				if (!cli_write_all(w->job_fd, &index, 4))
					continue;   /* the worker is gone: poll says so */
				next++;
				w->next_job = index;
				continue;
			}
			/* A job for a free worker: the cache settles hits first. */
			if (!p.retry_count) {
				size_t pick = next_to_compile(ctx, order, queued, &next, &wait_s, &is_waiting, hooks);

				if (pick == SIZE_MAX)
					break;
			}
			if (!w->pid && !spawn(&p, w)) {
				bool any = false;

				for (unsigned k = 0; k < p.count; k++)
					any |= p.workers[k].pid != 0;
				if (any)
					continue;   /* try again when one is free */
				/* No process at all: compile here. */
				j = &ctx->plan.jobs[p.retry_count ? p.retry[--p.retry_count] : order[next++]];
				j->started_s = build_now_s();
				if (hooks && hooks->on_started)
					hooks->on_started(hooks->user, (size_t)(j - ctx->plan.jobs));
				build_compile(ctx, j, &j->result);
				if (ctx->command == CMD_BUILD)
					build_stage_outputs(ctx, j, &j->result);
				j->is_done = true;
				if (hooks && hooks->on_done)
					hooks->on_done(hooks->user, (size_t)(j - ctx->plan.jobs));
				continue;
			}
			index = (uint32_t)(p.retry_count ? p.retry[p.retry_count - 1] : order[next]);
			j = &ctx->plan.jobs[index];
			if (!cli_write_all(w->job_fd, &index, 4)) {
				reap(&p, w, false, NULL);
				continue;
			}
			if (p.retry_count)
				p.retry_count--;
			else
				next++;
			w->job = index;
			j->started_s = build_now_s();
			j->importer_at_work[0] = '\0';
			w->deadline_s = ctx->options->import_timeout_s > 0 ?
						j->started_s + ctx->options->import_timeout_s : 0;
			if (hooks && hooks->on_started)
				hooks->on_started(hooks->user, index);
		}
		now = build_now_s();
		for (unsigned i = 0; i < p.count; i++) {
			worker *w = &p.workers[i];

			if (!w->pid || w->job == SIZE_MAX)
				continue;
			if (w->deadline_s && w->deadline_s - now < wait_s)
				wait_s = w->deadline_s - now < 0 ? 0 : w->deadline_s - now;
			fds[nfds] = (struct pollfd){ w->result_fd, POLLIN, 0 };
			polled[nfds++] = i;
		}
		busy = nfds;
		/* A free worker waits for a lookup: wake when one comes back. */
		if (is_waiting && build_cache_fd(ctx) >= 0)
			fds[nfds++] = (struct pollfd){ build_cache_fd(ctx), POLLIN, 0 };
		if (!nfds)
			continue;
		if (poll(fds, nfds, (int)(wait_s * 1000) + 1) < 0 && errno != EINTR)
			break;
		for (unsigned k = 0; k < busy; k++) {
			worker *w = &p.workers[polled[k]];

			if ((fds[k].revents & (POLLIN | POLLHUP | POLLERR)) && !drain(&p, w, hooks))
				reap(&p, w, false, hooks);
		}
		now = build_now_s();
		busy = 0;
		for (unsigned i = 0; i < p.count; i++) {
			worker *w = &p.workers[i];

			if (w->pid && w->job != SIZE_MAX && w->deadline_s && now >= w->deadline_s)
				reap(&p, w, true, hooks);
			busy += w->pid && w->job != SIZE_MAX;
		}
		if (hooks && hooks->on_tick)
			hooks->on_tick(hooks->user);
	}
	if (stopped) {
		stop_all(&p);
	} else {
		/* Idle workers end when their job pipe closes. */
		for (unsigned i = 0; i < p.count; i++) {
			worker *w = &p.workers[i];

			if (!w->pid)
				continue;
			close(w->job_fd);
			w->job_fd = -1;
			while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR)
				;
			close_worker(w);
		}
	}
	free(p.workers);
	free(p.retry);
	free(order);
	return !stopped;
}
