/*
 * build_failures_test.c - animc build when what it writes or reads fails
 * it: a source one of whose outputs cannot be put in place, a journal that
 * cannot be written, a file-size limit, a build stopped and resumed,
 * special files where a source or a sidecar was.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_support.h"

#define CRANE "testdata/sample/Crane"

/* The names in `dir` that start with '.' (temporary files), but . and ..; 0 when none. */
static size_t hidden_files(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	while (d && (e = readdir(d)))
		n += e->d_name[0] == '.' && strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	if (d)
		closedir(d);
	return n;
}

/* A source of two outputs whose second cannot be written (a folder is in
 * its place) puts neither in place: the first keeps the file its last good
 * build wrote (the same inode, the same bytes), no temporary file is left,
 * and the record keeps it, so clean removes it. */
static void a_source_puts_its_outputs_in_place_all_or_none(void **state)
{
	char *dir = test_tmpdir("all-or-none"), *out = test_format("%s/out", dir);
	char *a = test_format("%s/Wave/A.xnb", out), *b = test_format("%s/Wave/B.xnb", out);
	char *wave_dir = test_format("%s/Wave", out), *good = test_format("%s/A.good", dir);
	struct stat before, after;
	test_run r;

	(void)state;
	r = test_animc("build", "-q", "-o", out, "--split", "A=0:0.2", "--split", "B=0.2:0.4", CRANE "/Wave.Animation",
		       NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	test_sh("cp '%s' '%s' && rm '%s' && mkdir '%s'", a, good, b, b);
	assert_int_equal(stat(a, &before), 0);
	r = test_animc("build", "-q", "--scale", "2", "-o", out, "--split", "A=0:0.2", "--split", "B=0.2:0.4",
		       CRANE "/Wave.Animation", NULL);
	if (r.status != 1 || !strstr(r.err, "B.xnb': Is a directory"))
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	assert_int_equal(stat(a, &after), 0);
	assert_true(before.st_ino == after.st_ino);
	assert_true(test_same_bytes(a, good));
	assert_int_equal(hidden_files(wave_dir), 0);
	test_sh("rmdir '%s'", b);
	r = test_animc("clean", "-o", out, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	assert_false(test_file_exists(a));
	free(good), free(wave_dir), free(b), free(a), free(out), free(dir);
}

/* A source of two outputs whose second cannot be put in place, and whose
 * first, new, cannot be removed to take it back (a failing disk): the first
 * stays, said and recorded as this build's, so clean removes it.  It was
 * left unsaid and recorded nowhere: clean said "0 left" and kept it. */
static void an_output_that_cannot_be_taken_back_stays_recorded(void **state)
{
	TEST_NEEDS_PRELOAD();
	char *dir = test_tmpdir("no-take-back"), *out = test_format("%s/out", dir);
	char *a = test_format("%s/Wave/A.xnb", out), *shim = test_format("%s/no_take_back.so", dir);
	char *said = test_format("error: '%s' cannot be taken back: Input/output error; it holds this build's bytes",
				 a);
	test_run r;

	(void)state;
	test_sh("cc -shared -fPIC -o '%s' testdata/env/no_take_back.c -ldl", shim);
	setenv("LD_PRELOAD", shim, 1);
	r = test_animc("build", "-q", "-o", out, "--split", "A=0:0.2", "--split", "B=0.2:0.4", CRANE "/Wave.Animation",
		       NULL);
	unsetenv("LD_PRELOAD");
	if (r.status != 1 || !strstr(r.err, "Wave/B.xnb': Input/output error") || !strstr(r.err, said))
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	assert_true(test_file_exists(a));
	r = test_animc("clean", "-o", out, NULL);
	if (r.status != 0 || !strstr(r.out, "removed 1 output,"))
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	assert_false(test_file_exists(a));
	assert_int_equal(test_count_files(out), 0);
	free(said), free(shim), free(a), free(out), free(dir);
}

/* The build cannot read its workers' results (a read error, not the end of
 * a pipe): it stops, saying why, and leaves no temporary file.  It took the
 * error for a worker gone and waited for it to end, for ever. */
static void a_read_error_on_the_results_stops_the_build(void **state)
{
	TEST_NEEDS_PRELOAD();
	char *dir = test_tmpdir("unreadable-results"), *out = test_format("%s/out", dir);
	char *shim = test_format("%s/unreadable_results.so", dir), *env = test_format("LD_PRELOAD=%s", shim);
	char *signals = test_format("%s/Signals", out);
	test_run r;

	(void)state;
	test_sh("cc -shared -fPIC -o '%s' testdata/env/unreadable_results.c -ldl", shim);
	r = test_exec("timeout", "-k", "5", "20", "env", env, test_animc_path(), "build", "-q", "-j2", "-o", out, CRANE,
		      NULL);
	if (r.status != 1 || !strstr(r.err, "could not go on: a worker's results could not be read (Input/output "
					    "error)"))
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	assert_int_equal(hidden_files(out), 1);   /* .animc */
	assert_int_equal(hidden_files(signals), 0);
	r = test_animc("build", "-q", "-j2", "-o", out, CRANE, NULL);
	if (r.status != 0)
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	free(signals), free(env), free(shim), free(out), free(dir);
}

/* A worker cannot send its result to the build (its write to the pipe
 * fails): the source fails, saying so with the error.  It was said as "the
 * robotgame importer ended without a result", blaming the importer. */
static void a_result_not_sent_is_said_with_its_error(void **state)
{
	TEST_NEEDS_PRELOAD();
	char *dir = test_tmpdir("unsendable-results"), *out = test_format("%s/out", dir);
	char *shim = test_format("%s/unsendable_results.so", dir), *env = test_format("LD_PRELOAD=%s", shim);
	test_run r;

	(void)state;
	test_sh("cc -shared -fPIC -o '%s' testdata/env/unsendable_results.c -ldl", shim);
	r = test_exec("timeout", "-k", "5", "20", "env", env, test_animc_path(), "build", "-q", "-j2", "-o", out,
		      CRANE "/Wave.Animation", NULL);
	if (r.status != 1 || strcmp(r.err, CRANE "/Wave.Animation: error: the worker compiling this file could not "
					   "send its result to the build (Input/output error); it was not compiled\n"))
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	free(env), free(shim), free(out), free(dir);
}

/* A source with no clip-split sidecar, whose look for one fails to open it
 * once (EMFILE, no word on the file): the source compiles whole.  It was
 * taken for a sidecar that could not be read, and the read that followed
 * failed the source: "Wave_Anims.xml: cannot open: No such file or
 * directory", blaming a file that is not there. */
static void a_sidecar_look_that_fails_once_finds_none(void **state)
{
	TEST_NEEDS_PRELOAD();
	char *dir = test_tmpdir("sidecar-open-once"), *out = test_format("%s/out", dir);
	char *shim = test_format("%s/sidecar_open_once.so", dir), *env = test_format("LD_PRELOAD=%s", shim);
	test_run r;

	(void)state;
	test_sh("cc -shared -fPIC -o '%s' testdata/env/sidecar_open_once.c -ldl", shim);
	for (int nth = 1; nth <= 4; nth++) {
		char *fails = test_format("SIDECAR_OPEN_FAILS=%d", nth), *to = test_format("%s/%d", out, nth);

		r = test_exec("env", fails, env, test_animc_path(), "build", "-q", "-o", to, CRANE "/Wave.Animation",
			      NULL);
		if (r.status != 0 || strcmp(r.err, "") != 0)
			fail_msg("open %d failing: exit %d\n%s%s", nth, r.status, r.out, r.err);
		test_run_release(&r);
		free(fails), free(to);
	}
	free(env), free(shim), free(out), free(dir);
}

/* The child a --skeleton model's trial load, or animc plot's import, runs
 * in cannot send its result (its write to the pipe fails): the command
 * fails, saying so with the error.  It was said as "the assimp importer
 * ended without a result", blaming the importer. */
static void a_child_result_not_sent_is_said_with_its_error(void **state)
{
	TEST_NEEDS_PRELOAD();
	char *dir = test_tmpdir("unsendable-child"), *out = test_format("%s/out", dir);
	char *shim = test_format("%s/unsendable_results.so", dir), *env = test_format("LD_PRELOAD=%s", shim);
	char *svg = test_format("%s/raise.svg", dir), *xnb = test_format("%s/Crane/Raise.xnb", out);
	test_run r;

	(void)state;
	test_sh("cc -shared -fPIC -o '%s' testdata/env/unsendable_results.c -ldl", shim);
	r = test_exec("timeout", "-k", "5", "20", "env", env, test_animc_path(), "build", "-q", "--skeleton",
		      CRANE "/Crane.x", "-o", out, CRANE "/Crane.x", NULL);
	if (r.status != 1 || strcmp(r.err, CRANE "/Crane.x: error: the process reading this model could not send "
					   "its result (Input/output error); nothing built\n"))
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	r = test_animc("build", "-q", "-o", out, CRANE "/Crane.x", NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_exec("timeout", "-k", "5", "20", "env", env, test_animc_path(), "plot", "--bone", "Boom", "-o", svg,
		      xnb, CRANE "/Crane.x", NULL);
	if (r.status != 1 || strcmp(r.err, CRANE "/Crane.x: error: the process importing this file could not send "
					   "its result (Input/output error)\n") || test_file_exists(svg))
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	free(svg), free(xnb), free(env), free(shim), free(out), free(dir);
}

/* The child of animc plot's import ends without its result (exit status
 * 1, no error of a write): said as it was, the importer's end and its
 * exit status.  It gained "importing this file" when the unsent result
 * came to be said. */
static void a_plot_child_without_a_result_is_said_as_it_was(void **state)
{
	TEST_NEEDS_PRELOAD();
	char *dir = test_tmpdir("resultless-child"), *out = test_format("%s/out", dir);
	char *shim = test_format("%s/unsendable_results.so", dir), *env = test_format("LD_PRELOAD=%s", shim);
	char *svg = test_format("%s/raise.svg", dir), *xnb = test_format("%s/Crane/Raise.xnb", out);
	test_run r;

	(void)state;
	test_sh("cc -shared -fPIC -o '%s' testdata/env/unsendable_results.c -ldl", shim);
	r = test_animc("build", "-q", "-o", out, CRANE "/Crane.x", NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	r = test_exec("timeout", "-k", "5", "20", "env", env, "UNSENDABLE_EXITS=1", test_animc_path(), "plot", "--bone",
		      "Boom", "-o", svg, xnb, CRANE "/Crane.x", NULL);
	if (r.status != 1 || strcmp(r.err, CRANE "/Crane.x: error: the assimp importer ended without a result (exit "
					   "status 1)\n") || test_file_exists(svg))
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	free(svg), free(xnb), free(env), free(shim), free(out), free(dir);
}

/* A source of two outputs replaces both: the file the first replaced, kept
 * until the second is in place, cannot be removed then (a disk failing a
 * moment).  It is swept at the end of the run, as a killed worker's
 * temporary files are: it stayed in OUTDIR, hidden, for good. */
static void a_replaced_file_not_removed_is_swept(void **state)
{
	TEST_NEEDS_PRELOAD();
	char *dir = test_tmpdir("keep-replaced"), *out = test_format("%s/out", dir);
	char *wave_dir = test_format("%s/Wave", out), *shim = test_format("%s/keep_replaced.so", dir);
	test_run r;

	(void)state;
	test_sh("cc -shared -fPIC -o '%s' testdata/env/keep_replaced.c -ldl", shim);
	r = test_animc("build", "-q", "-o", out, "--split", "A=0:0.2", "--split", "B=0.2:0.4", CRANE "/Wave.Animation",
		       NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	setenv("LD_PRELOAD", shim, 1);
	r = test_animc("build", "-q", "--scale", "2", "-o", out, "--split", "A=0:0.2", "--split", "B=0.2:0.4",
		       CRANE "/Wave.Animation", NULL);
	unsetenv("LD_PRELOAD");
	if (r.status != 0)
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	assert_int_equal(hidden_files(wave_dir), 0);
	assert_int_equal(test_count_files(wave_dir), 2);
	free(shim), free(wave_dir), free(out), free(dir);
}

/* No worker process can be started (a process limit): the sources compile
 * in the build's own process, which is said, since there neither
 * --import-timeout nor --memory-limit holds.  It was not: a build that
 * looked as usual could hang on an import for good. */
static void a_build_that_cannot_start_workers_says_so(void **state)
{
	TEST_NEEDS_PRELOAD();
	char *dir = test_tmpdir("no-fork"), *out = test_format("%s/out", dir);
	char *shim = test_format("%s/no_fork.so", dir);
	test_run r;

	(void)state;
	test_sh("cc -shared -fPIC -o '%s' testdata/env/no_fork.c", shim);
	setenv("LD_PRELOAD", shim, 1);
	r = test_animc("build", "-q", "-j2", "-o", out, CRANE, NULL);
	unsetenv("LD_PRELOAD");
	if (r.status != 0 || !strstr(r.err, "[no-worker]") || strstr(strstr(r.err, "[no-worker]") + 1, "[no-worker]") ||
	    !strstr(r.err, "animc: warning: cannot start a worker process (Resource temporarily unavailable): "
			   "compiling in the build process, where --import-timeout and --memory-limit do not "
			   "hold, and an importer's crash ends the build [no-worker]\n"))
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	assert_int_equal(test_count_files(out), 7);
	free(shim), free(out), free(dir);
}

/* A journal that cannot take more records (here a file-size limit, as a
 * full disk would): the outputs it cannot record are not put in place, so
 * that, the manifest not saved either, clean still finds every output the
 * build wrote. */
static void an_output_the_journal_cannot_record_is_not_put_in_place(void **state)
{
	char *dir = test_tmpdir("journal-full"), *out = test_format("%s/out", dir);
	test_run r;
	size_t written;

	(void)state;
	for (int i = 1; i <= 8; i++)
		test_sh("cp " CRANE "/Wave.Animation '%s/w%d.Animation'", dir, i);
	/* Outputs of 665 bytes fit in 1200, a manifest does not, and the
	 * journal holds 8 or 9 records. */
	char *cmd = test_format("trap '' XFSZ; exec prlimit --fsize=1200 '%s' build -j1 -q -o '%s' --split A=0:0.2 "
				"--split B=0.2:0.4 '%s'/*.Animation", test_animc_path(), out, dir);
	r = test_exec("sh", "-c", cmd, NULL);
	if (r.status != 1 || !strstr(r.err, "for clean: cannot write") || !strstr(r.err, "File too large"))
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	written = test_count_files(out);
	assert_true(written >= 4 && written < 16);
	r = test_animc("clean", "-o", out, NULL);
	if (r.status != 0 || strstr(r.err, "warning"))
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	assert_int_equal(test_count_files(out), 0);
	free(cmd), free(out), free(dir);
}

/* Under a file-size limit (ulimit -f) an output over it is a write that
 * fails, naming the file, in a worker and in the build's own process: not
 * an importer's crash, not a build killed by SIGXFSZ, and no temporary
 * file is left. */
static void an_output_over_the_file_size_limit_is_a_write_error(void **state)
{
	char *dir = test_tmpdir("fsize"), *out = test_format("%s/out", dir);
	char *want = test_format("cannot write '%s/Wave.xnb': File too large", out);

	(void)state;
	for (int in_process = 0; in_process < 2; in_process++) {
		/* Wave.xnb is 1,465 bytes, its manifest less than 1,000. */
		char *cmd = test_format("exec prlimit --fsize=1000 '%s' build -q -o '%s' %s " CRANE "/Wave.Animation",
					test_animc_path(), out,
					in_process ? "--import-timeout 0 --memory-limit 0" : "");
		test_run r = test_exec("sh", "-c", cmd, NULL);

		if (r.status != 1 || !strstr(r.err, want) || strstr(r.err, "crashed"))
			fail_msg("in process %d: exit %d\n%s%s", in_process, r.status, r.out, r.err);
		test_run_release(&r);
		assert_int_equal(test_count_files(out), 0);
		free(cmd);
	}
	free(want), free(out), free(dir);
}

/* Write `text` into the FIFO at `path` for each reader that opens it,
 * until process `pid` ends; its wait status. */
static int feed_fifo_until_exit(const char *path, const char *text, pid_t pid)
{
	struct timespec nap = { 0, 20000000 };
	int status;

	for (int tries = 0; tries < 3000; tries++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return status;
		int fd = open(path, O_WRONLY | O_NONBLOCK);

		if (fd >= 0) {
			(void)!write(fd, text, strlen(text));
			close(fd);
		}
		nanosleep(&nap, NULL);
	}
	kill(-pid, SIGKILL);
	waitpid(pid, &status, 0);
	fail_msg("the build did not end");
	return status;
}

/* A build stopped (Ctrl-Z, SIGSTOP of its process group) for longer than
 * --import-timeout while a source is compiling, then continued: the time
 * stopped is not the compile's, and the source is not stopped as one that
 * did not finish.  The import waits on a FIFO the test holds, so that it
 * is at work when the build is stopped. */
static void a_stop_does_not_count_against_the_import_timeout(void **state)
{
	char *dir = test_tmpdir("stopped"), *out = test_format("%s/out", dir), *obj = test_format("%s/a.obj", dir);
	char *mtl = test_format("%s/m.mtl", dir), *err_path = test_format("%s/err", dir);
	struct timespec nap = { 0, 20000000 };
	int fd = -1, status;
	pid_t pid;

	(void)state;
	assert_true(test_write_file(obj, "mtllib m.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", 45));
	assert_int_equal(mkfifo(mtl, 0600), 0);
	signal(SIGPIPE, SIG_IGN);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		setpgid(0, 0);
		if (!freopen(err_path, "w", stderr))
			_exit(99);
		execl(test_animc_path(), "animc", "build", "-q", "-j1", "--import-timeout", "3", "-o", out, obj,
		      (char *)NULL);
		_exit(98);
	}
	setpgid(pid, pid);
	/* The importer opened the FIFO: it is at work. */
	for (int tries = 0; fd < 0 && tries < 1500; tries++)
		if ((fd = open(mtl, O_WRONLY | O_NONBLOCK)) < 0)
			nanosleep(&nap, NULL);
	assert_true(fd >= 0);
	kill(-pid, SIGSTOP);
	sleep(4);
	kill(-pid, SIGCONT);
	close(fd);
	status = feed_fifo_until_exit(mtl, "newmtl x\n", pid);
	char *err = (char *)test_read_file(err_path, NULL);
	if (!WIFEXITED(status) || strstr(err, "did not finish"))
		fail_msg("status %d\n%s", status, err);
	free(err), free(err_path), free(mtl), free(obj), free(out), free(dir);
}

/* A sidecar that is a FIFO cannot be read, as one without permission:
 * its source fails naming it and keeps its parts, named or in a folder,
 * rather than being built whole (and its parts pruned) as though there
 * were no sidecar. */
static void a_fifo_sidecar_fails_its_source(void **state)
{
	char *dir = test_tmpdir("fifo-sidecar"), *src = test_format("%s/src", dir), *out = test_format("%s/out", dir);
	char *side = test_format("%s/Walker_Anims.xml", src), *walker = test_format("%s/Walker.xml", src);
	char *start = test_format("%s/Walker/Start.xnb", out), *whole = test_format("%s/Walker/Take 001.xnb", out);
	char *want = test_format("%s: is a FIFO", side);
	const char *inputs[2] = { walker, src };
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s' && cp testdata/authoring/Walker.xml testdata/authoring/Walker_Anims.xml '%s'", src, src);
	r = test_animc("build", "-q", "-o", out, src, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	assert_true(test_file_exists(start));
	test_sh("rm '%s' && mkfifo '%s'", side, side);
	for (int k = 0; k < 2; k++) {
		r = test_animc("build", "-q", "--prune", "-o", out, inputs[k], NULL);
		if (r.status != 1 || !strstr(r.err, "Walker.xml: error: ") || !strstr(r.err, want))
			fail_msg("%s: exit %d\n%s", inputs[k], r.status, r.err);
		test_run_release(&r);
		assert_true(test_file_exists(start));
		assert_false(test_file_exists(whole));
	}
	free(want), free(whole), free(start), free(walker), free(side), free(out), free(src), free(dir);
}

/* A source compiled, then replaced by a FIFO (or a link to a device): the
 * source is there but cannot be read, so it fails naming it and keeps its
 * outputs, in a folder (at its top and below) or named, --prune or not; it
 * was skipped without a word, and --prune removed its outputs.  A FIFO no
 * build compiled is a file of another kind, skipped; once the FIFO goes,
 * the source is gone and --prune removes its outputs. */
static void a_fifo_where_a_source_was_fails_and_keeps_its_outputs(void **state)
{
	char *dir = test_tmpdir("fifo-source"), *src = test_format("%s/src", dir), *out = test_format("%s/out", dir);
	char *turn = test_format("%s/Turn.Animation", src), *idle = test_format("%s/sub/Idle.Animation", src);
	char *wave = test_format("%s/Wave.Animation", src), *other = test_format("%s/Other.Animation", src);
	char *turn_xnb = test_format("%s/Turn.xnb", out), *idle_xnb = test_format("%s/sub/Idle.xnb", out);
	char *wave_xnb = test_format("%s/Wave.xnb", out);
	char *saved = test_format("%s/Turn.saved", dir);
	const char *named[3] = { "-q", "--prune", "--prune" };
	test_run r;

	(void)state;
	test_sh("mkdir -p '%s/sub' && cp " CRANE "/Turn.Animation " CRANE "/Wave.Animation '%s' && "
		"cp " CRANE "/Idle.Animation '%s/sub'", src, src, src);
	r = test_animc("build", "-q", "-o", out, src, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	test_sh("cp '%s' '%s' && rm '%s' '%s' '%s' && ln -s /dev/null '%s'", turn_xnb, saved, turn, idle, wave, wave);
	assert_int_equal(mkfifo(turn, 0644), 0);
	assert_int_equal(mkfifo(idle, 0644), 0);
	assert_int_equal(mkfifo(other, 0644), 0);
	for (int k = 0; k < 3; k++) {
		r = test_animc("build", "-q", named[k], "-o", out, k < 2 ? src : turn, NULL);
		if (r.status != 1 ||
		    !strstr(r.err, "Turn.Animation: error: is a FIFO, not a regular file; not read") ||
		    (k < 2 && (!strstr(r.err, "sub/Idle.Animation: error: is a FIFO, not a regular file") ||
			       !strstr(r.err, "Wave.Animation: error: is a character device, not a regular file") ||
			       strstr(r.err, "Other.Animation"))))
			fail_msg("run %d: exit %d\n%s", k, r.status, r.err);
		test_run_release(&r);
		assert_true(test_same_bytes(turn_xnb, saved));
		assert_true(test_file_exists(idle_xnb));
		assert_true(test_file_exists(wave_xnb));
	}
	test_sh("rm '%s'", turn);
	r = test_animc("build", "-q", "--prune", "-o", out, src, NULL);
	assert_int_equal(r.status, 1);   /* the other two still fail */
	test_run_release(&r);
	assert_false(test_file_exists(turn_xnb));
	assert_true(test_file_exists(idle_xnb));
	free(saved), free(wave_xnb), free(idle_xnb), free(turn_xnb), free(other), free(wave), free(idle), free(turn);
	free(out), free(src), free(dir);
}

/* A file animc did not write in OUTDIR/.animc (an editor's manifest~):
 * clean leaves it, as it leaves every such file, and says which it is;
 * it was "not removed: Directory not empty", "0 left" and exit 1. */
static void clean_names_a_foreign_file_in_its_state_folder(void **state)
{
	char *dir = test_tmpdir("clean-foreign"), *out = test_format("%s/out", dir);
	char *stray = test_format("%s/.animc/manifest~", out);
	test_run r;

	(void)state;
	r = test_animc("build", "-q", "-o", out, CRANE, NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	assert_true(test_write_file(stray, "backup\n", 7));
	r = test_animc("clean", "-o", out, NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.err, "/.animc: warning: not removed: it holds 'manifest~', which animc did not write; remove it "
			   "by hand [output-left]"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	assert_true(test_file_exists(stray));
	assert_int_equal(test_count_files(out), 0);   /* the outputs (hidden files not counted) */
	free(stray), free(out), free(dir);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(a_fifo_sidecar_fails_its_source),
	cmocka_unit_test(a_fifo_where_a_source_was_fails_and_keeps_its_outputs),
	cmocka_unit_test(an_output_over_the_file_size_limit_is_a_write_error),
	cmocka_unit_test(a_stop_does_not_count_against_the_import_timeout),
	cmocka_unit_test(an_output_the_journal_cannot_record_is_not_put_in_place),
	cmocka_unit_test(a_source_puts_its_outputs_in_place_all_or_none),
	cmocka_unit_test(an_output_that_cannot_be_taken_back_stays_recorded),
	cmocka_unit_test(a_read_error_on_the_results_stops_the_build),
	cmocka_unit_test(a_result_not_sent_is_said_with_its_error),
	cmocka_unit_test(a_child_result_not_sent_is_said_with_its_error),
	cmocka_unit_test(a_plot_child_without_a_result_is_said_as_it_was),
	cmocka_unit_test(a_sidecar_look_that_fails_once_finds_none),
	cmocka_unit_test(a_replaced_file_not_removed_is_swept),
	cmocka_unit_test(a_build_that_cannot_start_workers_says_so),
	cmocka_unit_test(clean_names_a_foreign_file_in_its_state_folder),
};

ANIMC_TEST_GROUP(tests);
