/*
 * watch_cli_test.c - animc watch: an edit rebuilds, a burst of saves is one
 * rebuild, a file written in two halves is compiled once (whole), a new
 * file and a new folder are picked up, a deleted source takes its output
 * with it, and SIGINT ends the watch with 0 and no temporary file.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_support.h"
#include <animc/animrt.h>

typedef struct watcher {
	pid_t pid;
	char *log;
} watcher;

/* The watch of the running test, stopped by the teardown whatever became
 * of the test (a failed assertion leaves it running otherwise). */
static pid_t running_watch;

static int stop_watch(void **state)
{
	(void)state;
	if (running_watch > 0) {
		kill(running_watch, SIGKILL);
		waitpid(running_watch, NULL, 0);
		running_watch = 0;
	}
	return 0;
}

/* PROGRAM ARGV..., its output in DIR/watch.log; its standard error there
 * too, or in ERR_LOG when given. */
static void start_program_logs(watcher *w, const char *dir, const char *program, const char *const *argv,
			       const char *err_log)
{
	int fd, err_fd;

	w->log = test_format("%s/watch.log", dir);
	fd = open(w->log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	err_fd = err_log ? open(err_log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644) : fd;
	assert_true(err_fd >= 0);
	w->pid = fork();
	assert_true(w->pid >= 0);
	if (w->pid == 0) {
		/* It ends with this process, and holds none of its other files
		 * (a lock the test runner inherited stays the runner's). */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		dup2(fd, STDOUT_FILENO);
		dup2(err_fd, STDERR_FILENO);
		for (int other = 3; other < 1024; other++)
			close(other);
		char *copy[32];
		size_t n = 0;

		for (; argv[n] && n < 31; n++)
			copy[n] = strdup(argv[n]);
		copy[n] = NULL;
		execvp(program, copy);
		_exit(127);
	}
	running_watch = w->pid;
	close(fd);
	if (err_fd != fd)
		close(err_fd);
}

static void start_program(watcher *w, const char *dir, const char *program, const char *const *argv)
{
	start_program_logs(w, dir, program, argv, NULL);
}

/* animc watch ARGV... (argv[0] "animc"). */
static void start_argv(watcher *w, const char *dir, const char *const *argv)
{
	start_program(w, dir, test_animc_path(), argv);
}

/* animc watch A1 A2 A3 (A3 may be NULL). */
static void start_with(watcher *w, const char *dir, const char *a1, const char *a2, const char *a3)
{
	const char *argv[] = { "animc", "watch", a1, a2, a3, NULL };

	start_argv(w, dir, argv);
}

static void start(watcher *w, const char *dir, const char *out, const char *src)
{
	start_with(w, dir, "-o", out, src);
}

static size_t lines_with(const char *path, const char *what)
{
	size_t size, n = 0;
	char *text = (char *)test_read_file(path, &size);

	for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
		n++;
	free(text);
	return n;
}

/* Wait (up to 20 s) until the log has `count` rebuild lines. */
static void wait_for_builds(const watcher *w, size_t count)
{
	for (int i = 0; i < 2000; i++) {
		if (lines_with(w->log, " up to date, in ") >= count)
			return;
		usleep(10000);
	}
	size_t size;
	char *text = (char *)test_read_file(w->log, &size);
	fail_msg("waited for %zu builds:\n%s", count, text);
}

static void settle(void)
{
	usleep(300000);   /* far beyond the watch's quiet time */
}

static void save(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

/* Turn.Animation with the clip Duration changed, as an artist's save. */
static char *turn_with_duration(const char *duration)
{
	size_t size;
	char *text = (char *)test_read_file("testdata/sample/Crane/Turn.Animation", &size);
	char *at = strstr(text, "<Duration>1.500000</Duration>");
	char *out;

	assert_non_null(at);
	*at = '\0';
	out = test_format("%s<Duration>%s</Duration>%s", text, duration, at + strlen("<Duration>1.500000</Duration>"));
	free(text);
	return out;
}

static float duration_of(const char *xnb)
{
	animrt_clip *clip;
	float d;

	assert_int_equal(animrt_open_file(xnb, &clip, NULL), ANIMRT_OK);
	d = clip->duration_s;
	animrt_close(clip);
	return d;
}

static bool has_temporary(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool found = false;

	if (!d)
		return false;
	while (!found && (e = readdir(d))) {
		char *sub;
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (!strncmp(e->d_name, "running.", 8) || (e->d_name[0] == '.' && strcmp(e->d_name, ".animc")))
			found = true;
		sub = test_format("%s/%s", dir, e->d_name);
		if (!found && lstat(sub, &st) == 0 && S_ISDIR(st.st_mode))
			found = has_temporary(sub);
		free(sub);
	}
	closedir(d);
	return found;
}

static void watch_follows_its_folder(void **state)
{
	char *dir = test_tmpdir("watch"), *src = test_format("%s/src", dir), *out = test_format("%s/out", dir);
	char *turn = test_format("%s/Turn.Animation", src), *turn_xnb = test_format("%s/Turn.xnb", out);
	char *wave = test_format("%s/Wave.Animation", src);
	watcher w;
	size_t builds = 1;

	(void)state;
	mkdir(src, 0755);
	char *text = turn_with_duration("1.5");
	save(turn, text);
	free(text);
	size_t size;
	char *wave_text = (char *)test_read_file("testdata/sample/Crane/Wave.Animation", &size);
	save(wave, wave_text);
	start(&w, dir, out, src);
	wait_for_builds(&w, builds);
	assert_true(duration_of(turn_xnb) == 1.5f);

	/* An edit: one rebuild, the new value in the output. */
	text = turn_with_duration("2.5");
	save(turn, text);
	free(text);
	wait_for_builds(&w, ++builds);
	assert_true(duration_of(turn_xnb) == 2.5f);

	/* A burst of ten saves, back to back: one rebuild (two at most, should
	 * this shared machine stall the loop past the watch's quiet time), the
	 * last save in the output. */
	char *texts[10];
	for (int i = 0; i < 10; i++) {
		char d[16];

		snprintf(d, sizeof d, "3.%d", i);
		texts[i] = turn_with_duration(d);
	}
	for (int i = 0; i < 10; i++)
		save(turn, texts[i]);
	for (int i = 0; i < 10; i++)
		free(texts[i]);
	wait_for_builds(&w, ++builds);
	settle();
	assert_true(lines_with(w.log, " up to date, in ") <= builds + 1);
	builds = lines_with(w.log, " up to date, in ");
	assert_true(duration_of(turn_xnb) == 3.9f);

	/* Written in two halves with a pause between: compiled once, whole
	 * (never the half, which would fail). */
	text = turn_with_duration("4.5");
	{
		int fd = open(turn, O_WRONLY | O_TRUNC);
		size_t half = strlen(text) / 2;

		assert_true(fd >= 0);
		assert_int_equal(write(fd, text, half), (ssize_t)half);
		usleep(200000);
		assert_int_equal(write(fd, text + half, strlen(text) - half), (ssize_t)(strlen(text) - half));
		close(fd);
	}
	free(text);
	wait_for_builds(&w, ++builds);
	settle();
	assert_int_equal(lines_with(w.log, " up to date, in "), builds);
	assert_int_equal(lines_with(w.log, "error"), 0);
	assert_int_equal(lines_with(w.log, " 1 failed"), 0);
	assert_true(duration_of(turn_xnb) == 4.5f);

	/* A new file, then a new folder with a file in it. */
	char *idle = test_format("%s/Idle.Animation", src), *idle_xnb = test_format("%s/Idle.xnb", out);
	char *idle_text = (char *)test_read_file("testdata/sample/Crane/Idle.Animation", &size);
	save(idle, idle_text);
	wait_for_builds(&w, ++builds);
	assert_true(test_file_exists(idle_xnb));
	char *sub = test_format("%s/more", src), *sub_src = test_format("%s/more/Idle2.Animation", src);
	char *sub_xnb = test_format("%s/more/Idle2.xnb", out);
	mkdir(sub, 0755);
	settle();
	save(sub_src, idle_text);
	for (int i = 0; i < 500 && !test_file_exists(sub_xnb); i++)
		usleep(10000);
	assert_true(test_file_exists(sub_xnb));
	builds = lines_with(w.log, " up to date, in ");

	/* A deleted source takes its output with it. */
	assert_int_equal(unlink(idle), 0);
	wait_for_builds(&w, ++builds);
	for (int i = 0; i < 500 && test_file_exists(idle_xnb); i++)
		usleep(10000);   /* pruned as the rebuild ends */
	assert_false(test_file_exists(idle_xnb));
	assert_true(test_file_exists(turn_xnb));
	/* Its line: printed once the rebuild that pruned it has ended (the
	 * line counted above may be the one of the save before it). */
	for (int i = 0; i < 2000 && lines_with(w.log, ", 1 output pruned, ") == 0; i++)
		usleep(10000);
	assert_int_equal(lines_with(w.log, ", 1 output pruned, "), 1);

	/* SIGINT: status 0, nothing temporary left. */
	int status;
	assert_int_equal(kill(w.pid, SIGINT), 0);
	assert_int_equal(waitpid(w.pid, &status, 0), w.pid);
	running_watch = 0;
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_false(has_temporary(out));

	free(idle_text), free(wave_text);
	free(sub), free(sub_src), free(sub_xnb), free(idle), free(idle_xnb);
	free(w.log), free(wave), free(turn), free(turn_xnb), free(src), free(out), free(dir);
}

/* Wait (up to 20 s) until `xnb` exists and lasts `seconds`. */
static void wait_for_duration(const watcher *w, const char *xnb, float seconds)
{
	for (int i = 0; i < 2000; i++) {
		if (test_file_exists(xnb) && duration_of(xnb) == seconds)
			return;
		usleep(10000);
	}
	size_t size;
	char *text = (char *)test_read_file(w->log, &size);
	fail_msg("%s never lasted %g s:\n%s", xnb, (double)seconds, text);
}

/* Save `source` as a clip lasting `duration` seconds, and wait until its
 * output `xnb` is built so. */
static void save_and_wait(const watcher *w, const char *source, const char *xnb, const char *duration)
{
	char *text = turn_with_duration(duration);

	save(source, text);
	free(text);
	wait_for_duration(w, xnb, strtof(duration, NULL));
}

/* Wait (up to 20 s) for the watch to end by itself; its waitpid() status. */
static int wait_for_end(const watcher *w)
{
	int status = -1;

	for (int i = 0; i < 2000; i++) {
		if (waitpid(w->pid, &status, WNOHANG) == w->pid) {
			running_watch = 0;
			return status;
		}
		usleep(10000);
	}
	size_t size;
	char *text = (char *)test_read_file(w->log, &size);
	fail_msg("the watch did not end:\n%s", text);
	return status;
}

/* The animc file a watch runs, replaced (another version installed, a
 * rollback, animc built again): the watch stops before its next rebuild,
 * naming the file, and builds nothing.  It built with the animc it had
 * started as, writing that version's bytes under that version's keys over
 * what the new animc wrote, and said nothing. */
static void watch_stops_when_its_animc_is_replaced(void **state)
{
	char *dir = test_tmpdir("watch-program"), *in = test_format("%s/in", dir), *out = test_format("%s/out", dir);
	char *program = test_format("%s/animc", dir), *turn = test_format("%s/Turn.Animation", in);
	char *turn_xnb = test_format("%s/Turn.xnb", out);
	const char *argv[] = { "animc", "watch", "-o", out, in, NULL };
	watcher w;

	(void)state;
	/* Of mtime 0, as some stores set every file's: the same file still. */
	test_run_ok(test_exec("sh", "-c",
			      "mkdir \"$1\" && cp testdata/sample/Crane/Turn.Animation \"$1\" && cp \"$3\" \"$2\" && "
			      "touch -d @0 \"$2\"", "sh", in, program, test_animc_path(), NULL));
	char *real = realpath(program, NULL);
	assert_non_null(real);
	char *error = test_format("animc watch: error: '%s' was replaced since this watch started", real);
	free(real);
	start_program(&w, dir, program, argv);
	wait_for_builds(&w, 1);
	assert_true(duration_of(turn_xnb) == 1.5f);
	/* Installed as a package manager does: a new file renamed over it. */
	test_run_ok(test_exec("sh", "-c", "cp \"$1\" \"$2.new\" && mv \"$2.new\" \"$2\"", "sh", test_animc_path(),
			      program, NULL));
	char *longer = turn_with_duration("2.5");
	save(turn, longer);
	free(longer);
	int status = wait_for_end(&w);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 1);
	assert_int_equal(lines_with(w.log, error), 1);
	assert_int_equal(lines_with(w.log, " up to date, in "), 1);
	assert_true(duration_of(turn_xnb) == 1.5f);
	free(error), free(turn_xnb), free(turn), free(program), free(w.log), free(out), free(in), free(dir);
}

/* A watch started through a link to animc (stow, update-alternatives, a
 * versioned prefix), the link then pointed at another animc: the watch
 * stops before its next rebuild, naming the link, and builds nothing.  The
 * file it started from was still there, and it built on with it. */
static void watch_stops_when_the_link_it_started_by_is_repointed(void **state)
{
	char *dir = test_tmpdir("watch-program-link"), *in = test_format("%s/in", dir);
	char *out = test_format("%s/out", dir), *link = test_format("%s/animc", dir);
	char *turn = test_format("%s/Turn.Animation", in), *turn_xnb = test_format("%s/Turn.xnb", out);
	const char *argv[] = { link, "watch", "-o", out, in, NULL };
	watcher w;

	(void)state;
	test_run_ok(test_exec("sh", "-c",
			      "mkdir \"$1\" \"$2/a\" \"$2/b\" && cp testdata/sample/Crane/Turn.Animation \"$1\" && "
			      "cp \"$3\" \"$2/a/animc\" && cp \"$3\" \"$2/b/animc\" && ln -s a/animc \"$2/animc\"",
			      "sh", in, dir, test_animc_path(), NULL));
	start_program(&w, dir, link, argv);
	wait_for_builds(&w, 1);
	assert_true(duration_of(turn_xnb) == 1.5f);
	test_run_ok(test_exec("ln", "-sfn", "b/animc", link, NULL));
	char *longer = turn_with_duration("2.5");
	save(turn, longer);
	free(longer);
	int status = wait_for_end(&w);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 1);
	assert_int_equal(lines_with(w.log, "watch-program-link/animc' was replaced since this watch started"), 1);
	assert_true(duration_of(turn_xnb) == 1.5f);
	free(turn_xnb), free(turn), free(link), free(w.log), free(out), free(in), free(dir);
}

/* The animc file a watch runs, touched, its mode changed and linked
 * under another name: the same file, the same animc.  The watch builds on,
 * and stops with 0 at SIGINT.  A touch stopped it, saying the file was
 * replaced. */
static void watch_goes_on_when_its_animc_is_only_touched(void **state)
{
	char *dir = test_tmpdir("watch-program-touched"), *in = test_format("%s/in", dir);
	char *out = test_format("%s/out", dir), *program = test_format("%s/animc", dir);
	char *turn = test_format("%s/Turn.Animation", in), *turn_xnb = test_format("%s/Turn.xnb", out);
	const char *argv[] = { "animc", "watch", "-o", out, in, NULL };
	watcher w;
	int status;

	(void)state;
	test_run_ok(test_exec("sh", "-c",
			      "mkdir \"$1\" && cp testdata/sample/Crane/Turn.Animation \"$1\" && cp \"$3\" \"$2\"",
			      "sh", in, program, test_animc_path(), NULL));
	start_program(&w, dir, program, argv);
	wait_for_builds(&w, 1);
	assert_true(duration_of(turn_xnb) == 1.5f);
	test_run_ok(test_exec("sh", "-c", "touch -d '+1 minute' \"$1\" && chmod 0700 \"$1\" && ln \"$1\" \"$1.linked\"",
			      "sh", program, NULL));
	save_and_wait(&w, turn, turn_xnb, "2.5");
	assert_int_equal(lines_with(w.log, "was replaced"), 0);
	assert_int_equal(kill(w.pid, SIGINT), 0);
	assert_int_equal(waitpid(w.pid, &status, 0), w.pid);
	running_watch = 0;
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	free(turn_xnb), free(turn), free(program), free(w.log), free(out), free(in), free(dir);
}

/* The output folder deleted is built again; the input folder replaced (a
 * checkout swapping it, a rename and back) is watched again: the watch
 * went on running and never built again. */
static void watch_follows_a_replaced_folder(void **state)
{
	char *dir = test_tmpdir("watch-replaced"), *src = test_format("%s/src", dir), *out = test_format("%s/out", dir);
	char *turn = test_format("%s/Turn.Animation", src), *turn_xnb = test_format("%s/Turn.xnb", out);
	char *old = test_format("%s/src.old", dir), *rm = test_format("rm -rf '%s'", out);
	watcher w;

	(void)state;
	mkdir(src, 0755);
	char *text = turn_with_duration("1.5");
	save(turn, text);
	free(text);
	start(&w, dir, out, src);
	wait_for_builds(&w, 1);
	assert_true(duration_of(turn_xnb) == 1.5f);

	/* The output folder deleted: built again. */
	assert_int_equal(system(rm), 0);
	wait_for_duration(&w, turn_xnb, 1.5f);

	/* The input folder moved away and a new one made in its place. */
	assert_int_equal(rename(src, old), 0);
	settle();
	mkdir(src, 0755);
	save_and_wait(&w, turn, turn_xnb, "2.5");
	/* And edited there: watched. */
	save_and_wait(&w, turn, turn_xnb, "3.5");
	stop_watch(NULL);
	free(rm), free(old), free(w.log), free(turn), free(turn_xnb), free(src), free(out), free(dir);
}

/* A saved project is read again: an item added is built, one moved goes
 * to its new place, one removed takes its output with it. */
static void watch_follows_its_project(void **state)
{
	char *dir = test_tmpdir("watch-mgcb"), *in = test_format("%s/in", dir), *project = test_format("%s/P.mgcb", in);
	char *idle = test_format("%s/bin/Idle.xnb", in), *idle2 = test_format("%s/bin/Idle2.xnb", in);
	char *wave = test_format("%s/bin/Wave.xnb", in);
	watcher w;

	(void)state;
	test_run_ok(test_exec("sh", "-c", "mkdir \"$1\" && cp testdata/sample/Crane/Idle.Animation "
				  "testdata/sample/Crane/Wave.Animation \"$1\"", "sh", in, NULL));
	save(project, "/outputDir:bin\n/build:Idle.Animation\n");
	start_with(&w, dir, "--mgcb", project, NULL);
	wait_for_builds(&w, 1);
	assert_true(test_file_exists(idle));
	settle();
	save(project, "/outputDir:bin\n/build:Idle.Animation\n/build:Wave.Animation\n");
	wait_for_builds(&w, 2);
	assert_true(test_file_exists(wave));
	settle();
	save(project, "/outputDir:bin\n/build:Idle.Animation;Idle2.Animation\n/build:Wave.Animation\n");
	wait_for_builds(&w, 3);
	assert_true(test_file_exists(idle2));
	assert_false(test_file_exists(idle));
	settle();
	save(project, "/outputDir:bin\n/build:Idle.Animation;Idle2.Animation\n");
	wait_for_builds(&w, 4);
	assert_false(test_file_exists(wave));
	assert_true(test_file_exists(idle2));
	free(wave), free(idle2), free(idle), free(project), free(in), free(w.log), free(dir);
}

/* A response file the project includes (/@:) is watched as the project
 * is: one that holds no item yet, so no build read it for a source, adds
 * its first when saved, and moves it. */
static void watch_follows_the_projects_response_files(void **state)
{
	char *dir = test_tmpdir("watch-mgcb-include"), *in = test_format("%s/in", dir);
	char *project = test_format("%s/P.mgcb", in), *anims = test_format("%s/Anims.mgcb", in);
	char *wave = test_format("%s/bin/Wave.xnb", in), *moved = test_format("%s/bin/W/Wave.xnb", in);
	watcher w;

	(void)state;
	test_run_ok(test_exec("sh", "-c", "mkdir \"$1\" && cp testdata/sample/Crane/Wave.Animation \"$1\"", "sh", in,
			      NULL));
	save(anims, "# nothing yet\n");
	save(project, "/outputDir:bin\n/@:Anims.mgcb\n");
	start_with(&w, dir, "--mgcb", project, NULL);
	wait_for_builds(&w, 1);
	settle();
	save(anims, "/build:Wave.Animation\n");
	wait_for_builds(&w, 2);
	assert_true(test_file_exists(wave));
	settle();
	save(anims, "/build:Wave.Animation;W/Wave.Animation\n");
	wait_for_builds(&w, 3);
	assert_true(test_file_exists(moved));
	assert_false(test_file_exists(wave));
	free(moved), free(wave), free(anims), free(project), free(in), free(w.log), free(dir);
}

/* SIGINT while a build runs: the build stops as builds stop, the watch
 * ends with 0, and no temporary file stays. */
static void sigint_during_a_build(void **state)
{
	char *dir = test_tmpdir("watch-stop"), *out = test_format("%s/out", dir);
	watcher w;
	int status;

	(void)state;
	TEST_NEEDS_CORPUS();
	char *src = test_format("%s/robotgame", test_corpus_dir());
	start(&w, dir, out, src);
	/* The first build of 61 clips is under way: its running marker is
	 * there (a fixed wait was not enough on a loaded machine, where the
	 * signal came before the watch had set its handler). */
	for (int i = 0; i < 10000 && !test_has_running_marker(out); i++)
		usleep(1000);
	assert_int_equal(kill(w.pid, SIGINT), 0);
	assert_int_equal(waitpid(w.pid, &status, 0), w.pid);
	running_watch = 0;
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_false(has_temporary(out));
	free(src), free(w.log), free(out), free(dir);
}

/* Folder `in` made with a source that builds and one whose import loops
 * (Assimp's SMD reader on this file), holding a build until it is
 * stopped. */
static void make_looping_folder(const char *in)
{
	test_run_ok(test_exec("sh", "-c", "mkdir \"$1\" && cp testdata/sample/Crane/Turn.Animation \"$1\" && "
			      "cp testdata/assimp_crashes/endless_time.smd \"$1/b.smd\"", "sh", in, NULL));
}

/* SIGTERM (a CI job's timeout) while a build runs: the build is stopped
 * by that signal, and says so, as `animc build` does (the watch dropped
 * what the stopped build printed, and stopped it with SIGINT). */
static void sigterm_during_a_build_is_told(void **state)
{
	char *dir = test_tmpdir("watch-term"), *in = test_format("%s/in", dir), *out = test_format("%s/out", dir);
	watcher w;
	int status;

	(void)state;
	/* An import that loops (Assimp's SMD reader on this file) holds the
	 * build until it is stopped. */
	make_looping_folder(in);
	start(&w, dir, out, in);
	for (int i = 0; i < 10000 && !test_has_running_marker(out); i++)
		usleep(1000);
	usleep(300000);
	assert_int_equal(kill(w.pid, SIGTERM), 0);
	assert_int_equal(waitpid(w.pid, &status, 0), w.pid);
	running_watch = 0;
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	char *text = (char *)test_read_file(w.log, NULL);
	if (!strstr(text, "animc: error: the build was stopped (SIGTERM) after "))
		fail_msg("log: %s", text);
	free(text);
	assert_false(has_temporary(out));
	free(w.log), free(out), free(in), free(dir);
}

static struct timespec mtime_of(const char *path)
{
	struct stat st;

	assert_int_equal(stat(path, &st), 0);
	return st.st_mtim;
}

/* The report, JUnit file and depfile written inside the watched folder,
 * and the cache folder there, are the watch's own writes: they start no
 * rebuild (each build rewrote them, which started the next, for ever). */
static void watch_ignores_its_own_files(void **state)
{
	char *dir = test_tmpdir("watch-own"), *src = test_format("%s/src", dir), *out = test_format("%s/out", dir);
	char *turn = test_format("%s/Turn.Animation", src), *turn_xnb = test_format("%s/Turn.xnb", out);
	char *report = test_format("%s/report.json", src), *junit = test_format("%s/junit.xml", src);
	char *depfile = test_format("%s/deps.d", src), *cache = test_format("%s/cache", src);
	const char *argv[] = { "animc", "watch", "--report", report, "--junit", junit, "--depfile", depfile,
			 "--cache-dir", cache, "--cache-min-size", "0", "-o", out, src, NULL };
	struct timespec before, after;
	watcher w;

	(void)state;
	mkdir(src, 0755);
	char *text = turn_with_duration("1.5");
	save(turn, text);
	free(text);
	start_argv(&w, dir, argv);
	wait_for_builds(&w, 1);
	assert_true(duration_of(turn_xnb) == 1.5f);
	settle();
	before = mtime_of(report);
	usleep(1000000);   /* twenty times the quiet time: a rebuild would have come */
	after = mtime_of(report);
	assert_true(before.tv_sec == after.tv_sec && before.tv_nsec == after.tv_nsec);
	assert_int_equal(lines_with(w.log, " up to date, in "), 1);

	/* An edit: one rebuild, its store into the cache none more. */
	text = turn_with_duration("2.5");
	save(turn, text);
	free(text);
	wait_for_builds(&w, 2);
	assert_true(duration_of(turn_xnb) == 2.5f);
	usleep(1000000);
	assert_int_equal(lines_with(w.log, " up to date, in "), 2);
	assert_int_equal(lines_with(w.log, "/src/Turn.Animation)"), 2);
	stop_watch(NULL);
	free(cache), free(depfile), free(junit), free(report);
	free(w.log), free(turn), free(turn_xnb), free(src), free(out), free(dir);
}

/* `from` with its first `what` replaced by `with` (all malloc()ed). */
static char *replaced(const char *from, const char *what, const char *with)
{
	size_t size;
	char *text = (char *)test_read_file(from, &size), *at = strstr(text, what), *out;

	assert_non_null(at);
	*at = '\0';
	out = test_format("%s%s%s", text, with, at + strlen(what));
	free(text);
	return out;
}

/* The files a build read besides the sources named (the sidecar of a
 * source given by name) and those options name (--clips) are watched:
 * an edit there compiles the source again. */
static void watch_follows_the_files_read(void **state)
{
	char *dir = test_tmpdir("watch-deps"), *src = test_format("%s/src", dir), *out = test_format("%s/out", dir);
	char *walker = test_format("%s/Walker.xml", src), *sidecar = test_format("%s/Walker_Anims.xml", src);
	char *clips = test_format("%s/clips.xml", dir), *run_xnb = test_format("%s/Walker/Run.xnb", out);
	watcher w;
	float before;

	(void)state;
	test_run_ok(test_exec("sh", "-c", "mkdir \"$1\" && cp testdata/authoring/Walker.xml "
				  "testdata/authoring/Walker_Anims.xml \"$1\"", "sh", src, NULL));
	start(&w, dir, out, walker);
	wait_for_builds(&w, 1);
	before = duration_of(run_xnb);
	settle();
	char *text = replaced("testdata/authoring/Walker_Anims.xml", "<EndFrame>29<", "<EndFrame>20<");
	save(sidecar, text);
	wait_for_builds(&w, 2);
	assert_true(duration_of(run_xnb) < before);
	stop_watch(NULL);

	/* --clips FILE: watched too. */
	save(clips, text);
	free(text);
	free(w.log);
	const char *argv[] = { "animc", "watch", "--clips", clips, "-o", out, walker, NULL };
	start_argv(&w, dir, argv);
	wait_for_builds(&w, 1);
	before = duration_of(run_xnb);
	settle();
	text = replaced("testdata/authoring/Walker_Anims.xml", "<EndFrame>29<", "<EndFrame>12<");
	save(clips, text);
	free(text);
	wait_for_builds(&w, 2);
	assert_true(duration_of(run_xnb) < before);
	stop_watch(NULL);
	free(clips), free(run_xnb), free(sidecar), free(walker), free(w.log), free(src), free(out), free(dir);
}

/* The watch's output `xnb` is what a fresh build of `src` into `ref`
 * writes (`ref_xnb`), and no longer the bytes it held `before`. */
static void assert_rebuilt_as_fresh(const char *src, const char *ref, const char *xnb, const char *ref_xnb,
				    const uint8_t *before, size_t before_size)
{
	test_run r = test_animc("build", "-q", "-o", ref, src, NULL);
	size_t size, ref_size;
	uint8_t *got, *want;

	assert_int_equal(r.status, 0);
	test_run_release(&r);
	got = test_read_file(xnb, &size);
	want = test_read_file(ref_xnb, &ref_size);
	assert_true(size == ref_size && memcmp(got, want, size) == 0);
	assert_false(size == before_size && memcmp(got, before, size) == 0);
	free(got), free(want);
}

/* A file a build read named as folder walks leave out names (a glTF
 * buffer ".wag.bin"): a save of it is built (it was dropped as a name
 * left out, though the manifest records it). */
static void watch_follows_a_dependency_named_as_left_out(void **state)
{
	char *dir = test_tmpdir("watch-dot-dep"), *src = test_format("%s/src", dir), *out = test_format("%s/out", dir);
	char *ref = test_format("%s/ref", dir), *gltf = test_format("%s/external.gltf", src);
	char *bin = test_format("%s/.wag.bin", src), *xnb = test_format("%s/external/wag.xnb", out);
	char *ref_xnb = test_format("%s/external/wag.xnb", ref);
	char *text = replaced("testdata/gltf/external.gltf", "wag%20data.bin", ".wag.bin");
	size_t size, before_size;
	uint8_t *data = test_read_file("testdata/gltf/wag data.bin", &size), *before;
	watcher w;

	(void)state;
	mkdir(src, 0755);
	save(gltf, text);
	free(text);
	FILE *f = fopen(bin, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, size, f), size);
	fclose(f);
	start(&w, dir, out, src);
	wait_for_builds(&w, 1);
	before = test_read_file(xnb, &before_size);
	settle();
	data[size - 1] ^= 0x40;   /* the last key's value */
	f = fopen(bin, "r+b");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, size, f), size);
	fclose(f);
	wait_for_builds(&w, 2);
	stop_watch(NULL);
	assert_rebuilt_as_fresh(src, ref, xnb, ref_xnb, before, before_size);
	free(before), free(data), free(ref_xnb), free(xnb), free(bin), free(gltf), free(ref);
	free(w.log), free(src), free(out), free(dir);
}

/* A glTF buffer in a watched folder (which the walk also finds, and skips:
 * no importer reads it alone) saved in place at the same size, as `cp`
 * over it writes it: taken for a log growing, it started no rebuild and
 * the output kept the old keys. */
static void watch_builds_a_buffer_saved_in_place(void **state)
{
	char *dir = test_tmpdir("watch-buffer-in-place"), *src = test_format("%s/src", dir);
	char *out = test_format("%s/out", dir), *ref = test_format("%s/ref", dir);
	char *bin = test_format("%s/wag data.bin", src), *xnb = test_format("%s/external/wag.xnb", out);
	char *ref_xnb = test_format("%s/external/wag.xnb", ref);
	size_t size, before_size;
	uint8_t *data = test_read_file("testdata/gltf/wag data.bin", &size), *before;
	watcher w;
	int fd;

	(void)state;
	mkdir(src, 0755);
	test_run_ok(test_exec("cp", "testdata/gltf/external.gltf", "testdata/gltf/wag data.bin", src, NULL));
	start(&w, dir, out, src);
	wait_for_builds(&w, 1);
	before = test_read_file(xnb, &before_size);
	settle();
	data[size - 1] ^= 0x40;   /* the last key's value */
	fd = open(bin, O_WRONLY | O_TRUNC);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, size), (ssize_t)size);
	close(fd);
	wait_for_builds(&w, 2);
	stop_watch(NULL);
	assert_rebuilt_as_fresh(src, ref, xnb, ref_xnb, before, before_size);
	free(before), free(data), free(ref_xnb), free(xnb), free(bin), free(ref);
	free(w.log), free(src), free(out), free(dir);
}

/* A copy of the corpus's RobotGame clips in DIR/src (and the folders a/
 * and b/ there, empty), and the number of sources it holds. */
static char *corpus_copy(const char *dir, unsigned *count)
{
	char *src = test_format("%s/src", dir);
	test_run r = test_exec("sh", "-c", "mkdir -p \"$2/a\" \"$2/b\" && cp -r \"$1\"/robotgame/* \"$2\" && "
				   "find \"$2\" -type f | wc -l", "sh", test_corpus_dir(), src, NULL);

	assert_int_equal(r.status, 0);
	assert_int_equal(sscanf(r.out, "%u", count), 1);
	test_run_release(&r);
	return src;
}

/* The line counts the sources fetched from the cache (it said "compiled
 * 0 sources, ... 0 up to date" for all of them written). */
static void watch_line_counts_cached(void **state)
{
	char *dir = test_tmpdir("watch-cached"), *out = test_format("%s/out", dir), *cache = test_format("%s/cache", dir);
	char *rm = test_format("rm -rf '%s'", out), *src, *all;
	unsigned count;
	watcher w;

	(void)state;
	TEST_NEEDS_CORPUS();
	src = corpus_copy(dir, &count);
	const char *argv[] = { "animc", "watch", "--cache-dir", cache, "--cache-min-size", "0", "-o", out, src, NULL };
	start_argv(&w, dir, argv);
	wait_for_builds(&w, 1);
	settle();
	assert_int_equal(system(rm), 0);
	wait_for_builds(&w, 2);
	all = test_format(", %u cached, 0 failed", count);
	assert_int_equal(lines_with(w.log, all), 1);
	stop_watch(NULL);
	free(all), free(rm), free(cache), free(w.log), free(src), free(out), free(dir);
}

/* Every warning the line counts is printed above it: an entry of the
 * folder that cannot be read (a link to nothing) and a source's own, fetched
 * from the cache too (counted, they were never printed). */
static void watch_prints_the_warnings_it_counts(void **state)
{
	char *dir = test_tmpdir("watch-warnings"), *src = test_format("%s/src", dir), *out = test_format("%s/out", dir);
	char *cache = test_format("%s/cache", dir), *rm = test_format("rm -rf '%s'", out);
	char *turn = test_format("%s/Turn.Animation", src), *warn = test_format("%s/Warn.Animation", src);
	char *broken = test_format("%s/Broken.Animation", src), *text = turn_with_duration("1.5");
	char *count_missing = strstr(text, "<KeyFrameSequenceCount>"), *log;
	const char *argv[] = { "animc", "watch", "--cache-dir", cache, "--cache-min-size", "0", "-o", out, src, NULL };
	watcher w;
	size_t size;

	(void)state;
	mkdir(src, 0755);
	save(turn, text);
	assert_non_null(count_missing);
	memcpy(count_missing, "<KeyFrameSequenceCouns>", strlen("<KeyFrameSequenceCouns>"));
	memcpy(strstr(count_missing, "</KeyFrameSequenceCount>"), "</KeyFrameSequenceCouns>",
	       strlen("</KeyFrameSequenceCouns>"));
	save(warn, text);
	assert_int_equal(symlink("nowhere", broken), 0);
	start_argv(&w, dir, argv);
	wait_for_builds(&w, 1);
	settle();
	assert_int_equal(system(rm), 0);   /* the next build fetches both from the cache */
	wait_for_builds(&w, 2);
	log = (char *)test_read_file(w.log, &size);
	if (lines_with(w.log, " 0 failed, 3 warnings, 0 up to date") != 2 ||
	    lines_with(w.log, "/src/Broken.Animation: warning: cannot read") != 2 ||
	    lines_with(w.log, ": warning: unknown element <KeyFrameSequenceCouns>") != 2 ||
	    lines_with(w.log, "/src/Warn.Animation:2: warning: <AnimationSequence> has no") != 2 ||
	    lines_with(w.log, ", 2 cached, ") != 1)
		fail_msg("not each warning counted printed, in both builds:\n%s", log);
	free(log);
	stop_watch(NULL);
	free(text), free(turn), free(warn), free(broken), free(rm), free(cache);
	free(w.log), free(src), free(out), free(dir);
}

/* The line counts the run's own warnings it printed too: a project's
 * misspelt switch, said as each rebuild reads the project, and the project
 * changing its platform (which needs a restart to follow). */
static void watch_line_counts_the_projects_warnings(void **state)
{
	char *dir = test_tmpdir("watch-project-warning"), *project = test_format("%s/Content.mgcb", dir);
	char *turn = test_format("%s/Turn.Animation", dir), *log;
	const char *argv[] = { "animc", "watch", "--mgcb", project, NULL };
	static const char text[] = "/outputDir:out\n/platfrom:Windows\n/build:Turn.Animation\n";
	size_t size;
	uint8_t *bytes = test_read_file("testdata/sample/Crane/Turn.Animation", &size);
	watcher w;

	(void)state;
	assert_true(test_write_file(turn, bytes, size));
	assert_true(test_write_file(project, text, strlen(text)));
	start_argv(&w, dir, argv);
	wait_for_builds(&w, 1);
	settle();
	static const char changed[] = "/outputDir:out\n/platform:Android\n/build:Turn.Animation\n";
	assert_true(test_write_file(project, changed, strlen(changed)));
	wait_for_builds(&w, 2);
	stop_watch(NULL);
	log = (char *)test_read_file(w.log, &size);
	if (!strstr(log, ":2: warning: unknown switch /platfrom: (did you mean /platform:?); ignored [unknown-switch]\n") ||
	    !strstr(log, "), 0 failed, 1 warning, 0 up to date, in "))
		fail_msg("the project's warning not counted:\n%s", log);
	const char *restart = strstr(log, "Content.mgcb: warning: its /outputDir: or /platform: changed; restart animc "
				     "watch to follow it [project-changed]\n");
	if (!restart || !strstr(restart, ", 1 warning, "))
		fail_msg("the restart warning not counted:\n%s", log);
	free(log), free(bytes), free(turn), free(project), free(w.log), free(dir);
}

/* Errors and warnings go to standard error, as build prints them, and the
 * rebuild's line to standard output; usage errors name watch and its help. */
static void watch_prints_diagnostics_on_standard_error(void **state)
{
	char *dir = test_tmpdir("watch-stderr"), *src = test_format("%s/src", dir), *out = test_format("%s/out", dir);
	char *broken = test_format("%s/Broken.Animation", src), *err_log = test_format("%s/watch.err", dir);
	char *text = turn_with_duration("1.5"), *log, *errors;
	const char *argv[] = { "animc", "watch", "-o", out, src, NULL };
	watcher w;
	size_t size;
	test_run r;

	(void)state;
	mkdir(src, 0755);
	text[strlen(text) / 2] = '\0';   /* cut in the middle of its XML */
	save(broken, text);
	start_program_logs(&w, dir, test_animc_path(), argv, err_log);
	wait_for_builds(&w, 1);
	stop_watch(NULL);
	log = (char *)test_read_file(w.log, &size);
	errors = (char *)test_read_file(err_log, &size);
	if (strstr(log, "error") || !strstr(log, " 1 failed, 0 warnings, 0 up to date, in "))
		fail_msg("standard output:\n%s", log);
	if (!strstr(errors, "/src/Broken.Animation:") || !strstr(errors, ": error: ") ||
	    strstr(errors, "compiled"))
		fail_msg("standard error:\n%s", errors);
	r = test_animc("watch", src, NULL);
	assert_int_equal(r.status, 2);
	assert_string_equal(r.err, "animc watch: no output folder: give -o OUTDIR\nTry 'animc help watch'.\n");
	test_run_release(&r);
	r = test_animc("watch", "--frob", "-o", out, src, NULL);
	assert_int_equal(r.status, 2);
	assert_string_equal(r.err, "animc watch: unknown option '--frob'\nTry 'animc help watch'.\n");
	test_run_release(&r);
	free(errors), free(log), free(text), free(broken), free(err_log);
	free(w.log), free(src), free(out), free(dir);
}

/* A watch that does not start (an input not there) leaves no folder it
 * made, the output folder's parents and the cache folder too (they stayed,
 * empty); a folder that was there stays. */
static void watch_that_does_not_start_makes_no_folder(void **state)
{
	char *dir = test_tmpdir("watch-no-start"), *build = test_format("%s/build", dir);
	char *out = test_format("%s/build/Content", dir), *cache = test_format("%s/build/cache/x", dir);
	char *typo = test_format("%s/art-typo", dir);
	test_run r;

	(void)state;
	r = test_animc("watch", "-o", out, "--cache-dir", cache, typo, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "art-typo: error: cannot watch: No such file or directory"));
	test_run_release(&r);
	assert_false(test_file_exists(build));
	mkdir(build, 0755);
	r = test_animc("watch", "-o", out, typo, NULL);
	assert_int_equal(r.status, 1);
	test_run_release(&r);
	assert_true(test_file_exists(build));
	assert_false(test_file_exists(out));
	free(typo), free(cache), free(out), free(build), free(dir);
}

/* An input that is the output folder or the cache folder is a usage
 * error, and nothing is made (it watched nothing, said "watching 0
 * folders", and never built a save). */
static void watch_refuses_an_input_it_writes(void **state)
{
	char *dir = test_tmpdir("watch-input-written"), *src = test_format("%s/src", dir);
	char *out = test_format("%s/out", dir), *said;
	test_run r;

	(void)state;
	mkdir(src, 0755);
	r = test_animc("watch", "-o", src, src, NULL);
	assert_int_equal(r.status, 2);
	said = test_format("animc watch: the input '%s' is the output folder too (-o '%s'), which the build writes: "
			   "give -o a folder of its own\nTry 'animc help watch'.\n", src, src);
	assert_string_equal(r.err, said);
	free(said);
	test_run_release(&r);
	r = test_animc("watch", "-o", out, "--cache-dir", src, src, NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "is the cache folder too (--cache-dir '"));
	test_run_release(&r);
	assert_false(test_file_exists(out));
	free(out), free(src), free(dir);
}

/* Wait (up to 20 s) until the log has `count` lines with `what`. */
static void wait_for_lines(const watcher *w, const char *what, size_t count)
{
	for (int i = 0; i < 2000; i++) {
		if (lines_with(w->log, what) >= count)
			return;
		usleep(10000);
	}
	size_t size;
	char *text = (char *)test_read_file(w->log, &size);
	fail_msg("waited for %zu lines with '%s':\n%s", count, what, text);
}

/* A rebuild stopped before it compiled (the --skeleton model saved broken,
 * the project with an error, the project deleted) prints its line too,
 * after its error: it printed the error alone. */
static void watch_prints_a_line_for_a_build_not_built(void **state)
{
	char *dir = test_tmpdir("watch-not-built"), *src = test_format("%s/src", dir), *out = test_format("%s/out", dir);
	char *turn = test_format("%s/Turn.Animation", src), *skel = test_format("%s/Walker.gltf", dir);
	char *project = test_format("%s/P.mgcb", src), *text = turn_with_duration("1.5");
	char *copy = test_format("cp testdata/authoring/Walker_rest.gltf '%s'", skel);
	const char *argv[] = { "animc", "watch", "--skeleton", skel, "-o", out, src, NULL };
	watcher w;

	(void)state;
	mkdir(src, 0755);
	save(turn, text);
	free(text);
	assert_int_equal(system(copy), 0);
	start_argv(&w, dir, argv);
	wait_for_lines(&w, " in ", 1);
	settle();
	save(skel, "{");
	wait_for_lines(&w, " not built: stopped by the error above, 0 compiled, 0 warnings, in ", 1);
	stop_watch(NULL);
	free(w.log);

	/* The project: an error in it, then gone. */
	save(project, "/outputDir:bin\n/build:Turn.Animation\n");
	start_with(&w, dir, "--mgcb", project, NULL);
	wait_for_builds(&w, 1);
	settle();
	save(project, "/outputDir:bin\n$endif\n/build:Turn.Animation\n");
	char *line = test_format(" not built: an error in %s, 0 compiled, 0 warnings, in ", project);
	wait_for_lines(&w, line, 1);
	settle();
	assert_int_equal(unlink(project), 0);
	wait_for_lines(&w, line, 2);
	assert_int_equal(lines_with(w.log, ": error: "), 2);
	stop_watch(NULL);
	free(line), free(copy), free(project), free(skel), free(turn), free(w.log), free(src), free(out), free(dir);
}

/* A project caught empty (truncated, then written: a save, a sync tool)
 * is not one whose items were all removed: its outputs stay, no restart
 * is asked for (its /outputDir: did not change), a note says why, and the
 * next save builds it, all up to date.  White space and a byte-order mark
 * alone are as empty.  It was built: every output pruned, and a warning
 * that /outputDir: or /platform: changed. */
static void watch_keeps_the_outputs_of_a_project_saved_empty(void **state)
{
	char *dir = test_tmpdir("watch-mgcb-empty"), *in = test_format("%s/in", dir);
	char *project = test_format("%s/P.mgcb", in);
	char *idle = test_format("%s/bin/Idle.xnb", in), *wave = test_format("%s/bin/Wave.xnb", in), *log;
	static const char text[] = "/outputDir:bin\n/build:Idle.Animation\n/build:Wave.Animation\n";
	static const char *const blanks[] = { "", "\xEF\xBB\xBF \r\n\t\n" };
	watcher w;
	size_t size;

	(void)state;
	test_run_ok(test_exec("sh", "-c", "mkdir \"$1\" && cp testdata/sample/Crane/Idle.Animation "
				  "testdata/sample/Crane/Wave.Animation \"$1\"", "sh", in, NULL));
	save(project, text);
	start_with(&w, dir, "--mgcb", project, NULL);
	wait_for_builds(&w, 1);
	for (size_t i = 0; i < 2; i++) {
		settle();
		save(project, blanks[i]);
		wait_for_lines(&w, " not built: no line in ", i + 1);
		assert_true(test_file_exists(idle));
		assert_true(test_file_exists(wave));
		settle();
		save(project, text);
		wait_for_builds(&w, i + 2);
	}
	stop_watch(NULL);
	log = (char *)test_read_file(w.log, &size);
	if (lines_with(w.log, ": note: the project holds no line ") != 2 || strstr(log, "pruned") ||
	    strstr(log, "project-changed") ||
	    lines_with(w.log, " compiled 0 sources, 0 failed, 0 warnings, 2 up to date") != 2)
		fail_msg("the project saved empty:\n%s", log);
	assert_true(test_file_exists(idle));
	assert_true(test_file_exists(wave));
	free(log), free(wave), free(idle), free(project), free(in), free(w.log), free(dir);
}

/* The line names sources by their paths as the build names them: two of
 * one name in two folders were "Turn.Animation, Turn.Animation". */
static void watch_line_names_paths(void **state)
{
	char *dir = test_tmpdir("watch-names"), *src = test_format("%s/src", dir), *out = test_format("%s/out", dir);
	char *a = test_format("%s/a", src), *b = test_format("%s/b", src);
	char *turn_a = test_format("%s/Turn.Animation", a), *turn_b = test_format("%s/Turn.Animation", b);
	char *turn = turn_with_duration("1.5");
	watcher w;

	(void)state;
	mkdir(src, 0755), mkdir(a, 0755), mkdir(b, 0755);
	save(turn_a, turn);
	save(turn_b, turn);
	start(&w, dir, out, src);
	wait_for_builds(&w, 1);
	settle();
	free(turn);
	turn = turn_with_duration("2.5");
	save(turn_a, turn);
	save(turn_b, turn);
	wait_for_builds(&w, 2);
	assert_int_equal(lines_with(w.log, "/src/a/Turn.Animation"), 2);
	assert_int_equal(lines_with(w.log, "/src/b/Turn.Animation"), 2);
	stop_watch(NULL);
	free(turn), free(turn_a), free(turn_b), free(a), free(b), free(w.log), free(src), free(out), free(dir);
}

/* Whether the watch has a child (a build) running now. */
static bool is_building(pid_t watch)
{
	char *path = test_format("/proc/%d/task/%d/children", (int)watch, (int)watch);
	FILE *f = fopen(path, "r");
	int child = 0;

	free(path);
	if (f) {
		if (fscanf(f, "%d", &child) != 1)
			child = 0;
		fclose(f);
	}
	return child > 0;
}

/* Save `text` at `path` as editors do, a new file renamed over it. */
static void save_by_rename(const char *path, const char *text)
{
	char *tmp = test_format("%s.new", path);

	save(tmp, text);
	assert_int_equal(rename(tmp, path), 0);
	free(tmp);
}

/* A --clips file, a sidecar or a --skeleton model that is a symbolic link
 * to a shared file: a save of the file it leads to started no rebuild (the
 * link's own name was watched, in its folder, and nothing else). */
static void watch_follows_files_read_through_links(void **state)
{
	char *dir = test_tmpdir("watch-linked-deps"), *shared = test_format("%s/shared", dir);
	char *a = test_format("%s/a", dir), *b = test_format("%s/b", dir), *c = test_format("%s/c", dir);
	char *clips = test_format("%s/clips.xml", shared), *sidecar = test_format("%s/Walker_Anims.xml", shared);
	char *skel = test_format("%s/Walker.gltf", shared), *out = test_format("%s/out", dir);
	char *clips_link = test_format("%s/clips.xml", a), *skel_link = test_format("%s/Walker.gltf", c);
	char *walker = test_format("%s/Walker.xml", a), *sprint = test_format("%s/Walker/Sprint.xnb", out);
	char *anims = replaced("testdata/authoring/Walker_Anims.xml", ">Run<", ">Sprint<");
	const char *argv_a[] = { "animc", "watch", "--clips", clips_link, "-o", out, walker, NULL };
	const char *argv_c[] = { "animc", "watch", "--skeleton", skel_link, "-o", out, c, NULL };
	test_run r;
	watcher w;

	(void)state;
	r = test_exec("sh", "-c", "t=testdata/authoring; mkdir \"$1/a\" \"$1/b\" \"$1/c\" \"$1/shared\" && "
		      "cp $t/Walker_Anims.xml \"$1/shared/clips.xml\" && cp $t/Walker_Anims.xml \"$1/shared\" && "
		      "cp $t/Walker.xml \"$1/a\" && cp $t/Walker.xml \"$1/b\" && cp $t/Walker_rest.gltf \"$1/shared/Walker.gltf\" && "
		      "cp testdata/sample/Crane/Turn.Animation \"$1/c\" && ln -s ../shared/clips.xml \"$1/a\" && "
		      "ln -s ../shared/Walker_Anims.xml \"$1/b\" && ln -s ../shared/Walker.gltf \"$1/c\"", "sh", dir, NULL);
	if (r.status != 0)
		fail_msg("%s%s", r.out, r.err);
	test_run_release(&r);

	/* --clips FILE, a link. */
	start_argv(&w, dir, argv_a);
	wait_for_builds(&w, 1);
	assert_false(test_file_exists(sprint));
	settle();
	save_by_rename(clips, anims);
	wait_for_builds(&w, 2);
	assert_true(test_file_exists(sprint));
	stop_watch(NULL);
	free(w.log);

	/* A sidecar in a watched folder, a link. */
	test_run_ok(test_exec("rm", "-rf", out, NULL));
	start(&w, dir, out, b);
	wait_for_builds(&w, 1);
	assert_false(test_file_exists(sprint));
	settle();
	save_by_rename(sidecar, anims);
	wait_for_builds(&w, 2);
	assert_true(test_file_exists(sprint));
	stop_watch(NULL);
	free(w.log);

	/* --skeleton MODEL, a link: saved broken, the rebuild says so. */
	start_argv(&w, dir, argv_c);
	wait_for_lines(&w, " in ", 1);
	settle();
	save_by_rename(skel, "{");
	wait_for_lines(&w, " not built: stopped by the error above, 0 compiled, 0 warnings, in ", 1);
	stop_watch(NULL);
	free(anims), free(sprint), free(walker), free(skel_link), free(clips_link), free(out), free(skel);
	free(sidecar), free(clips), free(c), free(b), free(a), free(shared), free(dir), free(w.log);
}

/* Point the symbolic link `link` at `target` as ln -sfn does (a link made
 * in `dir`, renamed over it). */
static void repoint(const char *dir, const char *link, const char *target)
{
	char *tmp = test_format("%s/link.new", dir);

	assert_int_equal(symlink(target, tmp), 0);
	assert_int_equal(rename(tmp, link), 0);
	free(tmp);
}

/* A --clips file or a sidecar that is a symbolic link pointed at a file
 * not there yet (ln -sfn before the copy): the source fails, keeping its
 * parts, and the file's arrival builds it (it started no rebuild: the name
 * the link leads to was not watched, nor recorded by the failed build). */
static void watch_builds_once_a_link_leads_somewhere(void **state)
{
	char *dir = test_tmpdir("watch-link-nowhere"), *out = test_format("%s/out", dir);
	char *clips_link = test_format("%s/a/clips.xml", dir), *sidecar_link = test_format("%s/b/Walker_Anims.xml", dir);
	char *walker = test_format("%s/a/Walker.xml", dir), *b = test_format("%s/b", dir);
	char *next = test_format("%s/shared/next.xml", dir), *run = test_format("%s/Walker/Run.xnb", out);
	char *sprint = test_format("%s/Walker/Sprint.xnb", out);
	char *anims = replaced("testdata/authoring/Walker_Anims.xml", ">Run<", ">Sprint<");
	const char *argv_a[] = { "animc", "watch", "--clips", clips_link, "-o", out, walker, NULL };
	const char *links[2] = { clips_link, sidecar_link };
	test_run r;
	watcher w;

	(void)state;
	r = test_exec("sh", "-c", "t=testdata/authoring; mkdir \"$1/a\" \"$1/b\" \"$1/shared\" && "
		      "cp $t/Walker_Anims.xml \"$1/shared/clips.xml\" && cp $t/Walker.xml \"$1/a\" && "
		      "cp $t/Walker.xml \"$1/b\" && ln -s ../shared/clips.xml \"$1/a/clips.xml\" && "
		      "ln -s ../shared/clips.xml \"$1/b/Walker_Anims.xml\"", "sh", dir, NULL);
	if (r.status != 0)
		fail_msg("%s%s", r.out, r.err);
	test_run_release(&r);
	for (int i = 0; i < 2; i++) {
		if (i == 0)
			start_argv(&w, dir, argv_a);
		else
			start(&w, dir, out, b);
		wait_for_builds(&w, 1);
		assert_true(test_file_exists(run));
		settle();
		repoint(dir, links[i], "../shared/next.xml");
		wait_for_builds(&w, 2);
		assert_true(test_file_exists(run));
		assert_int_equal(lines_with(w.log, " 1 failed, "), 1);
		settle();
		save_by_rename(next, anims);
		wait_for_builds(&w, 3);
		assert_true(test_file_exists(sprint));
		stop_watch(NULL);
		free(w.log);
		assert_int_equal(unlink(next), 0);
		test_run_ok(test_exec("rm", "-rf", out, NULL));
	}
	free(anims), free(sprint), free(run), free(next), free(b), free(walker), free(sidecar_link);
	free(clips_link), free(out), free(dir);
}

/* The watch's child (its build) running now, other than `not`; 0 when
 * none is seen within 20 s. */
static pid_t build_of(pid_t watch, pid_t not)
{
	char *path = test_format("/proc/%d/task/%d/children", (int)watch, (int)watch);
	int child = 0;

	for (int i = 0; i < 2000 && (child <= 0 || child == not); i++) {
		FILE *f = fopen(path, "r");

		if (!f || fscanf(f, "%d", &child) != 1)
			child = 0;
		if (f)
			fclose(f);
		if (child <= 0 || child == not)
			usleep(10000);
	}
	free(path);
	return child == not ? 0 : child;
}

/* A rebuild whose process died (a crash, the OOM killer) vanished: no
 * line, no error, its sources stale until some later save.  It is told,
 * on the line and on standard error, and built again at once, once: a
 * second death in a row waits for the next change. */
static void watch_tells_a_build_that_died(void **state)
{
	char *dir = test_tmpdir("watch-died"), *in = test_format("%s/in", dir), *out = test_format("%s/out", dir);
	char *smd = test_format("%s/b.smd", in), *turn_xnb = test_format("%s/Turn.xnb", out);
	const char *line = " not built: the build process was killed by SIGKILL, in ";
	const char *error = "animc watch: error: the build process was killed by SIGKILL ";
	watcher w;
	pid_t first, second;

	(void)state;
	/* An import that loops holds each build until its process dies. */
	make_looping_folder(in);
	start(&w, dir, out, in);
	first = build_of(w.pid, 0);
	assert_true(first > 0);
	assert_int_equal(kill(first, SIGKILL), 0);
	wait_for_lines(&w, line, 1);
	/* Built again at once; that one dies too. */
	second = build_of(w.pid, first);
	assert_true(second > 0);
	assert_int_equal(kill(second, SIGKILL), 0);
	wait_for_lines(&w, line, 2);
	assert_int_equal(lines_with(w.log, error), 2);
	settle();
	assert_false(is_building(w.pid));
	assert_int_equal(lines_with(w.log, line), 2);
	/* The next change builds. */
	assert_int_equal(unlink(smd), 0);
	wait_for_builds(&w, 1);
	assert_true(test_file_exists(turn_xnb));
	free(turn_xnb), free(smd), free(w.log), free(out), free(in), free(dir);
}

/* Whether process `pid` is running (a zombie, ended and not yet reaped, is
 * not). */
static bool is_running(pid_t pid)
{
	char *path = test_format("/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	char line[512] = "";
	bool running = false;

	free(path);
	if (f) {
		char *end = fgets(line, sizeof line, f) ? strrchr(line, ')') : NULL;

		running = end && end[1] == ' ' && end[2] != 'Z';
		fclose(f);
	}
	return running;
}

/* A watch killed with SIGKILL (none of its handlers runs) takes its rebuild
 * along, as a build takes its workers: the rebuild went on without it,
 * writing OUTDIR after the watch was stopped, and `animc clean` run then was
 * refused ("a build is writing this folder"). */
static void a_killed_watch_takes_its_build_along(void **state)
{
	char *dir = test_tmpdir("watch-killed"), *in = test_format("%s/in", dir), *out = test_format("%s/out", dir);
	test_run r;
	watcher w;
	pid_t build;

	(void)state;
	/* An import that loops holds the rebuild until its process dies. */
	make_looping_folder(in);
	start(&w, dir, out, in);
	build = build_of(w.pid, 0);
	assert_true(build > 0);
	assert_int_equal(kill(w.pid, SIGKILL), 0);
	assert_int_equal(waitpid(w.pid, NULL, 0), w.pid);
	running_watch = 0;
	for (int i = 0; i < 500 && is_running(build); i++)
		usleep(10000);
	if (is_running(build)) {
		kill(build, SIGKILL);
		fail_msg("the rebuild (process %d) outlived its watch, killed with SIGKILL", (int)build);
	}
	r = test_animc("clean", "-o", out, NULL);
	if (r.status != 0)
		fail_msg("clean after the watch was killed: exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
	free(w.log), free(out), free(in), free(dir);
}

/* A rebuild during which a file that is no source was written prints its
 * line (it printed nothing, and the next build, finding everything up to
 * date, did not tell what this one compiled). */
static void watch_prints_every_rebuild(void **state)
{
	char *dir = test_tmpdir("watch-lines"), *out = test_format("%s/out", dir), *rm = test_format("rm -rf '%s'", out);
	char *src, *notes, *all, *text;
	unsigned count;
	watcher w;
	size_t size;

	(void)state;
	TEST_NEEDS_CORPUS();
	src = corpus_copy(dir, &count);
	notes = test_format("%s/notes.txt", src);
	start(&w, dir, out, src);
	wait_for_builds(&w, 1);
	settle();
	/* Every source compiles again; the note is written meanwhile. */
	assert_int_equal(system(rm), 0);
	for (int i = 0; i < 20000 && !is_building(w.pid); i++)
		usleep(1000);
	save(notes, "a note\n");
	all = test_format("compiled %u sources", count);
	for (int i = 0; i < 2000 && lines_with(w.log, all) < 2; i++)
		usleep(10000);
	text = (char *)test_read_file(w.log, &size);
	if (lines_with(w.log, all) != 2)
		fail_msg("no line of the second build of all %u sources:\n%s", count, text);
	free(text);
	stop_watch(NULL);
	free(all), free(rm), free(notes), free(w.log), free(src), free(out), free(dir);
}

/* A symbolic link and a hard link made in the folder are new sources,
 * there whole at once: built (they were taken for files being written,
 * and waited for until something else happened). */
static void watch_builds_new_links(void **state)
{
	char *dir = test_tmpdir("watch-links"), *src = test_format("%s/src", dir), *out = test_format("%s/out", dir);
	char *elsewhere = test_format("%s/Turn.Animation", dir), *text = turn_with_duration("1.5");
	char *sym = test_format("%s/Linked.Animation", src), *hard = test_format("%s/Hard.Animation", src);
	char *link_xnb = test_format("%s/Linked.xnb", out), *hard_xnb = test_format("%s/Hard.xnb", out);
	watcher w;

	(void)state;
	mkdir(src, 0755);
	save(elsewhere, text);
	start(&w, dir, out, src);
	wait_for_builds(&w, 1);
	settle();
	assert_int_equal(symlink("../Turn.Animation", sym), 0);
	wait_for_builds(&w, 2);
	assert_true(test_file_exists(link_xnb));
	settle();
	assert_int_equal(link(elsewhere, hard), 0);
	wait_for_builds(&w, 3);
	assert_true(test_file_exists(hard_xnb));
	stop_watch(NULL);
	free(link_xnb), free(hard_xnb), free(sym), free(hard), free(text), free(elsewhere);
	free(w.log), free(src), free(out), free(dir);
}

/* A file no importer reads, kept open and growing (a tool's log), holds
 * no rebuild back (a save was built only once the log was closed). */
static void watch_is_not_held_by_a_growing_log(void **state)
{
	char *dir = test_tmpdir("watch-log"), *src = test_format("%s/src", dir), *out = test_format("%s/out", dir);
	char *turn = test_format("%s/Turn.Animation", src), *turn_xnb = test_format("%s/Turn.xnb", out);
	char *log = test_format("%s/export.log", src), *text = turn_with_duration("1.5");
	watcher w;
	pid_t logger;
	int fd;

	(void)state;
	mkdir(src, 0755);
	save(turn, text);
	free(text);
	fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	start(&w, dir, out, src);
	wait_for_builds(&w, 1);
	logger = fork();
	assert_true(logger >= 0);
	if (logger == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (;;) {
			if (write(fd, "progress\n", 9) != 9)
				_exit(1);
			usleep(100000);
		}
	}
	close(fd);
	settle();
	save_and_wait(&w, turn, turn_xnb, "2.5");
	kill(logger, SIGKILL);
	waitpid(logger, NULL, 0);
	stop_watch(NULL);
	free(log), free(turn), free(turn_xnb), free(w.log), free(src), free(out), free(dir);
}

/* The inotify watches the process holds now (lines of its inotify
 * descriptors' fdinfo). */
static size_t watches_of(pid_t pid)
{
	char *dir = test_format("/proc/%d/fdinfo", (int)pid);
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	assert_non_null(d);
	while ((e = readdir(d))) {
		char *path = test_format("%s/%s", dir, e->d_name), line[512];
		FILE *f = e->d_name[0] == '.' ? NULL : fopen(path, "r");

		while (f && fgets(line, sizeof line, f))
			n += strncmp(line, "inotify wd:", 11) == 0;
		if (f)
			fclose(f);
		free(path);
	}
	closedir(d);
	free(dir);
	return n;
}

/* The watches the process holds once they come to `want` (the watch
 * moves them after the build it runs for a change, which a loaded
 * machine can let finish first), or after 5 s, what it holds then. */
static size_t watches_settle(pid_t pid, size_t want)
{
	size_t n = watches_of(pid);

	for (int i = 0; i < 500 && n != want; i++) {
		usleep(10000);
		n = watches_of(pid);
	}
	return n;
}

/* Folders moved out of the tree, or deleted, are watched no more: their
 * kernel watches were kept (and leaked) for as long as the watch ran. */
static void watch_forgets_folders_moved_out(void **state)
{
	char *dir = test_tmpdir("watch-moved"), *src = test_format("%s/src", dir), *out = test_format("%s/out", dir);
	char *trash = test_format("%s/trash", dir), *turn = test_format("%s/Turn.Animation", src);
	char *text = turn_with_duration("1.5");
	watcher w;
	size_t before;

	(void)state;
	mkdir(src, 0755), mkdir(trash, 0755);
	save(turn, text);
	start(&w, dir, out, src);
	wait_for_builds(&w, 1);
	settle();
	before = watches_of(w.pid);
	for (int i = 0; i < 5; i++) {
		char *take = test_format("%s/take%d", src, i), *sub = test_format("%s/sub", take);
		char *file = test_format("%s/R.Animation", sub), *moved = test_format("%s/take%d", trash, i);

		mkdir(take, 0755), mkdir(sub, 0755);
		save(file, text);
		wait_for_builds(&w, (size_t)(2 + i));
		for (int k = 0; k < 2000 && watches_of(w.pid) < before + 2; k++)
			usleep(10000);
		if (watches_of(w.pid) < before + 2)
			fail_msg("%zu watches, %zu before", watches_of(w.pid), before);
		if (i % 2 == 0) {
			assert_int_equal(rename(take, moved), 0);
		} else {
			char *rm = test_format("rm -rf '%s'", take);

			assert_int_equal(system(rm), 0);
			free(rm);
		}
		for (int k = 0; k < 2000 && watches_of(w.pid) != before; k++)
			usleep(10000);
		assert_int_equal(watches_of(w.pid), before);
		settle();
		free(take), free(sub), free(file), free(moved);
	}
	stop_watch(NULL);
	free(text), free(turn), free(trash), free(w.log), free(src), free(out), free(dir);
}

/* An input folder moved away (renamed out of the tree, not deleted) is
 * watched no more, nor its folders: their watches were kept, and a save in
 * the moved folder rebuilt, though its files are no inputs now.  One made
 * again in its place is watched. */
static void watch_forgets_an_input_folder_moved_away(void **state)
{
	char *dir = test_tmpdir("watch-input-moved"), *src = test_format("%s/src", dir), *out = test_format("%s/out", dir);
	char *sub = test_format("%s/sub", src), *moved = test_format("%s/moved", dir);
	char *turn = test_format("%s/Turn.Animation", src), *turn_xnb = test_format("%s/Turn.xnb", out);
	char *text = turn_with_duration("1.5");
	watcher w;

	(void)state;
	mkdir(src, 0755), mkdir(sub, 0755);
	save(turn, text);
	free(text);
	start(&w, dir, out, src);
	wait_for_builds(&w, 1);
	settle();
	assert_int_equal(watches_of(w.pid), 3);   /* src, sub and the output folder */
	assert_int_equal(rename(src, moved), 0);
	wait_for_builds(&w, 2);   /* the input is gone: said, not built */
	for (int i = 0; i < 2000 && watches_of(w.pid) != 1; i++)
		usleep(10000);
	assert_int_equal(watches_of(w.pid), 1);   /* the output folder's */

	/* Made again: watched, and built. */
	mkdir(src, 0755);
	save_and_wait(&w, turn, turn_xnb, "2.5");
	for (int i = 0; i < 2000 && watches_of(w.pid) != 2; i++)
		usleep(10000);
	assert_int_equal(watches_of(w.pid), 2);
	stop_watch(NULL);
	free(sub), free(moved), free(turn), free(turn_xnb), free(w.log), free(src), free(out), free(dir);
}

/* An input folder holding the output folder (-o src/out src), moved
 * away: each rebuild made the output folder, and the input with it, again;
 * the folder moved back then landed inside that one (src/moved), and was
 * built to src/out/moved.  The watch now builds nothing while the input
 * is gone, and one moved back is built where it was. */
static void watch_does_not_make_a_gone_input_again(void **state)
{
	char *dir = test_tmpdir("watch-out-inside"), *src = test_format("%s/src", dir);
	char *out = test_format("%s/out", src), *moved = test_format("%s/moved", dir);
	char *turn = test_format("%s/Turn.Animation", src), *turn_xnb = test_format("%s/Turn.xnb", out);
	char *nested = test_format("%s/moved", src), *text = turn_with_duration("1.5");
	watcher w;

	(void)state;
	mkdir(src, 0755);
	save(turn, text);
	free(text);
	start(&w, dir, out, src);
	wait_for_builds(&w, 1);
	assert_true(test_file_exists(turn_xnb));
	settle();
	assert_int_equal(rename(src, moved), 0);
	for (int i = 0; i < 2000 && lines_with(w.log, "not built: the output folder is gone with ") == 0; i++)
		usleep(10000);
	assert_int_equal(lines_with(w.log, "not built: the output folder is gone with "), 1);
	settle();
	assert_false(test_file_exists(src));
	assert_int_equal(rename(moved, src), 0);
	wait_for_builds(&w, 2);
	assert_true(test_file_exists(turn_xnb));
	assert_false(test_file_exists(nested));
	stop_watch(NULL);
	free(nested), free(moved), free(turn), free(turn_xnb), free(w.log), free(src), free(out), free(dir);
}

/* A missing input holding the output folder was made by making the
 * output folder: the build exited 0 having built nothing, and the watch
 * started.  Both now fail as for any missing input, and make no folder. */
static void a_missing_input_holding_the_output_folder_is_not_made(void **state)
{
	char *dir = test_tmpdir("missing-out-inside"), *src = test_format("%s/art", dir);
	char *out = test_format("%s/out", src);
	const char *commands[2] = { "build", "watch" };

	(void)state;
	for (int i = 0; i < 2; i++) {
		test_run r = test_animc(commands[i], "-o", out, src, NULL);

		assert_int_equal(r.status, 1);
		assert_non_null(strstr(r.err, "art: error: cannot open: No such file or directory"));
		assert_false(test_file_exists(src));
		test_run_release(&r);
	}
	free(out), free(src), free(dir);
}

/* A project item in a folder made after the watch started is built once
 * it is saved there (nothing was watched in the folder's place). */
static void watch_follows_a_project_folder_made_later(void **state)
{
	char *dir = test_tmpdir("watch-mgcb-later"), *in = test_format("%s/in", dir);
	char *project = test_format("%s/P.mgcb", in), *later = test_format("%s/Later", in);
	char *walk = test_format("%s/Walk.Animation", later), *walk_xnb = test_format("%s/bin/Later/Walk.xnb", in);
	char *text = turn_with_duration("1.5");
	watcher w;

	(void)state;
	mkdir(in, 0755);
	save(project, "/outputDir:bin\n/build:Later/Walk.Animation\n");
	start_with(&w, dir, "--mgcb", project, NULL);
	wait_for_builds(&w, 1);
	settle();
	mkdir(later, 0755);
	save(walk, text);
	wait_for_duration(&w, walk_xnb, 1.5f);
	stop_watch(NULL);
	free(text), free(walk), free(walk_xnb), free(later), free(project), free(in), free(w.log), free(dir);
}

/* Under a limit of `limit` inotify watches (in a user namespace of its
 * own, which leaves the system's limit alone), "sh -c SCRIPT" with $0 the
 * animc under test: the argv for start_program or test_execv. */
static const char **under_watch_limit(int limit, const char *script)
{
	static char body[1024];
	static const char *argv[8];

	snprintf(body, sizeof body, "echo %d > /proc/sys/user/max_inotify_watches && %s", limit, script);
	argv[0] = "unshare", argv[1] = "-Ur", argv[2] = "sh", argv[3] = "-c", argv[4] = body;
	argv[5] = test_animc_path(), argv[6] = NULL;
	return argv;
}

/* The watch-limit tests set the limit in a user namespace of their own. */
static void skip_without_user_namespaces(void)
{
	const char *probe[] = { "unshare", "-Ur", "true", NULL };
	test_run r = test_execv(probe);
	int status = r.status;

	test_run_release(&r);
	if (status != 0)
		skip();   /* no user namespaces here */
}

/* At the inotify watch limit: a message naming fs.inotify.max_user_watches
 * (it said "No space left on device"), and a folder that could not be
 * watched is watched once there is room (it never was; nothing else
 * happening meanwhile). */
static void watch_waits_for_room_under_the_watch_limit(void **state)
{
	char *dir = test_tmpdir("watch-limit"), *src = test_format("%s/src", dir), *out = test_format("%s/out", dir);
	char *turn = test_format("%s/Turn.Animation", src), *text = turn_with_duration("1.5");
	char *a = test_format("%s/A", src), *b = test_format("%s/B", src), *c = test_format("%s/C", src);
	char *t1 = test_format("%s/T1.Animation", c), *t1_xnb = test_format("%s/C/T1.xnb", out);
	char *script = test_format("exec \"$0\" watch -o '%s' '%s'", out, src);
	watcher w;
	test_run r;

	(void)state;
	skip_without_user_namespaces();
	mkdir(src, 0755), mkdir(a, 0755);
	save(turn, text);

	/* At the start: two folders, room for one. */
	char *bounded = test_format("timeout 60 \"$0\" watch -o '%s' '%s'", out, src);
	r = test_execv(under_watch_limit(1, bounded));
	free(bounded);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "fs.inotify.max_user_watches"));
	test_run_release(&r);

	/* During the session: room for src, A, B and the output folder. */
	start_program(&w, dir, "unshare", under_watch_limit(4, script));
	wait_for_builds(&w, 1);
	mkdir(b, 0755);
	for (int i = 0; i < 2000 && watches_of(w.pid) < 4; i++)
		usleep(10000);
	assert_int_equal(watches_of(w.pid), 4);
	mkdir(c, 0755);
	for (int i = 0; i < 2000 && lines_with(w.log, "raise fs.inotify.max_user_watches") == 0; i++)
		usleep(10000);
	assert_int_equal(lines_with(w.log, "raise fs.inotify.max_user_watches"), 1);
	save(t1, text);
	/* Room again: the limit raised in the watch's namespace. */
	char *raise = test_format("nsenter -t %d -U --preserve-credentials sh -c "
				  "'echo 8 > /proc/sys/user/max_inotify_watches'", (int)w.pid);
	assert_int_equal(system(raise), 0);
	free(raise);
	wait_for_duration(&w, t1_xnb, 1.5f);
	/* C is watched now: src, A, B, C and the output folder.  (Counted,
	 * not shown by a save into C: under a loaded test run that save once
	 * went unbuilt within the deadline, which the count does not hang on.) */
	for (int i = 0; i < 2000 && watches_of(w.pid) < 5; i++)
		usleep(10000);
	assert_int_equal(watches_of(w.pid), 5);
	assert_int_equal(lines_with(w.log, "raise fs.inotify.max_user_watches"), 1);
	stop_watch(NULL);
	free(script), free(t1), free(t1_xnb), free(a), free(b), free(c);
	free(text), free(turn), free(w.log), free(src), free(out), free(dir);
}

/* A folder of the tree this user cannot read (mode 700, another
 * owner: one not mapped into a user namespace of the watch's own, whose
 * root is no root there): the watch did not start ("cannot watch:
 * Permission denied", status 1) where a build warns and builds the rest,
 * and one made while watching was said to be so once a second.  It is
 * left out as the build leaves it out; made readable, it is built. */
static void watch_leaves_out_a_folder_it_cannot_read(void **state)
{
	char *dir = test_tmpdir("watch-unreadable"), *src = test_format("%s/src", dir), *out = test_format("%s/out", dir);
	char *script = test_format("exec \"$0\" watch -o '%s' '%s'", out, src);
	char *later = test_format("%s/later", src), *step = test_format("%s/later/Step.Animation", src);
	char *step_xnb = test_format("%s/later/Step.xnb", out), *text = turn_with_duration("1.5");
	char *turn = test_format("%s/Turn.Animation", src);
	const char *argv[] = { "unshare", "-Ur", "sh", "-c", script, test_animc_path(), NULL };
	watcher w;

	(void)state;
	skip_without_user_namespaces();
	if (geteuid() != 0)
		skip();   /* a folder of another owner is made as root */
	test_sh("mkdir -p '%s/locked' && chown 12345 '%s/locked' && chmod 700 '%s/locked'", src, src, src);
	save(turn, text);
	start_program(&w, dir, "unshare", argv);
	wait_for_builds(&w, 1);
	settle();
	test_sh("mkdir -m 700 '%s' && chown 12345 '%s'", later, later);
	wait_for_builds(&w, 2);
	usleep(1500000);   /* a second's retry and more */
	assert_int_equal(lines_with(w.log, "cannot watch"), 0);
	test_sh("chmod 755 '%s'", later);
	wait_for_builds(&w, 3);
	settle();
	save(step, text);
	wait_for_duration(&w, step_xnb, 1.5f);
	stop_watch(NULL);
	free(dir), free(src), free(out), free(script), free(later), free(step), free(step_xnb), free(text), free(turn);
	free(w.log);
}

/* A project item added in a folder that cannot be watched (the watch
 * limit): the watch goes on, prints the rebuild's line, says the limit
 * once and watches the folder once there is room (it ended by itself with
 * status 0, which only a stop may give, and the line was dropped). */
static void watch_mgcb_waits_for_room_under_the_watch_limit(void **state)
{
	char *dir = test_tmpdir("watch-mgcb-limit"), *in = test_format("%s/in", dir);
	char *a = test_format("%s/A", in), *b = test_format("%s/B", in), *project = test_format("%s/P.mgcb", in);
	char *turn = test_format("%s/Turn.Animation", a), *t1 = test_format("%s/T1.Animation", b);
	char *t1_xnb = test_format("%s/bin/B/T1.xnb", in), *text = turn_with_duration("1.5");
	char *script = test_format("exec \"$0\" watch --mgcb '%s'", project);
	watcher w;

	(void)state;
	skip_without_user_namespaces();
	mkdir(in, 0755), mkdir(a, 0755), mkdir(b, 0755);
	save(turn, text), save(t1, text);
	free(text);
	save(project, "/outputDir:bin\n/build:A/Turn.Animation\n");
	/* Room for in (the project), A and the output folder. */
	start_program(&w, dir, "unshare", under_watch_limit(3, script));
	wait_for_builds(&w, 1);
	settle();
	assert_int_equal(watches_of(w.pid), 3);
	save(project, "/outputDir:bin\n/build:A/Turn.Animation\n/build:B/T1.Animation\n");
	wait_for_builds(&w, 2);
	for (int i = 0; i < 2000 && lines_with(w.log, "raise fs.inotify.max_user_watches") == 0; i++)
		usleep(10000);
	assert_int_equal(lines_with(w.log, "raise fs.inotify.max_user_watches"), 1);
	/* T1 alone: Turn is up to date, the project edit being no edit of it. */
	assert_int_equal(lines_with(w.log, " compiled 1 source ("), 2);
	assert_int_equal(lines_with(w.log, "/B/T1.Animation), 0 failed, 0 warnings, 1 up to date"), 1);
	assert_true(test_file_exists(t1_xnb));
	settle();
	assert_int_equal(kill(w.pid, 0), 0);   /* still watching */
	/* Room again: B is watched, and a save there is built. */
	char *raise = test_format("nsenter -t %d -U --preserve-credentials sh -c "
				  "'echo 8 > /proc/sys/user/max_inotify_watches'", (int)w.pid);
	assert_int_equal(system(raise), 0);
	free(raise);
	for (int i = 0; i < 2000 && watches_of(w.pid) < 4; i++)
		usleep(10000);
	assert_int_equal(watches_of(w.pid), 4);
	settle();
	text = turn_with_duration("2.5");
	save(t1, text);
	free(text);
	wait_for_duration(&w, t1_xnb, 2.5f);
	assert_int_equal(lines_with(w.log, "raise fs.inotify.max_user_watches"), 1);
	stop_watch(NULL);
	free(script), free(t1), free(t1_xnb), free(turn), free(a), free(b), free(project);
	free(in), free(w.log), free(dir);
}

/* More events than the kernel queues for the watch while it is stopped,
 * and a folder made meanwhile: the queue overflows, and the folder is
 * watched after it (only the build looked at everything). */
static void watch_finds_folders_made_during_an_overflow(void **state)
{
	char *dir = test_tmpdir("watch-overflow"), *src = test_format("%s/src", dir), *out = test_format("%s/out", dir);
	char *turn = test_format("%s/Turn.Animation", src), *wave = test_format("%s/Wave.Animation", src);
	char *late = test_format("%s/Late", src), *t1 = test_format("%s/T1.Animation", late);
	char *t2 = test_format("%s/T2.Animation", late), *t2_xnb = test_format("%s/Late/T2.xnb", out);
	char *text = turn_with_duration("1.5");
	size_t size;
	char *queued = (char *)test_read_file("/proc/sys/fs/inotify/max_queued_events", &size);
	long events = 2 * strtol(queued, NULL, 10) + 16;
	watcher w;

	(void)state;
	free(queued);
	mkdir(src, 0755);
	save(turn, text);
	save(wave, text);
	start(&w, dir, out, src);
	wait_for_builds(&w, 1);
	settle();
	assert_int_equal(kill(w.pid, SIGSTOP), 0);
	for (long i = 0; i < events; i++)   /* alternating, so that none merge */
		assert_int_equal(utimensat(AT_FDCWD, i % 2 ? turn : wave, NULL, 0), 0);
	mkdir(late, 0755);
	save(t1, text);
	assert_int_equal(kill(w.pid, SIGCONT), 0);
	wait_for_builds(&w, 2);
	settle();
	save(t2, text);
	wait_for_duration(&w, t2_xnb, 1.5f);
	stop_watch(NULL);
	free(text), free(turn), free(wave), free(late), free(t1), free(t2), free(t2_xnb);
	free(w.log), free(src), free(out), free(dir);
}

/* A folder reached through a symbolic link (there at the start, or made
 * later) is watched as the build walks it: saves there are built (they
 * were missed). */
static void watch_follows_linked_folders(void **state)
{
	char *dir = test_tmpdir("watch-linked"), *src = test_format("%s/src", dir), *out = test_format("%s/out", dir);
	char *shared = test_format("%s/shared", dir), *shared2 = test_format("%s/shared2", dir);
	char *pack = test_format("%s/Pack", src), *pack2 = test_format("%s/Pack2", src);
	char *turn = test_format("%s/Turn.Animation", shared), *turn_xnb = test_format("%s/Pack/Turn.xnb", out);
	char *wave = test_format("%s/Wave.Animation", shared2), *wave_xnb = test_format("%s/Pack2/Wave.xnb", out);
	char *text = turn_with_duration("1.5");
	watcher w;

	(void)state;
	mkdir(src, 0755), mkdir(shared, 0755), mkdir(shared2, 0755);
	save(turn, text);
	free(text);
	assert_int_equal(symlink("../shared", pack), 0);
	start(&w, dir, out, src);
	wait_for_duration(&w, turn_xnb, 1.5f);
	settle();
	save_and_wait(&w, turn, turn_xnb, "2.5");

	/* A link made later, then a save behind it. */
	assert_int_equal(symlink("../shared2", pack2), 0);
	settle();
	save_and_wait(&w, wave, wave_xnb, "3.5");
	stop_watch(NULL);
	free(shared), free(shared2), free(pack), free(pack2), free(turn), free(turn_xnb), free(wave), free(wave_xnb);
	free(w.log), free(src), free(out), free(dir);
}

/* A source that is a symbolic link to a file outside the watched folders,
 * in a walked folder or named on the command line: a save of the file it
 * leads to is built (it was missed until something else changed). */
static void watch_follows_linked_files(void **state)
{
	char *dir = test_tmpdir("watch-linked-file"), *src = test_format("%s/src", dir), *out = test_format("%s/out", dir);
	char *shared = test_format("%s/shared", dir), *other = test_format("%s/other", dir);
	char *turn = test_format("%s/Turn.Animation", shared), *turn_link = test_format("%s/Turn.Animation", src);
	char *wave = test_format("%s/Wave.Animation", other), *wave_link = test_format("%s/Wave.Animation", dir);
	char *turn_xnb = test_format("%s/Turn.xnb", out), *wave_xnb = test_format("%s/Wave.xnb", out);
	char *text = turn_with_duration("1.5");
	const char *argv[] = { "animc", "watch", "-o", out, src, wave_link, NULL };
	watcher w;

	(void)state;
	mkdir(src, 0755), mkdir(shared, 0755), mkdir(other, 0755);
	save(turn, text), save(wave, text);
	free(text);
	assert_int_equal(symlink("../shared/Turn.Animation", turn_link), 0);
	assert_int_equal(symlink("other/Wave.Animation", wave_link), 0);
	start_argv(&w, dir, argv);
	wait_for_builds(&w, 1);
	assert_true(duration_of(turn_xnb) == 1.5f && duration_of(wave_xnb) == 1.5f);
	settle();
	save_and_wait(&w, turn, turn_xnb, "2.5");
	settle();
	save_and_wait(&w, wave, wave_xnb, "3.5");
	stop_watch(NULL);
	free(shared), free(other), free(turn), free(turn_link), free(wave), free(wave_link), free(turn_xnb);
	free(wave_xnb), free(w.log), free(src), free(out), free(dir);
}

/* An input that is a symbolic link to a folder, pointed at another folder
 * (`ln -sfn v2 current`): built from the new one, what only the old one
 * held pruned, and saves there built; the old one is watched no more.
 * (Nothing was noticed: the watch stayed on the old folder.) */
static void watch_follows_an_input_link_pointed_elsewhere(void **state)
{
	char *dir = test_tmpdir("watch-input-link"), *out = test_format("%s/out", dir);
	char *v1 = test_format("%s/v1", dir), *v2 = test_format("%s/v2", dir);
	char *current = test_format("%s/current", dir), *next = test_format("%s/current.next", dir);
	char *turn1 = test_format("%s/Turn.Animation", v1), *wave1 = test_format("%s/Wave.Animation", v1);
	char *turn2 = test_format("%s/Turn.Animation", v2);
	char *turn_xnb = test_format("%s/Turn.xnb", out), *wave_xnb = test_format("%s/Wave.xnb", out);
	char *text = turn_with_duration("1.5");
	watcher w;

	(void)state;
	mkdir(v1, 0755), mkdir(v2, 0755);
	save(turn1, text), save(wave1, text);
	free(text);
	text = turn_with_duration("2.5");
	save(turn2, text);
	free(text);
	assert_int_equal(symlink("v1", current), 0);
	start(&w, dir, out, current);
	wait_for_builds(&w, 1);
	assert_true(duration_of(turn_xnb) == 1.5f && test_file_exists(wave_xnb));
	settle();
	/* Pointed at v2, as ln -sfn does it. */
	assert_int_equal(symlink("v2", next), 0);
	assert_int_equal(rename(next, current), 0);
	wait_for_duration(&w, turn_xnb, 2.5f);
	for (int i = 0; i < 500 && test_file_exists(wave_xnb); i++)
		usleep(10000);   /* pruned as the rebuild ends */
	assert_false(test_file_exists(wave_xnb));
	/* v2 watched in v1's place, the link's folder and the output folder */
	assert_int_equal(watches_settle(w.pid, 3), 3);
	settle();
	text = turn_with_duration("3.5");
	save(turn2, text);
	free(text);
	wait_for_duration(&w, turn_xnb, 3.5f);
	stop_watch(NULL);
	free(v1), free(v2), free(current), free(next), free(turn1), free(wave1), free(turn2), free(turn_xnb);
	free(wave_xnb), free(w.log), free(out), free(dir);
}

/* Save a clip lasting `duration` seconds at `path`. */
static void save_duration(const char *path, const char *duration)
{
	char *text = turn_with_duration(duration);

	save(path, text);
	free(text);
}

/* Inputs reached through a symbolic link higher in their paths (a folder
 * current/a and a file current/b/Step.Animation, current -> v1), the link
 * pointed at v2: nothing was noticed (only a link that is the input itself
 * was watched), and the outputs stayed v1's.  They are v2's now, what only
 * v1 held pruned, saves in v2 built and saves in v1 no change. */
static void watch_follows_a_link_above_its_inputs(void **state)
{
	char *dir = test_tmpdir("watch-link-above"), *out = test_format("%s/out", dir);
	char *current = test_format("%s/current", dir), *next = test_format("%s/current.next", dir);
	char *a = test_format("%s/current/a", dir), *step = test_format("%s/current/b/Step.Animation", dir);
	char *turn1 = test_format("%s/v1/a/Turn.Animation", dir), *turn2 = test_format("%s/v2/a/Turn.Animation", dir);
	char *step1 = test_format("%s/v1/b/Step.Animation", dir), *step2 = test_format("%s/v2/b/Step.Animation", dir);
	char *wave1 = test_format("%s/v1/a/Wave.Animation", dir);
	char *turn_xnb = test_format("%s/Turn.xnb", out), *step_xnb = test_format("%s/Step.xnb", out);
	char *wave_xnb = test_format("%s/Wave.xnb", out);
	const char *argv[] = { "animc", "watch", "-o", out, a, step, NULL };
	watcher w;
	size_t builds;

	(void)state;
	test_run_ok(test_exec("sh", "-c", "mkdir -p \"$1/v1/a\" \"$1/v1/b\" \"$1/v2/a\" \"$1/v2/b\"", "sh", dir, NULL));
	save_duration(turn1, "1.5"), save_duration(wave1, "1.5"), save_duration(step1, "1.5");
	save_duration(turn2, "2.5"), save_duration(step2, "2.5");
	assert_int_equal(symlink("v1", current), 0);
	start_argv(&w, dir, argv);
	wait_for_builds(&w, 1);
	assert_true(duration_of(turn_xnb) == 1.5f && duration_of(step_xnb) == 1.5f && test_file_exists(wave_xnb));
	settle();
	/* Pointed at v2, as ln -sfn does it. */
	assert_int_equal(symlink("v2", next), 0);
	assert_int_equal(rename(next, current), 0);
	wait_for_duration(&w, turn_xnb, 2.5f);
	wait_for_duration(&w, step_xnb, 2.5f);
	for (int i = 0; i < 500 && test_file_exists(wave_xnb); i++)
		usleep(10000);   /* pruned as the rebuild ends */
	assert_false(test_file_exists(wave_xnb));
	settle();
	save_duration(turn2, "3.5");
	wait_for_duration(&w, turn_xnb, 3.5f);
	settle();
	save_duration(step2, "3.5");
	wait_for_duration(&w, step_xnb, 3.5f);
	/* v1 is watched no more. */
	settle();
	builds = lines_with(w.log, " up to date, in ");
	save_duration(turn1, "4.5"), save_duration(step1, "4.5");
	settle(), settle();
	assert_int_equal(lines_with(w.log, " up to date, in "), builds);
	stop_watch(NULL);
	free(wave_xnb), free(step_xnb), free(turn_xnb), free(wave1), free(step2), free(step1), free(turn2), free(turn1);
	free(step), free(a), free(next), free(current), free(out), free(dir), free(w.log);
}

/* Inputs reached through a link that is not the last on their way: an
 * input current/one with current -> rel -> v1, rel pointed at v2; and a
 * folder of the tree, art/chars -> ../cur/chars, with cur pointed at w2.
 * Nothing was noticed (only the links as spelt above an input, and the
 * tree's own, were watched) and the outputs stayed the old folders'.
 * Both are built from the new folders now, and saves there are built. */
static void watch_follows_every_link_on_the_way_to_its_inputs(void **state)
{
	char *dir = test_tmpdir("watch-link-chain"), *out = test_format("%s/out", dir);
	char *one = test_format("%s/current/one", dir), *art = test_format("%s/art", dir);
	char *turn2 = test_format("%s/v2/one/Turn.Animation", dir), *step2 = test_format("%s/w2/chars/Step.Animation", dir);
	char *turn_xnb = test_format("%s/Turn.xnb", out), *step_xnb = test_format("%s/chars/Step.xnb", out);
	const char *argv[] = { "animc", "watch", "-o", out, one, art, NULL };
	watcher w;

	(void)state;
	test_sh("cd '%s' && mkdir -p v1/one v2/one w1/chars w2/chars art && ln -s v1 rel && ln -s rel current && "
		"ln -s w1 cur && ln -s ../cur/chars art/chars", dir);
	char *turn1 = test_format("%s/v1/one/Turn.Animation", dir), *step1 = test_format("%s/w1/chars/Step.Animation", dir);

	save_duration(turn1, "1.5"), save_duration(turn2, "2.5");
	save_duration(step1, "1.5"), save_duration(step2, "2.5");
	start_argv(&w, dir, argv);
	wait_for_builds(&w, 1);
	assert_true(duration_of(turn_xnb) == 1.5f && duration_of(step_xnb) == 1.5f);
	settle();
	test_sh("cd '%s' && ln -sfn v2 rel", dir);
	wait_for_duration(&w, turn_xnb, 2.5f);
	settle();
	test_sh("cd '%s' && ln -sfn w2 cur", dir);
	wait_for_duration(&w, step_xnb, 2.5f);
	settle();
	save_duration(step2, "3.5");
	wait_for_duration(&w, step_xnb, 3.5f);
	settle();
	save_duration(turn2, "3.5");
	wait_for_duration(&w, turn_xnb, 3.5f);
	stop_watch(NULL);
	free(dir), free(out), free(one), free(art), free(turn2), free(step2), free(turn_xnb), free(step_xnb);
	free(turn1), free(step1), free(w.log);
}

/* The same spelt relative to the working folder, as typed: `animc watch
 * -o out art` with art/chars -> ../cur/chars and cur -> w1.  The walk of
 * the links on the way took "art/.." for a path not there, and stopped:
 * cur was not watched, and `ln -sfn w2 cur` started no rebuild. */
static void watch_follows_a_link_reached_through_dot_dot_of_a_relative_input(void **state)
{
	char *dir = test_tmpdir("watch-link-relative"), *out = test_format("%s/out", dir);
	char *step1 = test_format("%s/w1/chars/Step.Animation", dir), *step2 = test_format("%s/w2/chars/Step.Animation", dir);
	char *step_xnb = test_format("%s/chars/Step.xnb", out);
	char *script = test_format("cd '%s' && exec \"$0\" watch -o out art", dir);
	char *animc = realpath(test_animc_path(), NULL);   /* run from `dir` */
	const char *argv[] = { "sh", "-c", script, animc, NULL };
	watcher w;

	(void)state;
	assert_non_null(animc);
	test_sh("cd '%s' && mkdir -p w1/chars w2/chars art && ln -s w1 cur && ln -s ../cur/chars art/chars", dir);
	save_duration(step1, "1.5"), save_duration(step2, "2.5");
	start_program(&w, dir, "sh", argv);
	wait_for_builds(&w, 1);
	assert_true(duration_of(step_xnb) == 1.5f);
	settle();
	test_sh("cd '%s' && ln -sfn w2 cur", dir);
	wait_for_duration(&w, step_xnb, 2.5f);
	settle();
	save_duration(step2, "3.5");
	wait_for_duration(&w, step_xnb, 3.5f);
	stop_watch(NULL);
	free(dir), free(out), free(step1), free(step2), free(step_xnb), free(script), free(animc), free(w.log);
}

/* A link made in the tree while watching, leading through another
 * link (art/x -> far/link/e1, far/link -> ext): the links on the way of
 * those met when the tree was walked were watched, not those of one made
 * later, and far/link pointed at ext2 started no rebuild. */
static void watch_follows_the_links_on_the_way_of_a_link_made_later(void **state)
{
	char *dir = test_tmpdir("watch-link-made-later"), *out = test_format("%s/out", dir), *art = test_format("%s/art", dir);
	char *e1 = test_format("%s/ext/e1/Step.Animation", dir), *e2 = test_format("%s/ext2/e1/Step.Animation", dir);
	char *step_xnb = test_format("%s/x/Step.xnb", out);
	watcher w;

	(void)state;
	test_sh("cd '%s' && mkdir -p art ext/e1 ext2/e1 far && ln -s ../ext far/link", dir);
	save_duration(e1, "1.5"), save_duration(e2, "2.5");
	start(&w, dir, out, art);
	wait_for_builds(&w, 1);
	settle();
	test_sh("cd '%s' && ln -s ../far/link/e1 art/x", dir);
	wait_for_duration(&w, step_xnb, 1.5f);
	settle();
	test_sh("cd '%s' && ln -sfn ../ext2 far/link", dir);
	wait_for_duration(&w, step_xnb, 2.5f);
	stop_watch(NULL);
	free(dir), free(out), free(art), free(e1), free(e2), free(step_xnb), free(w.log);
}

/* Folders that link to each other (s1..s9, each with a link to every
 * other): the walk stopped only at a link back to a folder above it, so
 * each folder was walked once per path to it, and those grow
 * exponentially (8 such folders took 40 s before the first build, 9
 * minutes).  Each is walked once, as a build walks it. */
static void watch_walks_folders_that_link_to_each_other_once(void **state)
{
	char *dir = test_tmpdir("watch-link-mesh"), *out = test_format("%s/out", dir), *art = test_format("%s/art", dir);
	char *turn = test_format("%s/s9/Turn.Animation", art), *turn_xnb = test_format("%s/s9/Turn.xnb", out);
	watcher w;

	(void)state;
	test_sh("cd '%s' && mkdir art && cd art && for i in 1 2 3 4 5 6 7 8 9; do mkdir s$i; done && "
		"for i in 1 2 3 4 5 6 7 8 9; do for j in 1 2 3 4 5 6 7 8 9; do "
		"[ $i = $j ] || ln -s ../s$j s$i/l$j; done; done", dir);
	start(&w, dir, out, art);
	wait_for_builds(&w, 1);   /* within its 20 s */
	settle();
	save_duration(turn, "2.5");
	wait_for_duration(&w, turn_xnb, 2.5f);
	stop_watch(NULL);
	free(dir), free(out), free(art), free(turn), free(turn_xnb), free(w.log);
}

/* Two folders that link to each other (a/lb -> ../b, b/la -> ../a):
 * one of them is walked through the other's link, and its subfolder
 * watched by that path alone.  That link deleted, the subfolder is
 * watched by its own path, and a save there is built. */
static void watch_keeps_a_subfolder_walked_through_a_deleted_link(void **state)
{
	char *dir = test_tmpdir("watch-link-pair"), *out = test_format("%s/out", dir), *art = test_format("%s/art", dir);
	char *a = test_format("%s/a/sub/A.Animation", art), *b = test_format("%s/b/sub/B.Animation", art);
	char *a_xnb = test_format("%s/a/sub/A.xnb", out), *b_xnb = test_format("%s/b/sub/B.xnb", out);
	watcher w;

	(void)state;
	test_sh("cd '%s' && mkdir -p art/a/sub art/b/sub && ln -s ../b art/a/lb && ln -s ../a art/b/la", dir);
	save_duration(a, "1.5"), save_duration(b, "1.5");
	start(&w, dir, out, art);
	wait_for_builds(&w, 1);
	settle();
	test_sh("rm '%s/a/lb'", art);
	wait_for_builds(&w, 2);
	settle();
	test_sh("rm '%s/b/la'", art);
	wait_for_builds(&w, 3);
	settle();
	save_duration(a, "2.5");
	wait_for_duration(&w, a_xnb, 2.5f);
	save_duration(b, "2.5");
	wait_for_duration(&w, b_xnb, 2.5f);
	stop_watch(NULL);
	free(dir), free(out), free(art), free(a), free(b), free(a_xnb), free(b_xnb), free(w.log);
}

/* Two links of the tree that lead to each other (x -> b, b -> x), x
 * pointed at a folder: the rebuild built it, then the two links, leading
 * somewhere now, started a second rebuild that compiled nothing.  One
 * change is one rebuild. */
static void watch_builds_once_when_links_lead_out_of_a_loop(void **state)
{
	char *dir = test_tmpdir("watch-link-loop-out"), *out = test_format("%s/out", dir), *art = test_format("%s/art", dir);
	char *step = test_format("%s/ext/Step.Animation", dir), *step_xnb = test_format("%s/b/Step.xnb", out);
	watcher w;

	(void)state;
	test_sh("cd '%s' && mkdir -p art ext && ln -s b art/x && ln -s x art/b", dir);
	save_duration(step, "1.5");
	start(&w, dir, out, art);
	wait_for_builds(&w, 1);
	settle();
	test_sh("cd '%s' && ln -sfn ../ext art/x", dir);
	wait_for_duration(&w, step_xnb, 1.5f);
	usleep(1500000);   /* the links are looked at every second */
	assert_int_equal(lines_with(w.log, " up to date, in "), 2);
	stop_watch(NULL);
	free(dir), free(out), free(art), free(step), free(step_xnb), free(w.log);
}

/* A link of the tree pointed elsewhere by a rename over it (`ln -sfn
 * ../w2 art/chars`): the folder it led to stayed watched by that path,
 * and a save there started a rebuild that compiled nothing. */
static void watch_forgets_the_folder_a_repointed_link_led_to(void **state)
{
	char *dir = test_tmpdir("watch-link-repointed"), *out = test_format("%s/out", dir), *art = test_format("%s/art", dir);
	char *step1 = test_format("%s/w1/Step.Animation", dir), *step2 = test_format("%s/w2/Step.Animation", dir);
	char *step_xnb = test_format("%s/chars/Step.xnb", out);
	watcher w;

	(void)state;
	test_sh("cd '%s' && mkdir -p art w1 w2 && ln -s ../w1 art/chars", dir);
	save_duration(step1, "1.5"), save_duration(step2, "2.5");
	start(&w, dir, out, art);
	wait_for_builds(&w, 1);
	settle();
	test_sh("cd '%s' && ln -sfn ../w2 art/chars", dir);
	wait_for_duration(&w, step_xnb, 2.5f);
	settle();
	size_t builds = lines_with(w.log, " up to date, in ");

	save_duration(step1, "3.5");
	usleep(1500000);
	assert_int_equal(lines_with(w.log, " up to date, in "), builds);
	save_duration(step2, "4.5");
	wait_for_duration(&w, step_xnb, 4.5f);
	stop_watch(NULL);
	free(dir), free(out), free(art), free(step1), free(step2), free(step_xnb), free(w.log);
}

/* A link made in the tree while watching, to a folder not made yet
 * (art/share -> ../share): one there at the start is followed once it
 * leads somewhere, this one was not, and the folder made with its
 * sources was never built. */
static void watch_follows_a_link_made_before_its_folder(void **state)
{
	char *dir = test_tmpdir("watch-link-before-folder"), *out = test_format("%s/out", dir), *art = test_format("%s/art", dir);
	char *turn = test_format("%s/Turn.Animation", art), *step = test_format("%s/share/Step.Animation", dir);
	char *step_xnb = test_format("%s/share/Step.xnb", out);
	watcher w;

	(void)state;
	mkdir(art, 0755);
	save_duration(turn, "1.5");
	start(&w, dir, out, art);
	wait_for_builds(&w, 1);
	settle();
	test_sh("cd '%s' && ln -s ../share art/share", dir);
	wait_for_builds(&w, 2);
	settle();
	test_sh("mkdir '%s/share'", dir);
	save_duration(step, "2.5");
	wait_for_duration(&w, step_xnb, 2.5f);
	stop_watch(NULL);
	free(dir), free(out), free(art), free(turn), free(step), free(step_xnb), free(w.log);
}

/* A --clips document reached through a link to a folder (cuts/current,
 * `ln -sfn v2 cuts/current`): the watch watched the document's name in
 * the folder the link led to when it started, and the new document
 * started no rebuild.  It is built now. */
static void watch_follows_a_link_on_the_way_to_a_file_it_reads(void **state)
{
	char *dir = test_tmpdir("watch-read-link"), *out = test_format("%s/out", dir);
	char *walker = test_format("%s/art/Walker.xml", dir), *doc = test_format("%s/cuts/current/parts.xml", dir);
	char *run_xnb = test_format("%s/Walker/Run.xnb", out);
	const char *argv[] = { "animc", "watch", "--clips", doc, "-o", out, walker, NULL };
	watcher w;

	(void)state;
	test_sh("mkdir -p '%s/art' '%s/cuts/v1' '%s/cuts/v2' && cp testdata/authoring/Walker.xml '%s/art/' && "
		"cp testdata/authoring/Walker_Anims.xml '%s/cuts/v1/parts.xml' && cd '%s/cuts' && "
		"sed 's/<EndFrame>29</<EndFrame>25</' v1/parts.xml > v2/parts.xml && ln -s v1 current",
		dir, dir, dir, dir, dir, dir);
	start_argv(&w, dir, argv);
	wait_for_builds(&w, 1);
	assert_true(duration_of(run_xnb) == 2.375f);
	settle();
	test_sh("cd '%s' && ln -sfn v2 cuts/current", dir);
	wait_for_duration(&w, run_xnb, 1.875f);
	stop_watch(NULL);
	free(dir), free(out), free(walker), free(doc), free(run_xnb), free(w.log);
}

/* A symbolic link to a folder that is an input through another path too,
 * deleted: the folder stays watched, and a save in it is built (the link's
 * going took the folder's one watch with it, and the save was missed). */
static void watch_keeps_the_folder_a_deleted_link_led_to(void **state)
{
	char *dir = test_tmpdir("watch-link-gone"), *src = test_format("%s/src", dir), *out = test_format("%s/out", dir);
	char *shared = test_format("%s/shared", dir), *pack = test_format("%s/Pack", src);
	char *turn = test_format("%s/Turn.Animation", shared), *turn_xnb = test_format("%s/Turn.xnb", out);
	char *pack_xnb = test_format("%s/Pack/Turn.xnb", out), *text = turn_with_duration("1.5");
	const char *argv[] = { "animc", "watch", "-o", out, src, shared, NULL };
	watcher w;

	(void)state;
	mkdir(src, 0755), mkdir(shared, 0755);
	save(turn, text);
	free(text);
	assert_int_equal(symlink("../shared", pack), 0);
	/* src first: the folder is watched through the link first. */
	start_argv(&w, dir, argv);
	wait_for_builds(&w, 1);
	assert_true(test_file_exists(pack_xnb) && test_file_exists(turn_xnb));
	settle();
	assert_int_equal(watches_of(w.pid), 3);   /* src, shared (Pack too) and the output folder */
	assert_int_equal(unlink(pack), 0);
	wait_for_builds(&w, 2);   /* Pack's output pruned */
	assert_int_equal(watches_of(w.pid), 3);
	save_and_wait(&w, turn, turn_xnb, "2.5");
	assert_false(test_file_exists(pack_xnb));
	stop_watch(NULL);
	free(shared), free(pack), free(turn), free(turn_xnb), free(pack_xnb);
	free(w.log), free(src), free(out), free(dir);
}

/* Count the rebuild lines of the log with no failure (every one). */
static void assert_no_failure(const watcher *w, const char *err_log)
{
	size_t size;
	char *text = (char *)test_read_file(w->log, &size), *errors = (char *)test_read_file(err_log, &size);

	if (lines_with(w->log, " failed,") != lines_with(w->log, " 0 failed,") || strstr(errors, "error"))
		fail_msg("a rebuild failed:\n%s%s", text, errors);
	free(text), free(errors);
}

/* Inputs of the command line gone: a folder moved away, a symbolic link
 * to a folder deleted, a file deleted.  Each is said once, with what
 * becomes of its outputs (they stay), and counted on the next rebuild's
 * line; no rebuild counts it failed (each
 * said "cannot open" and failed until the watch was restarted).  The
 * folder moved back is watched and built again. */
static void watch_says_once_an_input_is_gone(void **state)
{
	char *dir = test_tmpdir("watch-input-gone"), *out = test_format("%s/out", dir);
	char *a = test_format("%s/a", dir), *b = test_format("%s/b", dir), *shared = test_format("%s/shared", dir);
	char *link = test_format("%s/link", dir), *solo = test_format("%s/Solo.Animation", dir);
	char *moved = test_format("%s/a.moved", dir), *err_log = test_format("%s/watch.err", dir);
	char *turn = test_format("%s/Turn.Animation", a), *bend = test_format("%s/Bend.Animation", b);
	char *turn_xnb = test_format("%s/Turn.xnb", out), *bend_xnb = test_format("%s/Bend.xnb", out);
	char *wave_xnb = test_format("%s/Wave.xnb", out), *solo_xnb = test_format("%s/Solo.xnb", out);
	char *wave = test_format("%s/Wave.Animation", shared), *text = turn_with_duration("1.5");
	const char *argv[] = { "animc", "watch", "-o", out, a, link, b, solo, NULL };
	const char *gone[] = { link, solo, a };
	watcher w;
	size_t builds, watches;

	(void)state;
	mkdir(a, 0755), mkdir(b, 0755), mkdir(shared, 0755);
	save(turn, text), save(bend, text), save(wave, text), save(solo, text);
	free(text);
	assert_int_equal(symlink("shared", link), 0);
	start_program_logs(&w, dir, test_animc_path(), argv, err_log);
	wait_for_builds(&w, 1);
	assert_true(test_file_exists(turn_xnb) && test_file_exists(wave_xnb) && test_file_exists(solo_xnb));
	settle();
	watches = watches_of(w.pid);

	/* Gone one by one, each followed by saves in b. */
	for (int i = 0; i < 3; i++) {
		if (i == 2)
			assert_int_equal(rename(a, moved), 0);
		else
			assert_int_equal(unlink(gone[i]), 0);
		for (int k = 0; k < 2; k++) {
			text = turn_with_duration(k ? "2.5" : "3.5");
			save(bend, text);
			free(text);
			wait_for_duration(&w, bend_xnb, k ? 2.5f : 3.5f);
			settle();
		}
		/* The folder the link led to, no input now: watched no more. */
		if (i == 0)
			assert_int_equal(watches_of(w.pid), watches - 1);
	}
	for (int i = 0; i < 3; i++) {
		char *said = test_format("%s: warning: gone (moved away or deleted): not built until it is back; "
					 "its outputs in '%s' stay (remove them with 'animc clean -o %s'", gone[i], out, out);

		assert_int_equal(lines_with(err_log, said), 1);
		free(said);
	}
	assert_int_equal(lines_with(err_log, "warning"), 3);
	/* Each counted on the line of the rebuild it came before. */
	assert_int_equal(lines_with(w.log, ", 1 warning, "), 3);
	assert_int_equal(lines_with(err_log, "cannot open"), 0);
	assert_no_failure(&w, err_log);
	/* Their outputs stay. */
	assert_true(test_file_exists(turn_xnb) && test_file_exists(wave_xnb) && test_file_exists(solo_xnb));

	/* Moved back: built and watched again, and not said gone again. */
	builds = lines_with(w.log, " up to date, in ");
	assert_int_equal(rename(moved, a), 0);
	wait_for_builds(&w, builds + 1);
	settle();
	save_and_wait(&w, turn, turn_xnb, "2.5");
	assert_int_equal(lines_with(err_log, "warning"), 3);
	assert_no_failure(&w, err_log);
	stop_watch(NULL);
	free(a), free(b), free(shared), free(link), free(solo), free(moved), free(err_log), free(turn), free(bend);
	free(turn_xnb), free(bend_xnb), free(wave_xnb), free(solo_xnb), free(wave), free(w.log), free(out), free(dir);
}

/* `cd art && animc watch -o ../out .`, then `art` deleted and made again
 * (a fresh clone): "." named the deleted folder still, so it was never
 * said gone, its outputs were pruned, and the folder made again was never
 * watched.  It is now gone as a named folder is, its outputs stay, and the
 * folder made again is entered, watched and built. */
static void watch_follows_its_working_folder_made_again(void **state)
{
	char *dir = test_tmpdir("watch-cwd-again"), *art = test_format("%s/art", dir);
	char *turn = test_format("%s/Turn.Animation", art), *turn_xnb = test_format("%s/out/Turn.xnb", dir);
	char *err_log = test_format("%s/watch.err", dir), *text = turn_with_duration("1.5");
	char *animc = realpath(test_animc_path(), NULL);
	char *line = test_format("cd '%s' && exec '%s' watch -o ../out .", art, animc);
	const char *argv[] = { "sh", "-c", line, NULL };
	watcher w;
	test_run rm;

	(void)state;
	mkdir(art, 0755);
	save(turn, text);
	free(text);
	start_program_logs(&w, dir, "sh", argv, err_log);
	wait_for_builds(&w, 1);
	settle();
	assert_true(test_file_exists(turn_xnb));

	rm = test_exec("rm", "-rf", art, NULL);
	assert_int_equal(rm.status, 0);
	test_run_release(&rm);
	wait_for_builds(&w, 2);
	assert_int_equal(lines_with(err_log, ".: warning: gone (moved away or deleted)"), 1);
	assert_true(test_file_exists(turn_xnb));

	mkdir(art, 0755);
	save_and_wait(&w, turn, turn_xnb, "2.5");
	settle();
	/* Watched again: a save there is built. */
	save_and_wait(&w, turn, turn_xnb, "3.5");
	assert_int_equal(lines_with(err_log, "warning"), 1);
	assert_no_failure(&w, err_log);
	stop_watch(NULL);
	free(dir), free(art), free(turn), free(turn_xnb), free(err_log), free(animc), free(line), free(w.log);
}

/* A glTF whose buffer is not there yet fails; the buffer copied in then
 * started no rebuild: a failed source recorded no file it read, and the
 * state folder of a build that compiled nothing was removed, so the
 * watch knew of no buffer to watch.  It is built once the buffer is there. */
static void watch_builds_a_source_once_its_missing_buffer_is_there(void **state)
{
	char *dir = test_tmpdir("watch-buffer"), *src = test_format("%s/src", dir), *out = test_format("%s/out", dir);
	char *gltf = test_format("%s/external.gltf", src), *wag = test_format("%s/external/wag.xnb", out);
	char *err_log = test_format("%s/watch.err", dir);
	const char *argv[] = { "animc", "watch", "-o", out, gltf, NULL };
	watcher w;

	(void)state;
	mkdir(src, 0755);
	test_run_ok(test_exec("cp", "testdata/gltf/external.gltf", src, NULL));
	start_program_logs(&w, dir, test_animc_path(), argv, err_log);
	wait_for_builds(&w, 1);
	assert_int_equal(lines_with(w.log, ", 1 failed, "), 1);
	assert_int_equal(lines_with(err_log, "cannot open"), 1);
	assert_false(test_file_exists(wag));
	settle();

	test_run_ok(test_exec("cp", "testdata/gltf/wag data.bin", src, NULL));
	wait_for_builds(&w, 2);
	settle();
	assert_true(test_file_exists(wag));
	assert_int_equal(lines_with(w.log, "compiled 1 source"), 1);
	assert_int_equal(lines_with(err_log, "cannot open"), 1);
	stop_watch(NULL);
	free(dir), free(src), free(out), free(gltf), free(wag), free(err_log), free(w.log);
}

/* An SMD whose animation list names an SMD not there yet fails; that
 * file copied in started no rebuild: Assimp's reader looked for it and
 * did not find it, and a name looked for was no dependency.  It is
 * built once the file is there. */
static void watch_builds_an_smd_once_the_file_its_list_names_is_there(void **state)
{
	char *dir = test_tmpdir("watch-smd-list"), *src = test_format("%s/src", dir), *out = test_format("%s/out", dir);
	char *walk = test_format("%s/walk.smd", src), *run = test_format("%s/run.smd", src);
	char *list = test_format("%s/walk_animation.txt", src), *run_xnb = test_format("%s/walk/run.xnb", out);
	char *err_log = test_format("%s/watch.err", dir);
	const char *argv[] = { "animc", "watch", "--ticks-per-second", "30", "-o", out, walk, NULL };
	const char *smd = "version 1\nnodes\n0 \"root\" -1\n1 \"child\" 0\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\n"
			  "1 1 0 0 0 0 0\ntime 1\n0 1 0 0 0 0 0\n1 1 0 0 0 0 1\nend\n";
	watcher w;

	(void)state;
	mkdir(src, 0755);
	save(walk, smd);
	save(list, "run run.smd\n");
	start_program_logs(&w, dir, test_animc_path(), argv, err_log);
	wait_for_builds(&w, 1);
	assert_int_equal(lines_with(w.log, ", 1 failed, "), 1);
	assert_false(test_file_exists(run_xnb));
	settle();

	save(run, smd);
	wait_for_builds(&w, 2);
	settle();
	assert_true(test_file_exists(run_xnb));
	assert_int_equal(lines_with(w.log, "compiled 1 source"), 1);
	stop_watch(NULL);
	free(dir), free(src), free(out), free(walk), free(run), free(list), free(run_xnb), free(err_log), free(w.log);
}

/* The same with the file in a folder below the source's not made yet
 * (`run anims/run.smd`): the name was not recorded (its folder could not
 * be resolved), and the folder made and the file copied in started no
 * rebuild.  It is built once the file is there. */
static void watch_builds_an_smd_once_its_list_file_comes_in_a_new_folder(void **state)
{
	char *dir = test_tmpdir("watch-smd-list-sub"), *src = test_format("%s/src", dir), *out = test_format("%s/out", dir);
	char *walk = test_format("%s/walk.smd", src), *anims = test_format("%s/anims", src);
	char *run = test_format("%s/anims/run.smd", src), *list = test_format("%s/walk_animation.txt", src);
	char *run_xnb = test_format("%s/walk/run.xnb", out), *err_log = test_format("%s/watch.err", dir);
	const char *argv[] = { "animc", "watch", "--ticks-per-second", "30", "-o", out, walk, NULL };
	const char *smd = "version 1\nnodes\n0 \"root\" -1\n1 \"child\" 0\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\n"
			  "1 1 0 0 0 0 0\ntime 1\n0 1 0 0 0 0 0\n1 1 0 0 0 0 1\nend\n";
	watcher w;

	(void)state;
	mkdir(src, 0755);
	save(walk, smd);
	save(list, "run anims/run.smd\n");
	start_program_logs(&w, dir, test_animc_path(), argv, err_log);
	wait_for_builds(&w, 1);
	assert_int_equal(lines_with(w.log, ", 1 failed, "), 1);
	settle();

	mkdir(anims, 0755);
	save(run, smd);
	for (int i = 0; i < 2000 && !test_file_exists(run_xnb); i++)
		usleep(10000);
	assert_true(test_file_exists(run_xnb));
	stop_watch(NULL);
	free(dir), free(src), free(out), free(walk), free(anims), free(run), free(list), free(run_xnb), free(err_log);
	free(w.log);
}

/* A log in the tree that a tool appends to every few milliseconds held
 * every rebuild back for as long as it grew (each close restarted the
 * quiet time).  A save is now built within 3 s of it while the log still
 * grows. */
static void watch_builds_while_a_log_keeps_growing(void **state)
{
	char *dir = test_tmpdir("watch-log"), *src = test_format("%s/src", dir), *out = test_format("%s/out", dir);
	char *turn = test_format("%s/Turn.Animation", src), *turn_xnb = test_format("%s/Turn.xnb", out);
	char *log = test_format("%s/export.log", src), *text;
	watcher w;
	pid_t writer;
	int status;

	(void)state;
	mkdir(src, 0755);
	text = turn_with_duration("1.5");
	save(turn, text);
	free(text);
	save(log, "started\n");
	start(&w, dir, out, src);
	wait_for_builds(&w, 1);
	writer = fork();
	assert_true(writer >= 0);
	if (writer == 0) {
		/* 20 s of lines, 200 a second, each write closed. */
		for (int i = 0; i < 4000; i++) {
			int fd = open(log, O_WRONLY | O_APPEND);

			if (fd >= 0 && write(fd, "line\n", 5) == 5)
				close(fd);
			usleep(5000);
		}
		_exit(0);
	}
	usleep(200000);
	text = turn_with_duration("2.5");
	save(turn, text);
	free(text);
	for (int i = 0; i < 1500 && duration_of(turn_xnb) != 2.5f; i++)
		usleep(10000);
	/* Built while the log still grows. */
	assert_int_equal(waitpid(writer, &status, WNOHANG), 0);
	kill(writer, SIGKILL);
	waitpid(writer, &status, 0);
	assert_true(duration_of(turn_xnb) == 2.5f);
	free(log), free(turn_xnb), free(turn), free(out), free(src), free(dir), free(w.log);
}

/* Append LINES lines to PATH, each write its own open and close, as a
 * tool logging does. */
static void append_lines(const char *path, int lines)
{
	for (int i = 0; i < lines; i++) {
		int fd = open(path, O_WRONLY | O_APPEND);

		assert_true(fd >= 0);
		assert_int_equal(write(fd, "line\n", 5), 5);
		close(fd);
		usleep(20000);
	}
}

/* A log growing in the tree (a file the build finds no importer for)
 * made a rebuild, and printed its line, for every line appended.  Bytes
 * added to it now start none; made smaller, replaced or deleted, it is a
 * change as before. */
static void watch_does_not_rebuild_for_lines_added_to_a_log(void **state)
{
	char *dir = test_tmpdir("watch-appends"), *src = test_format("%s/src", dir), *out = test_format("%s/out", dir);
	char *turn = test_format("%s/Turn.Animation", src), *log = test_format("%s/export.log", src);
	char *fresh = test_format("%s/fresh.tmp", dir), *text = turn_with_duration("1.5");
	watcher w;

	(void)state;
	mkdir(src, 0755);
	save(turn, text);
	free(text);
	save(log, "started\n");
	start(&w, dir, out, src);
	wait_for_builds(&w, 1);
	append_lines(log, 30);
	usleep(1000000);
	assert_int_equal(lines_with(w.log, " up to date, in "), 1);
	/* Truncated: a change. */
	save(log, "x\n");
	wait_for_builds(&w, 2);
	settle();
	append_lines(log, 10);
	usleep(1000000);
	assert_int_equal(lines_with(w.log, " up to date, in "), 2);
	/* Another file at its name, then none. */
	save(fresh, "another log, longer than the first one was\n");
	assert_int_equal(rename(fresh, log), 0);
	wait_for_builds(&w, 3);
	settle();
	assert_int_equal(unlink(log), 0);
	wait_for_builds(&w, 4);
	free(fresh), free(log), free(turn), free(out), free(src), free(dir), free(w.log);
}

/* A new XNA .xml made empty first (touch, an editor's new file) and then
 * written in place, or written by a writer that stalled past the watch's
 * wait after its first bytes (no <XnaContent> yet), was taken for a log
 * growing: the build had found no importer for it, so its bytes started
 * no rebuild and it was never built.  Both are built now. */
static void watch_builds_a_new_file_written_after_a_build_saw_it(void **state)
{
	char *dir = test_tmpdir("watch-new-empty"), *src = test_format("%s/src", dir), *out = test_format("%s/out", dir);
	char *fresh = test_format("%s/New.xml", src), *slow = test_format("%s/Slow.xml", src);
	char *fresh_xnb = test_format("%s/New/Idle.xnb", out), *slow_xnb = test_format("%s/Slow/Idle.xnb", out);
	char *turn = test_format("%s/Turn.Animation", src), *text = turn_with_duration("1.5");
	size_t size, head;
	uint8_t *walker = test_read_file("testdata/authoring/Walker.xml", &size);
	watcher w;
	int fd;

	(void)state;
	mkdir(src, 0755);
	save(turn, text);
	free(text);
	start(&w, dir, out, src);
	wait_for_builds(&w, 1);
	settle();
	save(fresh, "");
	wait_for_builds(&w, 2);
	assert_false(test_file_exists(fresh_xnb));
	settle();
	assert_true(test_write_file(fresh, walker, size));
	wait_for_builds(&w, 3);
	assert_true(test_file_exists(fresh_xnb));

	/* The XML declaration, then nothing until the watch gave up
	 * waiting and built; then the rest. */
	head = (size_t)(strstr((const char *)walker, "<XnaContent") - (const char *)walker);
	fd = open(slow, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, walker, head), (ssize_t)head);
	wait_for_builds(&w, 4);
	assert_false(test_file_exists(slow_xnb));
	assert_int_equal(write(fd, walker + head, size - head), (ssize_t)(size - head));
	close(fd);
	wait_for_builds(&w, 5);
	assert_true(test_file_exists(slow_xnb));
	free(walker), free(slow_xnb), free(fresh_xnb), free(slow), free(fresh), free(turn), free(out), free(src);
	free(dir), free(w.log);
}

/* A new source written in two steps, its file closed between them (its
 * first line, then the rest appended), with a rebuild between: that
 * rebuild found no importer for the first line, and the bytes appended
 * were taken for a log growing, so the source was never built.  So was a
 * clip-split sidecar written so: its takes stayed whole. */
static void watch_builds_a_file_appended_after_its_first_line(void **state)
{
	char *dir = test_tmpdir("watch-two-closes"), *src = test_format("%s/src", dir), *out = test_format("%s/out", dir);
	char *walker = test_format("%s/Walker.xml", src), *anims = test_format("%s/Walker_Anims.xml", src);
	char *idle_xnb = test_format("%s/Walker/Idle.xnb", out), *run_xnb = test_format("%s/Walker/Run.xnb", out);
	const char *paths[2] = { walker, anims };
	const char *from[2] = { "testdata/authoring/Walker.xml", "testdata/authoring/Walker_Anims.xml" };
	const char *xnbs[2] = { idle_xnb, run_xnb };
	watcher w;

	(void)state;
	mkdir(src, 0755);
	start(&w, dir, out, src);
	wait_for_builds(&w, 1);
	for (int k = 0; k < 2; k++) {
		size_t size, line;
		uint8_t *text = test_read_file(from[k], &size);
		int fd;

		line = (size_t)(strchr((const char *)text, '\n') + 1 - (const char *)text);
		settle();
		assert_true(test_write_file(paths[k], text, line));
		wait_for_builds(&w, 2 + 2 * (size_t)k);
		assert_false(test_file_exists(xnbs[k]));
		settle();
		fd = open(paths[k], O_WRONLY | O_APPEND);
		assert_true(fd >= 0);
		assert_int_equal(write(fd, text + line, size - line), (ssize_t)(size - line));
		close(fd);
		wait_for_builds(&w, 3 + 2 * (size_t)k);
		assert_true(test_file_exists(xnbs[k]));
		free(text);
	}
	stop_watch(NULL);
	free(run_xnb), free(idle_xnb), free(anims), free(walker), free(out), free(src), free(dir), free(w.log);
}

/* A source written in two steps whose first (its declaration and a
 * licence comment longer than ANIMC_PROBE_HEAD_BYTES) a rebuild saw: the
 * bytes appended after it were taken for a log growing, the file being
 * larger than the head a build looked at then, and the source was never
 * built.  Its probe head reaches past the comment to the root now. */
static void watch_builds_a_file_appended_after_a_long_licence_comment(void **state)
{
	char *dir = test_tmpdir("watch-licence"), *src = test_format("%s/src", dir), *out = test_format("%s/out", dir);
	char *walker = test_format("%s/Walker.xml", src), *idle_xnb = test_format("%s/Walker/Idle.xnb", out);
	size_t size, line;
	uint8_t *text = test_read_file("testdata/authoring/Walker.xml", &size);
	watcher w;
	FILE *f;

	(void)state;
	mkdir(src, 0755);
	start(&w, dir, out, src);
	wait_for_builds(&w, 1);
	line = (size_t)(strchr((const char *)text, '\n') + 1 - (const char *)text);
	settle();
	f = fopen(walker, "wb");
	assert_non_null(f);
	fwrite(text, 1, line, f);
	fputs("<!--\n", f);
	for (int k = 0; k < 120; k++)
		fputs("  Copyright (c) Example Studio. Licensed under the Ms-PL; see LICENSE.txt.\n", f);
	fputs("-->\n", f);
	assert_int_equal(fclose(f), 0);
	wait_for_builds(&w, 2);
	assert_false(test_file_exists(idle_xnb));
	assert_int_equal(lines_with(w.log, " 0 failed, "), 2);
	settle();
	f = fopen(walker, "ab");
	assert_non_null(f);
	fwrite(text + line, 1, size - line, f);
	assert_int_equal(fclose(f), 0);
	wait_for_builds(&w, 3);
	assert_true(test_file_exists(idle_xnb));
	stop_watch(NULL);
	free(text), free(idle_xnb), free(walker), free(out), free(src), free(dir), free(w.log);
}

/* A sidecar copied in beside a source named on the command line (or a
 * project's item) started no rebuild: only the source's own name was
 * watched in its folder.  The take is now split as a build splits it. */
static void watch_splits_a_named_source_by_a_sidecar_copied_in(void **state)
{
	char *dir = test_tmpdir("watch-sidecar"), *src = test_format("%s/src", dir), *out = test_format("%s/out", dir);
	char *walker = test_format("%s/Walker.xml", src), *sidecar = test_format("%s/Walker_Anims.xml", src);
	char *start_xnb = test_format("%s/Walker/Start.xnb", out), *take = test_format("%s/Walker/Take 001.xnb", out);
	size_t size;
	uint8_t *bytes;
	watcher w;

	(void)state;
	mkdir(src, 0755);
	bytes = test_read_file("testdata/authoring/Walker.xml", &size);
	assert_true(test_write_file(walker, bytes, size));
	free(bytes);
	start(&w, dir, out, walker);
	wait_for_builds(&w, 1);
	assert_true(test_file_exists(take));
	assert_false(test_file_exists(start_xnb));
	bytes = test_read_file("testdata/authoring/Walker_Anims.xml", &size);
	assert_true(test_write_file(sidecar, bytes, size));
	free(bytes);
	wait_for_builds(&w, 2);
	assert_true(test_file_exists(start_xnb));
	assert_false(test_file_exists(take));
	free(take), free(start_xnb), free(sidecar), free(walker), free(out), free(src), free(dir), free(w.log);
}

/* A folder of the tree reached by a symbolic link whose target is not
 * there (a share not mounted) was never watched once the share came: its
 * sources were not built, and saves in it were missed.  The link is
 * looked at every second; once it leads to a folder, that folder is
 * watched and built. */
static void watch_follows_a_link_whose_target_comes(void **state)
{
	char *dir = test_tmpdir("watch-share"), *src = test_format("%s/src", dir), *out = test_format("%s/out", dir);
	char *share = test_format("%s/share", dir), *anims = test_format("%s/share/anims", dir);
	char *link = test_format("%s/shared", src), *walk = test_format("%s/share/anims/Walk.Animation", dir);
	char *walk_xnb = test_format("%s/shared/Walk.xnb", out), *text;
	watcher w;

	(void)state;
	mkdir(src, 0755);
	mkdir(share, 0755);
	text = turn_with_duration("1.5");
	save(test_format("%s/Turn.Animation", src), text);
	assert_int_equal(symlink("../share/anims", link), 0);
	start(&w, dir, out, src);
	wait_for_builds(&w, 1);
	/* The share is mounted: built within about a second. */
	mkdir(anims, 0755);
	save(walk, text);
	free(text);
	for (int i = 0; i < 1000 && !test_file_exists(walk_xnb); i++)
		usleep(10000);
	assert_true(duration_of(walk_xnb) == 1.5f);
	/* And watched: a save in it is built. */
	settle();
	size_t builds = lines_with(w.log, " up to date, in ");
	text = turn_with_duration("2.5");
	save(walk, text);
	free(text);
	wait_for_builds(&w, builds + 1);
	assert_true(duration_of(walk_xnb) == 2.5f);
	free(walk_xnb), free(walk), free(link), free(anims), free(share), free(out), free(src), free(dir), free(w.log);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test_teardown(watch_says_once_an_input_is_gone, stop_watch),
	cmocka_unit_test_teardown(watch_follows_its_working_folder_made_again, stop_watch),
	cmocka_unit_test_teardown(watch_builds_a_source_once_its_missing_buffer_is_there, stop_watch),
	cmocka_unit_test_teardown(watch_builds_an_smd_once_the_file_its_list_names_is_there, stop_watch),
	cmocka_unit_test_teardown(watch_builds_an_smd_once_its_list_file_comes_in_a_new_folder, stop_watch),
	cmocka_unit_test_teardown(watch_follows_linked_folders, stop_watch),
	cmocka_unit_test_teardown(watch_follows_linked_files, stop_watch),
	cmocka_unit_test_teardown(watch_builds_while_a_log_keeps_growing, stop_watch),
	cmocka_unit_test_teardown(watch_does_not_rebuild_for_lines_added_to_a_log, stop_watch),
	cmocka_unit_test_teardown(watch_builds_a_new_file_written_after_a_build_saw_it, stop_watch),
	cmocka_unit_test_teardown(watch_builds_a_file_appended_after_its_first_line, stop_watch),
	cmocka_unit_test_teardown(watch_builds_a_file_appended_after_a_long_licence_comment, stop_watch),
	cmocka_unit_test_teardown(watch_splits_a_named_source_by_a_sidecar_copied_in, stop_watch),
	cmocka_unit_test_teardown(watch_follows_a_link_whose_target_comes, stop_watch),
	cmocka_unit_test_teardown(watch_follows_an_input_link_pointed_elsewhere, stop_watch),
	cmocka_unit_test_teardown(watch_follows_a_link_above_its_inputs, stop_watch),
	cmocka_unit_test_teardown(watch_follows_every_link_on_the_way_to_its_inputs, stop_watch),
	cmocka_unit_test_teardown(watch_follows_a_link_on_the_way_to_a_file_it_reads, stop_watch),
	cmocka_unit_test_teardown(watch_follows_a_link_reached_through_dot_dot_of_a_relative_input, stop_watch),
	cmocka_unit_test_teardown(watch_follows_the_links_on_the_way_of_a_link_made_later, stop_watch),
	cmocka_unit_test_teardown(watch_walks_folders_that_link_to_each_other_once, stop_watch),
	cmocka_unit_test_teardown(watch_keeps_a_subfolder_walked_through_a_deleted_link, stop_watch),
	cmocka_unit_test_teardown(watch_builds_once_when_links_lead_out_of_a_loop, stop_watch),
	cmocka_unit_test_teardown(watch_forgets_the_folder_a_repointed_link_led_to, stop_watch),
	cmocka_unit_test_teardown(watch_follows_a_link_made_before_its_folder, stop_watch),
	cmocka_unit_test_teardown(watch_keeps_the_folder_a_deleted_link_led_to, stop_watch),
	cmocka_unit_test_teardown(watch_finds_folders_made_during_an_overflow, stop_watch),
	cmocka_unit_test_teardown(watch_waits_for_room_under_the_watch_limit, stop_watch),
	cmocka_unit_test_teardown(watch_mgcb_waits_for_room_under_the_watch_limit, stop_watch),
	cmocka_unit_test_teardown(watch_leaves_out_a_folder_it_cannot_read, stop_watch),
	cmocka_unit_test_teardown(watch_follows_a_project_folder_made_later, stop_watch),
	cmocka_unit_test_teardown(watch_forgets_folders_moved_out, stop_watch),
	cmocka_unit_test_teardown(watch_forgets_an_input_folder_moved_away, stop_watch),
	cmocka_unit_test_teardown(watch_does_not_make_a_gone_input_again, stop_watch),
	cmocka_unit_test(a_missing_input_holding_the_output_folder_is_not_made),
	cmocka_unit_test_teardown(watch_builds_new_links, stop_watch),
	cmocka_unit_test_teardown(watch_is_not_held_by_a_growing_log, stop_watch),
	cmocka_unit_test_teardown(watch_line_counts_cached, stop_watch),
	cmocka_unit_test_teardown(watch_prints_the_warnings_it_counts, stop_watch),
	cmocka_unit_test_teardown(watch_prints_diagnostics_on_standard_error, stop_watch),
	cmocka_unit_test_teardown(watch_prints_a_line_for_a_build_not_built, stop_watch),
	cmocka_unit_test_teardown(watch_keeps_the_outputs_of_a_project_saved_empty, stop_watch),
	cmocka_unit_test(watch_that_does_not_start_makes_no_folder),
	cmocka_unit_test(watch_refuses_an_input_it_writes),
	cmocka_unit_test_teardown(watch_line_counts_the_projects_warnings, stop_watch),
	cmocka_unit_test_teardown(watch_line_names_paths, stop_watch),
	cmocka_unit_test_teardown(watch_prints_every_rebuild, stop_watch),
	cmocka_unit_test_teardown(watch_follows_the_files_read, stop_watch),
	cmocka_unit_test_teardown(watch_follows_files_read_through_links, stop_watch),
	cmocka_unit_test_teardown(watch_builds_once_a_link_leads_somewhere, stop_watch),
	cmocka_unit_test_teardown(watch_follows_a_dependency_named_as_left_out, stop_watch),
	cmocka_unit_test_teardown(watch_builds_a_buffer_saved_in_place, stop_watch),
	cmocka_unit_test_teardown(watch_ignores_its_own_files, stop_watch),
	cmocka_unit_test_teardown(watch_stops_when_its_animc_is_replaced, stop_watch),
	cmocka_unit_test_teardown(watch_goes_on_when_its_animc_is_only_touched, stop_watch),
	cmocka_unit_test_teardown(watch_stops_when_the_link_it_started_by_is_repointed, stop_watch),
	cmocka_unit_test_teardown(watch_follows_a_replaced_folder, stop_watch),
	cmocka_unit_test_teardown(watch_follows_its_folder, stop_watch),
	cmocka_unit_test_teardown(watch_follows_its_project, stop_watch),
	cmocka_unit_test_teardown(watch_follows_the_projects_response_files, stop_watch),
	cmocka_unit_test_teardown(sigint_during_a_build, stop_watch),
	cmocka_unit_test_teardown(sigterm_during_a_build_is_told, stop_watch),
	cmocka_unit_test_teardown(a_killed_watch_takes_its_build_along, stop_watch),
	cmocka_unit_test_teardown(watch_tells_a_build_that_died, stop_watch),
};

ANIMC_TEST_GROUP(tests);
