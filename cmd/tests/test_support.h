/*
 * test_support.h - what the unit, CLI, golden and corpus tests share: test
 * groups gathered into one cmocka run (one summary line), file helpers,
 * running the animc binary, capturing diagnostics, the corpus location.
 * Tests run from the repository root (make test does so).
 */
#ifndef ANIMC_TEST_SUPPORT_H
#define ANIMC_TEST_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <animc/animc.h>
#include <animc/animrt.h>

/*
 * The tests of one file, registered before main() runs, so that a test
 * program is whatever test objects it links: `make units` links the unit
 * tests alone, `make test` everything.  The runner orders groups by file.
 */
typedef struct animc_test_group {
	const char *file;
	const struct CMUnitTest *tests;
	size_t count;
	struct animc_test_group *next;
} animc_test_group;

void test_group_register(animc_test_group *group);

#define ANIMC_TEST_GROUP(array)                                                          \
	static animc_test_group test_group_ = { __FILE__, array,                        \
						 sizeof(array) / sizeof((array)[0]), NULL }; \
	__attribute__((constructor)) static void test_group_register_(void)             \
	{                                                                                \
		test_group_register(&test_group_);                                       \
	}

/* ---------------------------------------------------------------- files */

/* The whole file, NUL-terminated beyond *size (size may be NULL); fails the
 * test when unreadable. */
uint8_t *test_read_file(const char *path, size_t *size);
bool test_write_file(const char *path, const void *data, size_t size);
bool test_file_exists(const char *path);
/* Calls of strcmp this program made since a test set it to 0: the test
 * program has a strcmp of its own in the C library's place, counting, so
 * that a test can tell how much comparing some work took. */
extern unsigned long test_strcmp_calls;

/* Does OUTDIR `out_dir` hold a build's running marker (.animc/running.*)? */
bool test_has_running_marker(const char *out_dir);
/* Do the files at a and b hold the same bytes (both must exist)? */
bool test_same_bytes(const char *a, const char *b);
/* A fresh, empty folder for one test under $ANIMC_BUILD/test-tmp; malloc()ed.
 * When the runner gives each test a process of its own it sets
 * test_current_name, and the folder goes under one of that test's, so tests
 * running at once never share one. */
char *test_tmpdir(const char *name);
extern const char *test_current_name;
/* Names of the entries of a folder that end with `suffix` (NULL: all but
 * dot-files), sorted; NULL-terminated, release with test_free_list. */
char **test_list_dir(const char *dir, const char *suffix);
void test_free_list(char **list);
/* Number of entries (recursively, files only) in a folder, dot-files
 * included, a build's state folder (.animc) left out. */
size_t test_count_files(const char *dir);
/* Fail the test unless |got - want| <= tolerance (NaN fails). */
void test_assert_near(double got, double want, double tolerance);

/* printf into a new malloc()ed string. */
char *test_format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* UTF-8 text as UTF-16 (big endian or little), after a byte-order mark when
 * `has_bom`, into a new malloc()ed buffer of *out_size bytes: a document as
 * an editor saves it as "Unicode".  Fails the test on bad UTF-8. */
uint8_t *test_utf16(const char *text, size_t size, bool is_big_endian, bool has_bom, size_t *out_size);
/* The same in UTF-32 (its mark FF FE 00 00 or 00 00 FE FF). */
uint8_t *test_utf32(const char *text, size_t size, bool is_big_endian, bool has_bom, size_t *out_size);

/* ------------------------------------------------------------ processes */

typedef struct test_run {
	int status;   /* exit status, or 128 + signal */
	char *out;    /* stdout, NUL-terminated */
	char *err;    /* stderr */
} test_run;

/* Run the animc under test ($ANIMC_BIN) with NULL-terminated arguments. */
test_run test_animc(const char *arg, ...);
/* Run argv[0] (searched in PATH) with NULL-terminated arguments. */
test_run test_exec(const char *arg, ...);
test_run test_execv(const char *const *argv);
/* The same with standard input read from the file `stdin_path` (NULL: this
 * process's). */
test_run test_execv_stdin(const char *const *argv, const char *stdin_path);
void test_run_release(test_run *run);
/* Fails the test at the caller's line unless `run` exited 0, showing its
 * exit status and output; releases it either way. */
#define test_run_ok(run) test_run_ok_at((run), __FILE__, __LINE__)
void test_run_ok_at(test_run run, const char *file, int line);
/* Run a shell command made as printf makes it; the test fails when it
 * does not exit 0. */
void test_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The path of the animc binary under test. */
const char *test_animc_path(void);

/* ----------------------------------------------- the original runtime */

#define TEST_FNA_CHECK "../shared/conformance/fna/check"

/*
 * `TEST_FNA_CHECK --play ANIMC PATHS...` (NULL-terminated files or folders).
 * The check calls a playback call that makes no progress for 0.3 s a hang;
 * on a loaded machine a thread kept off the CPU looks the same.  A real hang
 * (the original runtime's endless loops) comes back every time, so when
 * hangs are all the check found, the files that hung play again alone, up
 * to twice; the run fails only when one hangs each time.  Returns the first
 * run, its status set to 0 when the files that hung played on a later try
 * (their lines are appended to its output).
 */
test_run test_fna_play(const char *const *paths);
/* Why the check cannot run here (no TEST_FNA_CHECK, no mono on PATH), or
 * NULL when it can. */
const char *test_fna_missing(void);
/* Skip the current test, saying why, when the check cannot run here. */
#define TEST_NEEDS_FNA()                                                      \
	do {                                                                  \
		const char *missing_ = test_fna_missing();                    \
		if (missing_) {                                               \
			print_message("skipped: %s\n", missing_);            \
			skip();                                               \
		}                                                             \
	} while (0)

/* Skip the current test when it preloads a library of its own (a shim
 * that makes one C library call fail) under AddressSanitizer, whose
 * runtime must come first in the preload list. */
#if defined(__SANITIZE_ADDRESS__)
#define TEST_NEEDS_PRELOAD()                                                  \
	do {                                                                  \
		print_message("skipped: AddressSanitizer's runtime must come before a preloaded library\n"); \
		skip();                                                       \
	} while (0)
#else
#define TEST_NEEDS_PRELOAD() ((void)0)
#endif

/* --------------------------------------------------------------- corpus */

/* "../shared/corpus" when present, else NULL. */
const char *test_corpus_dir(void);
/* Skip the current test (saying so) when the corpus is absent. */
#define TEST_NEEDS_CORPUS()                                                   \
	do {                                                                  \
		if (!test_corpus_dir()) {                                     \
			print_message("skipped: corpus not found (../shared/corpus)\n"); \
			skip();                                               \
		}                                                             \
	} while (0)

/* ------------------------------------------------------------ servers */

/*
 * Debian's nginx on a free loopback port, serving a folder of its own under
 * `dir` (root/), one process that dies with the test process.  Locations:
 *   /          GET and WebDAV PUT (create_full_put_path on): a Bazel HTTP cache
 *   /ro/       the same folder, GET only (a PUT answers 405)
 *   /auth/     GET and PUT of its own folder (root/auth/), basic
 *              authentication of `user` and `password` (when given)
 * Requests are logged to dir/access.log as "METHOD URI STATUS" lines.
 * test_nginx_start skips the test when nginx is not installed.
 */
typedef struct test_nginx {
	char *dir;      /* its folder: nginx.conf, logs */
	char *root;     /* what it serves */
	char *url;      /* "http://127.0.0.1:PORT" */
	int port;
	int pid;        /* 0 once stopped */
} test_nginx;

void test_nginx_start(test_nginx *server, const char *dir, const char *user, const char *password);
/* Stop it (SIGTERM, then SIGKILL) and wait for it; safe to call twice. */
void test_nginx_stop(test_nginx *server);
void test_nginx_release(test_nginx *server);
/* Requests the server logged whose "METHOD URI STATUS" line starts with
 * `prefix` ("GET /ac/"). */
size_t test_nginx_count_requests(const test_nginx *server, const char *prefix);
/* A cmocka teardown stopping every server this process started and has not
 * stopped: it runs when a test fails too. */
int test_nginx_teardown(void **state);
/* A loopback port nothing listens on at the time of the call. */
int test_free_port(void);

/* ---------------------------------------------------------- diagnostics */

typedef struct test_diag {
	animc_severity severity;
	uint32_t line, column;
	int64_t byte_offset;
	char *message;
	const char *kind;   /* the warning kind's name (static), or NULL */
} test_diag;

typedef struct test_diags {
	test_diag *items;
	size_t count, capacity;
	bool echo;   /* also print them (for debugging a test) */
} test_diags;

/* The status a hostile fixture's expected.txt names: parse, invalid, limit,
 * unsupported, io, argument (an unknown name fails the test). */
animc_status test_status_named(const char *name);

/* Import a file through the importer that recognises it (which must be
 * `want` when not NULL) and process its clips as `animc build` does; the
 * diagnostics go to `diags`.  A failed import leaves no clip behind. */
struct animc_importer;
animc_status test_compile_file(const char *path, test_diags *diags, const struct animc_importer *want);

/* A sink collecting into `diags`. */
animc_diag_sink test_diag_sink(test_diags *diags, const char *path);
/* The first diagnostic of a severity, or NULL. */
const test_diag *test_diags_first(const test_diags *diags, animc_severity severity);
size_t test_diags_count(const test_diags *diags, animc_severity severity);
void test_diags_release(test_diags *diags);


/* ------------------------------------------------------------ clip building */

/* Add a channel: key_count keys at `times` (NULL: uniform at interval_s). */
uint32_t test_add_channel(animc_clip *clip, const char *bone, uint32_t key_count, const float *times,
			  float interval_s, float duration_s);
/* Give channel `ch` a track of `count` values (copied) on its timeline; NULL
 * times = on the channel timeline, else its own key times. */
void test_set_track(animc_clip *clip, uint32_t ch, animc_track_kind kind, bool is_fixed,
		    const float *values, uint32_t count, const float *times);

/* The sequence of `bone` in a loaded clip; fails the test when it has none. */
const animrt_sequence *test_sequence_of(const animrt_clip *clip, const char *bone);

/* ------------------------------------------------------- runtime error */

/* The worst difference between two compiled clips sampled by libanimrt
 * (Once), per track kind: translation distance, rotation angle in degrees,
 * scale largest component difference. */
typedef struct test_error {
	double translation, rotation_deg, scale;
	size_t samples;   /* bone samples compared */
} test_error;

/* Load `source` and `compiled` (.xnb bytes of one clip, the same bones) and
 * compare them at 60 Hz from 0 to the duration, at every key time of every
 * sequence of the source, at each grid sample of a compact `compiled`, and
 * at `extra_hz` (0: none) over the same span;
 * fails the test when either does not load or their bones differ. */
test_error test_compare_compiled(const uint8_t *source, size_t source_size, const uint8_t *compiled,
				 size_t compiled_size, double extra_hz);

/* The same for two compiled files; with is_smaller, the compiled one must
 * also take fewer bytes than the source. */
test_error test_compare_files(const char *source, const char *compiled, double extra_hz, bool is_smaller);

/* The same for one clip model: written losslessly (the source) and as
 * `processed` is now (animc_xnb_write with default options). */
test_error test_compare_clips(const animc_clip *source, const animc_clip *processed, double extra_hz);

/* The unit quaternion (x y z w) turning angle_rad about the axis (ax, ay,
 * az), which need not be of unit length. */
void test_axis_angle(float out[4], double ax, double ay, double az, double angle_rad);

#endif
