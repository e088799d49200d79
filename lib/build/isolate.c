/*
 * isolate.c - build_run_isolated (isolate.h).  The child writes a u64
 * (little endian) on a pipe, the length of the bytes that follow, or
 * FAILED_MARK when the function failed, and exits 0; any other end (a
 * signal, a sanitizer's exit status, no record) is not the function's.
 * A child whose write to the pipe fails leaves the error in a word of
 * memory it shares with the parent, and exits 1.
 * The parent reads the pipe as it fills, against the deadline, and kills
 * a child past it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <animc/animc_formats.h>

#include "clock.h"
#include "fs.h"
#include "isolate.h"

#define FAILED_MARK UINT64_MAX

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

void build_limit_memory(uint64_t bytes)
{
#ifndef UNDER_ASAN
	struct rlimit limit = { (rlim_t)bytes, (rlim_t)bytes };

	if (bytes)
		setrlimit(RLIMIT_AS, &limit);
#else
	(void)bytes;
#endif
}

build_memory_cap build_memory_cap_of(uint64_t option_bytes)
{
	build_memory_cap cap = { option_bytes, "--memory-limit" };
	struct rlimit limit;

	/* Over the hard limit, build_limit_memory's setrlimit failed: the
	 * soft limit inherited is what holds. */
	if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY &&
	    (!option_bytes || (limit.rlim_max != RLIM_INFINITY && (uint64_t)limit.rlim_max < option_bytes))) {
		cap.bytes = (uint64_t)limit.rlim_cur;
		cap.by = "ulimit -v";
	}
	return cap;
}

char *build_memory_message(const char *message, uint64_t memory_bytes, uint64_t read_bytes)
{
	build_memory_cap cap = build_memory_cap_of(memory_bytes);
	char *said = NULL;
	/* Readers need some times a file's size, not a thousand times. */
	bool is_tiny = read_bytes && cap.bytes && read_bytes <= cap.bytes / 1024;

	if (strstr(message, "ran out of memory"))
		return NULL;
	if (strstr(message, "failed to map segment") && cap.bytes) {
		if (asprintf(&said, "the memory limit of %llu MiB (%s) is too small to load the Assimp "
			     "library; give more", (unsigned long long)(cap.bytes >> 20), cap.by) < 0)
			said = NULL;
	} else if (strstr(message, "bad_alloc") || strstr(message, "out of memory")) {
		if (is_tiny && asprintf(&said, "ran out of memory: the import of this %llu-byte file needs more than the "
					"limit of %llu MiB (%s), far more than its size calls for; a count in "
					"it past what it holds (a damaged file) is the likely cause",
					(unsigned long long)read_bytes, (unsigned long long)(cap.bytes >> 20), cap.by) < 0)
			said = NULL;
		else if (!is_tiny && cap.bytes &&
			 asprintf(&said, "ran out of memory: the import needs more than the limit of %llu MiB "
				  "(%s)", (unsigned long long)(cap.bytes >> 20), cap.by) < 0)
			said = NULL;
		else if (!cap.bytes)
			said = strdup("ran out of memory");
	}
	return said;
}

static _Noreturn void child_main(int fd, pid_t parent, build_isolated_fn fn, void *user, uint64_t memory_bytes,
				 int *send_error)
{
	uint8_t *bytes = NULL, head[8];
	size_t size = 0;

	/* Die with the command, even when it is SIGKILLed. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	signal(SIGPIPE, SIG_IGN);
	/* What the function prints just before it crashes reaches stderr. */
	setvbuf(stderr, NULL, _IONBF, 0);
	build_limit_memory(memory_bytes);
	bool ok = fn(user, &bytes, &size);
	uint64_t mark = ok ? (uint64_t)size : FAILED_MARK;

	for (int i = 0; i < 8; i++)
		head[i] = (uint8_t)(mark >> (8 * i));
	errno = 0;
	if (cli_write_all(fd, head, sizeof head) && (!ok || cli_write_all(fd, bytes, size)))
		_exit(0);
	if (send_error)
		*send_error = errno ? errno : EIO;   /* a write of nothing: no errno */
	_exit(1);
}

/* Append what fd has to *buf; false at end of file or on an error. */
static bool read_some(int fd, uint8_t **buf, size_t *len, size_t *cap)
{
	if (*cap - *len < 65536) {
		size_t want = *cap ? *cap * 2 : 65536;
		uint8_t *grown = realloc(*buf, want);

		if (!grown)
			return false;
		*buf = grown;
		*cap = want;
	}
	ssize_t n = read(fd, *buf + *len, *cap - *len);

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return true;
	if (n <= 0)
		return false;
	*len += (size_t)n;
	return true;
}

/* What the child's end (`status`, the `len` bytes it sent in `buf`,
 * `send_error` its failed write's errno or 0) came to; takes buf. */
static build_isolated_status child_outcome(int status, uint8_t *buf, size_t len, int send_error, uint8_t **bytes,
					   size_t *size, int *detail)
{
	uint64_t n = 0;

	if (WIFSIGNALED(status)) {
		free(buf);
		*detail = WTERMSIG(status);
		return BUILD_ISOLATED_CRASHED;
	}
	for (int i = 0; i < 8 && len >= 8; i++)
		n |= (uint64_t)buf[i] << (8 * i);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && len == 8 && n == FAILED_MARK) {
		free(buf);
		return BUILD_ISOLATED_FAILED;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || len < 8 || n != len - 8) {
		free(buf);
		if (WIFEXITED(status) && WEXITSTATUS(status) == 1 && send_error) {
			*detail = send_error;
			return BUILD_ISOLATED_UNSENT;
		}
		*detail = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
		errno = EPROTO;
		return BUILD_ISOLATED_SYSTEM;
	}
	memmove(buf, buf + 8, (size_t)n);
	*bytes = buf;
	*size = (size_t)n;
	return BUILD_ISOLATED_OK;
}

/* Read the child's pipe `fd` into *buf until it ends, or the deadline
 * passes (true in *timed_out), or poll fails (its errno in *poll_error;
 * the child then killed). */
static void read_child(int fd, pid_t pid, double timeout_s, uint8_t **buf, size_t *len, bool *timed_out,
		       int *poll_error)
{
	double deadline = build_now_s() + timeout_s;
	size_t cap = 0;

	for (unsigned resumes = build_clock_resumes();;) {
		struct pollfd pfd = { fd, POLLIN, 0 };
		int wait_ms = -1;

		if (resumes != build_clock_resumes()) {
			resumes = build_clock_resumes();   /* stopped and continued: not the child's time */
			deadline = build_now_s() + timeout_s;
		}
		if (timeout_s > 0) {
			double left = deadline - build_now_s();

			if (left <= 0) {
				*timed_out = true;
				break;
			}
			wait_ms = left > 3600 ? 3600000 : (int)(left * 1000) + 1;
		}
		int ready = poll(&pfd, 1, wait_ms);

		if (ready < 0 && errno == EINTR)
			continue;
		if (ready < 0) {
			/* No way left to wait for the deadline: stop the child rather than hang on it. */
			*poll_error = errno;
			kill(pid, SIGKILL);
			break;
		}
		if (ready > 0 && !read_some(fd, buf, len, &cap))
			break;
	}
}

build_isolated_status build_run_isolated(build_isolated_fn fn, void *user, double timeout_s, uint64_t memory_bytes,
					 uint8_t **bytes, size_t *size, int *detail)
{
	int fds[2], status = 0, poll_error = 0, send_error = 0;
	pid_t parent = getpid(), pid;
	uint8_t *buf = NULL;
	size_t len = 0;
	bool timed_out = false;
	/* Where the child leaves the error of a result it could not send:
	 * without it (no memory), that end is said as one without a result. */
	int *shared = mmap(NULL, sizeof *shared, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	*bytes = NULL;
	*size = 0;
	*detail = 0;
	if (shared == MAP_FAILED)
		shared = NULL;
	else
		*shared = 0;
	if (pipe2(fds, O_CLOEXEC) != 0) {
		int e = errno;

		if (shared)
			munmap(shared, sizeof *shared);
		errno = e;
		return BUILD_ISOLATED_SYSTEM;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(fds[0]);
		close(fds[1]);
		if (shared)
			munmap(shared, sizeof *shared);
		errno = e;
		return BUILD_ISOLATED_SYSTEM;
	}
	if (pid == 0) {
		close(fds[0]);
		child_main(fds[1], parent, fn, user, memory_bytes, shared);
	}
	close(fds[1]);
	read_child(fds[0], pid, timeout_s, &buf, &len, &timed_out, &poll_error);
	close(fds[0]);
	if (timed_out)
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (shared) {
		send_error = *shared;
		munmap(shared, sizeof *shared);
	}
	if (timed_out || poll_error) {
		free(buf);
		errno = poll_error;
		return timed_out ? BUILD_ISOLATED_TIMED_OUT : BUILD_ISOLATED_SYSTEM;
	}
	return child_outcome(status, buf, len, send_error, bytes, size, detail);
}

char *build_isolated_end_said(build_isolated_status status, int detail, const char *importer, const char *doing)
{
	char *said = NULL;
	const char *space = doing ? " " : "";
	int n;

	if (status == BUILD_ISOLATED_UNSENT)
		n = asprintf(&said, "the process %s could not send its result (%s)", doing ? doing : "of the import",
			     strerror(detail));
	else
#ifdef UNDER_ASAN
		n = asprintf(&said, "the %s importer failed%s%s: its process ended with exit status %d and no "
			     "result, as AddressSanitizer (in this build) ends a process it finds an error in",
			     importer, space, doing ? doing : "", detail);
#else
		n = asprintf(&said, "the %s importer ended without a result%s%s (exit status %d)", importer, space,
			     doing ? doing : "", detail);
#endif
	return n < 0 ? NULL : said;
}

typedef struct model_trial {
	const char *path;
	const uint8_t *data;
	size_t size;
} model_trial;

/* In the child: the model loaded and let go, its messages to nowhere (the
 * command's own load says them). */
static bool load_model_alone(void *user, uint8_t **bytes, size_t *size)
{
	const model_trial *t = user;
	animc_skeleton model = { 0 };
	animc_diag_sink quiet = { 0 };
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

	if (null >= 0) {
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
		close(null);
	}
	(void)animc_skeleton_load_bytes(t->path, t->data, t->size, NULL, &model, &quiet);
	animc_skeleton_release(&model);
	*bytes = malloc(1);
	*size = 1;
	return *bytes != NULL;
}

bool build_model_loads(const char *path, const uint8_t *data, size_t size, double timeout_s, uint64_t memory_bytes,
		       char **why)
{
	const animc_importer *importer = animc_importer_find(path, data, size);
	model_trial trial = { path, data, size };
	uint8_t *bytes = NULL;
	size_t got = 0;
	int detail = 0, n = -1;

	*why = NULL;
	if (!importer || !importer->needs_isolation)
		return true;
	build_isolated_status ran = build_run_isolated(load_model_alone, &trial, timeout_s, memory_bytes, &bytes, &got,
						       &detail);

	switch (ran) {
	case BUILD_ISOLATED_OK:
	case BUILD_ISOLATED_FAILED:
		free(bytes);
		return true;
	case BUILD_ISOLATED_TIMED_OUT:
		n = asprintf(why, "the %s importer did not finish reading the model within %g s (--import-timeout); "
			     "stopped", importer->name, timeout_s);
		break;
	case BUILD_ISOLATED_CRASHED:
		n = asprintf(why, "the %s importer crashed on this model (%s)", importer->name,
			     strsignal(detail));
		break;
	case BUILD_ISOLATED_SYSTEM:
		if (errno != EPROTO) {
			n = asprintf(why, "cannot start reading the model: %s", strerror(errno));
			break;
		}
		/* fall through */
	case BUILD_ISOLATED_UNSENT:
		*why = build_isolated_end_said(ran, detail, importer->name, "reading this model");
		return false;
	}
	if (n < 0)
		*why = NULL;
	return false;
}
