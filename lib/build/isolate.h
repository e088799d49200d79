/*
 * isolate.h - one function run in a child process, under a time limit and
 * an address-space cap, its bytes taken back: for commands that import a
 * source outside the build's worker pool (animc plot), so that a reader
 * that loops, crashes or runs out of memory on a file fails that command
 * with a message instead of hanging or killing it.  The build's workers
 * (workers.c) apply the same cap.
 */
#ifndef ANIMC_BUILD_ISOLATE_H
#define ANIMC_BUILD_ISOLATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum build_isolated_status {
	BUILD_ISOLATED_OK,         /* the function returned its bytes */
	BUILD_ISOLATED_FAILED,     /* it returned false (it said why, on stderr) */
	BUILD_ISOLATED_TIMED_OUT,  /* it ran past the time limit and was stopped */
	BUILD_ISOLATED_CRASHED,    /* the child died of a signal (*detail) */
	BUILD_ISOLATED_SYSTEM,     /* no child could be started (errno), or it ended
				    * without a result (errno EPROTO, *detail its exit
				    * status: a sanitizer's report, say) */
	BUILD_ISOLATED_UNSENT      /* its write of the result failed (*detail the errno) */
} build_isolated_status;

/* Runs in the child: true with *bytes (malloc'd, *size of them), or false
 * after reporting the failure on stderr. */
typedef bool (*build_isolated_fn)(void *user, uint8_t **bytes, size_t *size);

/*
 * Run fn(user) in a forked child that dies with this process, with its
 * address space capped at memory_bytes (0: no cap) and stopped after
 * timeout_s seconds (0: no limit); its stderr is this process's.  On
 * BUILD_ISOLATED_OK, *bytes (malloc'd) and *size hold what it returned.
 */
build_isolated_status build_run_isolated(build_isolated_fn fn, void *user, double timeout_s, uint64_t memory_bytes,
					 uint8_t **bytes, size_t *size, int *detail);

/*
 * What a child that ended without a result is said as, `importer` the
 * reader at work and `doing` what the child did ("importing this file"):
 * for BUILD_ISOLATED_UNSENT that it could not send its result, with the
 * error; for BUILD_ISOLATED_SYSTEM with errno EPROTO its exit status (in
 * a build under AddressSanitizer, whose report of an error ends a process
 * so, that it failed), `doing` said there too unless NULL.  malloc()ed;
 * NULL when out of memory.
 */
char *build_isolated_end_said(build_isolated_status status, int detail, const char *importer, const char *doing);

/* An error an import gave when it ran out of memory (a C++ reader's
 * std::bad_alloc, "out of memory", the dynamic loader unable to map the
 * Assimp library), said plainly and naming --memory-limit when
 * memory_bytes capped it: malloc()ed; NULL when `message` is no such error
 * (or says it plainly already).  A source whose import read read_bytes
 * (its own and the files beside it it reads; 0: not known) far fewer than
 * the cap is said to be likely damaged: a count in its header past what it
 * holds makes a reader ask for that much. */
char *build_memory_message(const char *message, uint64_t memory_bytes, uint64_t read_bytes);

/* The cap on a worker's memory: --memory-limit's `option_bytes`, or, when
 * the address-space limit this process was started with (ulimit -v, a
 * container's) is lower and the option cannot raise it, that one.  `by`
 * names it for a message: "--memory-limit" or "ulimit -v".  bytes 0: no
 * cap. */
typedef struct build_memory_cap {
	uint64_t bytes;
	const char *by;
} build_memory_cap;

build_memory_cap build_memory_cap_of(uint64_t option_bytes);

/*
 * Whether the --skeleton model at `path` (its bytes, `data`) loads to an
 * end in a child under the limits, when its importer is one a build runs
 * in worker processes (Assimp, which crashes on some damaged files): the
 * model is loaded in the command's own process, which such a crash would
 * end.  A load that fails normally counts as ending (the caller's own load
 * says why).  False with *why (malloc()ed) saying what happened.
 */
bool build_model_loads(const char *path, const uint8_t *data, size_t size, double timeout_s, uint64_t memory_bytes,
		       char **why);

/* Cap this process's address space (RLIMIT_AS) at `bytes` (0: no cap; no
 * cap under AddressSanitizer, which reserves terabytes). */
void build_limit_memory(uint64_t bytes);

#endif
