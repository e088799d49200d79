/*
 * make_rule_test.c - the per-file make rule of docs/build.md, run with make:
 * after a source is touched, one make runs animc and the next has nothing
 * to do (animc gives an output it left as it was the time of the build);
 * and depfiles naming files make and ninja read specially.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_support.h"

#define DOC "docs/build.md"

/* The ```make block of DOC that holds the out/%.xnb rule, malloc()ed. */
static char *documented_rule(void)
{
	char *doc = (char *)test_read_file(DOC, NULL);
	char *rule = strstr(doc, "```make\nout/%.xnb:");

	if (!rule)
		fail_msg("%s has no ```make block starting with the out/%%.xnb rule", DOC);
	rule += strlen("```make\n");
	char *end = strstr(rule, "```");
	assert_non_null(end);
	char *text = test_format("%.*s", (int)(end - rule), rule);
	free(doc);
	return text;
}

/* A shell script running `command` in `dir` with animc on the PATH,
 * malloc()ed. */
static char *script_in(const char *dir, const char *command)
{
	char cwd[4096];
	const char *animc = test_animc_path();

	assert_non_null(getcwd(cwd, sizeof cwd));
	char *bin = animc[0] == '/' ? test_format("%s", animc) : test_format("%s/%s", cwd, animc);
	char *slash = strrchr(bin, '/');
	*slash = '\0';
	/* The rules name `animc`: the binary under test is first on the PATH
	 * (unless a test put another animc there). */
	char *script = test_format("mkdir -p '%s/bin' && { test -e '%s/bin/animc' || ln -sf '%s/%s' '%s/bin/animc'; } && "
				   "PATH='%s/bin':\"$PATH\" && cd '%s' && %s",
				   dir, dir, bin, slash + 1, dir, dir, dir, command);

	free(bin);
	return script;
}

/* A shell command run in `dir` with animc on the PATH; its run. */
static test_run run_in(const char *dir, const char *command)
{
	char *script = script_in(dir, command);
	test_run r = test_exec("sh", "-c", script, NULL);

	free(script);
	return r;
}

/* `make ARGS` in dir with animc on the PATH; returns make's exit status. */
static int make_in(const char *dir, const char *args)
{
	char *command = test_format("make -s %s", args);
	test_run r = run_in(dir, command);
	int status = r.status;

	if (status != 0 && status != 1)
		fail_msg("make %s: exit %d\n%s%s", args, status, r.out, r.err);
	test_run_release(&r);
	free(command);
	return status;
}

static void documented_make_rule_settles_after_one_rebuild(void **state)
{
	(void)state;
	char *rel = test_tmpdir("make-rule"), cwd[4096];

	assert_non_null(getcwd(cwd, sizeof cwd));
	char *dir = rel[0] == '/' ? test_format("%s", rel) : test_format("%s/%s", cwd, rel);
	char *rule = documented_rule();
	char *makefile = test_format("%s/Makefile", dir), *art = test_format("%s/art/Crane", dir);
	char *src = test_format("%s/Turn.Animation", art);
	char *content = test_format("all: out/Crane/Turn.xnb\n%s", rule);
	size_t size;
	uint8_t *bytes = test_read_file("testdata/sample/Crane/Turn.Animation", &size);

	assert_true(test_write_file(makefile, content, strlen(content)));
	char *mk = test_format("mkdir -p '%s'", art);
	assert_int_equal(system(mk), 0);
	free(mk);
	assert_true(test_write_file(src, bytes, size));
	assert_int_equal(make_in(dir, ""), 0);
	assert_int_equal(make_in(dir, "-q"), 0);   /* up to date */
	/* Touched, not changed: animc's bytes are the same ones. */
	char *touch = test_format("touch '%s'", src);
	assert_int_equal(system(touch), 0);
	assert_int_equal(make_in(dir, "-q"), 1);   /* make wants to run the rule... */
	assert_int_equal(make_in(dir, ""), 0);     /* ...runs it once... */
	assert_int_equal(make_in(dir, "-q"), 0);   /* ...and then has nothing to do */
	/* So does a source changed in a way that compiles to the same bytes
	 * (a line added at its end): compiled, its output left as it was. */
	uint8_t *longer = malloc(size + 1);
	assert_non_null(longer);
	memcpy(longer, bytes, size);
	longer[size] = '\n';
	assert_true(test_write_file(src, longer, size + 1));
	free(longer);
	assert_int_equal(make_in(dir, "-q"), 1);
	assert_int_equal(make_in(dir, ""), 0);
	assert_int_equal(make_in(dir, "-q"), 0);
	/* Another animc installed (here the same one, a new file): the rule
	 * runs once, and settles.  The rule did not depend on animc, and
	 * after an upgrade make had nothing to do, leaving the old animc's
	 * outputs. */
	char *install = test_format("cp '%s' '%s/bin/animc.new' && mv -f '%s/bin/animc.new' '%s/bin/animc'",
				    test_animc_path(), dir, dir, dir);
	sleep(1);   /* a later mtime on file systems of coarse times */
	assert_int_equal(system(install), 0);
	assert_int_equal(make_in(dir, "-q"), 1);
	assert_int_equal(make_in(dir, ""), 0);
	assert_int_equal(make_in(dir, "-q"), 0);
	free(install);
	free(touch);
	free(bytes);
	free(content);
	free(src);
	free(art);
	free(makefile);
	free(rule);
	free(dir);
	free(rel);
}

/* The process of the build writing into `out`, from its journal
 * (journal.PID) once it holds a line: the build has put an output in
 * place.  0 when none is seen within 20 s. */
static pid_t build_with_a_journal(const char *out)
{
	char *state = test_format("%s/.animc", out);
	pid_t pid = 0;

	for (int i = 0; i < 2000 && !pid; i++) {
		DIR *d = opendir(state);
		struct dirent *e;

		while (d && !pid && (e = readdir(d))) {
			char *path = test_format("%s/%s", state, e->d_name);
			struct stat st;

			if (strncmp(e->d_name, "journal.", 8) == 0 && stat(path, &st) == 0 && st.st_size > 0)
				pid = (pid_t)atol(e->d_name + 8);
			free(path);
		}
		if (d)
			closedir(d);
		if (!pid)
			usleep(10000);
	}
	free(state);
	return pid;
}

/* The rule killed (a CI job's timeout, the OOM killer) after animc put the
 * output in place, before it recorded the source and wrote the depfile: the
 * next make runs it again.  make kept the output and took it for up to
 * date, with no depfile, so that a file its import read, changed later,
 * never built it again. */
static void a_killed_rule_runs_again(void **state)
{
	(void)state;
	char *rel = test_tmpdir("make-killed"), cwd[4096];

	assert_non_null(getcwd(cwd, sizeof cwd));
	char *dir = rel[0] == '/' ? test_format("%s", rel) : test_format("%s/%s", cwd, rel);
	char *rule = documented_rule(), *content = test_format("all: out/Crane/Turn.xnb\n%s", rule);
	char *makefile = test_format("%s/Makefile", dir), *out = test_format("%s/out", dir);
	char *mk = test_format("mkdir -p '%s/art/Crane' '%s/.animc' && cp testdata/sample/Crane/Turn.Animation '%s/art/Crane'",
			       dir, out, dir);
	char *lock = test_format("%s/.animc/manifest.lock", out), *script = script_in(dir, "make -s");
	char *depfile = test_format("%s/Crane/Turn.xnb.d", out), *manifest = test_format("%s/.animc/manifest", out);

	assert_true(test_write_file(makefile, content, strlen(content)));
	assert_int_equal(system(mk), 0);
	/* The manifest's lock held: the build waits there to record the
	 * source, its output in place. */
	int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	assert_true(fd >= 0);
	assert_int_equal(flock(fd, LOCK_EX), 0);
	pid_t make = fork();
	assert_true(make >= 0);
	if (make == 0) {
		execl("/bin/sh", "sh", "-c", script, (char *)NULL);
		_exit(127);
	}
	pid_t build = build_with_a_journal(out);
	int status;

	assert_true(build > 0);
	assert_int_equal(kill(build, SIGKILL), 0);
	assert_int_equal(waitpid(make, &status, 0), make);
	assert_false(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(fd);
	assert_int_equal(make_in(dir, ""), 0);
	assert_true(test_file_exists(depfile));
	char *text = (char *)test_read_file(manifest, NULL);
	if (!strstr(text, "\nsource\tart/Crane/Turn.Animation\t"))
		fail_msg("the manifest does not record the source:\n%s", text);
	assert_int_equal(make_in(dir, "-q"), 0);
	free(text), free(manifest), free(depfile), free(script), free(lock), free(mk), free(out), free(makefile);
	free(content), free(rule), free(dir), free(rel);
}

/* The same rule with --skeleton: the model is in every depfile, so a
 * touched model makes make run the rule once, and then settles (animc gave
 * the outputs it left as they were the time of the build for a touched
 * source, but not for a touched model, and make ran the rule forever). */
static void a_touched_skeleton_settles_after_one_rebuild(void **state)
{
	(void)state;
	char *rel = test_tmpdir("make-rule-model"), cwd[4096];

	assert_non_null(getcwd(cwd, sizeof cwd));
	char *dir = rel[0] == '/' ? test_format("%s", rel) : test_format("%s/%s", cwd, rel);
	char *content = test_format("all: out/Crane/Turn.xnb\n"
				    "out/%%.xnb: art/%%.Animation\n"
				    "\tanimc build -q --skeleton art/Crane/Crane.x --base art --depfile $@.d -o out $<\n"
				    "-include $(shell find out -name '*.d' 2>/dev/null)\n");
	char *makefile = test_format("%s/Makefile", dir);
	char *copy = test_format("mkdir -p '%s/art' && cp -r testdata/sample/Crane '%s/art/'", dir, dir);
	char *touch = test_format("touch '%s/art/Crane/Crane.x'", dir);

	assert_true(test_write_file(makefile, content, strlen(content)));
	assert_int_equal(system(copy), 0);
	assert_int_equal(make_in(dir, ""), 0);
	assert_int_equal(make_in(dir, "-q"), 0);
	sleep(1);   /* a later mtime on file systems of coarse times */
	assert_int_equal(system(touch), 0);
	assert_int_equal(make_in(dir, "-q"), 1);   /* the model is newer: run the rule */
	assert_int_equal(make_in(dir, ""), 0);
	assert_int_equal(make_in(dir, "-q"), 0);   /* and then nothing to do */
	free(touch), free(copy), free(makefile), free(content), free(dir), free(rel);
}

/* A rule that depends on animc itself, as CMake's rules do: after an install
 * of animc (a newer file), make runs the rule once, and then settles.  An
 * output animc compiled to the bytes on disk kept its mtime, older than
 * animc's, and make (CMake's Makefiles generator) ran the rule on every
 * build. */
static void an_install_of_animc_settles_after_one_rebuild(void **state)
{
	(void)state;
	char *rel = test_tmpdir("make-rule-install"), cwd[4096];

	assert_non_null(getcwd(cwd, sizeof cwd));
	char *dir = rel[0] == '/' ? test_format("%s", rel) : test_format("%s/%s", cwd, rel);
	const char *content = "all: out/Crane/Turn.xnb\n"
			      "out/%.xnb: art/%.Animation tool/animc\n"
			      "\ttool/animc build -q --base art --depfile $@.d -o out $<\n"
			      "-include $(shell find out -name '*.d' 2>/dev/null)\n";
	char *makefile = test_format("%s/Makefile", dir);
	char *copy = test_format("mkdir -p '%s/art' '%s/tool' && cp -r testdata/sample/Crane '%s/art/' && "
				 "cp '%s' '%s/tool/animc'", dir, dir, dir, test_animc_path(), dir);
	char *install = test_format("cp '%s' '%s/tool/animc.new' && mv '%s/tool/animc.new' '%s/tool/animc'",
				    test_animc_path(), dir, dir, dir);

	assert_true(test_write_file(makefile, content, strlen(content)));
	assert_int_equal(system(copy), 0);
	assert_int_equal(make_in(dir, ""), 0);
	assert_int_equal(make_in(dir, "-q"), 0);
	sleep(1);   /* a later mtime on file systems of coarse times */
	assert_int_equal(system(install), 0);
	assert_int_equal(make_in(dir, "-q"), 1);   /* animc is newer: run the rule */
	assert_int_equal(make_in(dir, ""), 0);
	assert_int_equal(make_in(dir, "-q"), 0);   /* and then nothing to do */
	free(install), free(copy), free(makefile), free(dir), free(rel);
}

/* The lines of `text`. */
static size_t count_lines(const char *text)
{
	size_t n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

/* The absolute path of a fresh test folder (make and ninja run in it). */
static char *absolute_tmpdir(const char *name)
{
	char *rel = test_tmpdir(name), cwd[4096];

	assert_non_null(getcwd(cwd, sizeof cwd));
	char *dir = rel[0] == '/' ? test_format("%s", rel) : test_format("%s/%s", cwd, rel);
	free(rel);
	return dir;
}

/* The documented rule after another animc installed with the old mtimes
 * its package kept (a package manager, cp -p, a rollback): here an animc
 * of another --version, older than the outputs.  make runs the rule once,
 * and then settles.  The rule depended on animc's mtime alone: make had
 * nothing to do, and the outputs stayed as the animc before wrote them. */
static void documented_make_rule_runs_after_an_install_keeping_old_mtimes(void **state)
{
	(void)state;
	char *dir = absolute_tmpdir("make-rule-old-mtimes");
	char *rule = documented_rule();
	char *makefile = test_format("%s/Makefile", dir), *content = test_format("all: out/Crane/Turn.xnb\n%s", rule);
	char *copy = test_format("mkdir -p '%s/art/Crane' && cp testdata/sample/Crane/Turn.Animation '%s/art/Crane/'",
				 dir, dir);
	char cwd[4096];

	assert_non_null(getcwd(cwd, sizeof cwd));
	const char *animc = test_animc_path();
	char *real = animc[0] == '/' ? test_format("%s", animc) : test_format("%s/%s", cwd, animc);
	/* Another version (the one under test does the work), of 2001. */
	char *install = test_format("printf '#!/bin/sh\\ncase \"$1\" in --version) echo animc 0.0.1 other;; "
				    "*) exec %s \"$@\";; esac\\n' > '%s/bin/animc.new' && chmod +x '%s/bin/animc.new' && "
				    "touch -d @1000000000 '%s/bin/animc.new' && mv -f '%s/bin/animc.new' '%s/bin/animc'",
				    real, dir, dir, dir, dir, dir);

	assert_true(test_write_file(makefile, content, strlen(content)));
	assert_int_equal(system(copy), 0);
	assert_int_equal(make_in(dir, ""), 0);
	assert_int_equal(make_in(dir, "-q"), 0);
	assert_int_equal(system(install), 0);
	assert_int_equal(make_in(dir, "-q"), 1);   /* another animc: run the rule... */
	assert_int_equal(make_in(dir, ""), 0);
	assert_int_equal(make_in(dir, "-q"), 0);   /* ...once */
	free(install), free(real), free(copy), free(content), free(makefile), free(rule), free(dir);
}

/*
 * File names with ':' and '%' in a depfile (an output's ':' becomes '_',
 * but OUTDIR's stays): make reads a bare ':' as the end of the target (or a
 * static pattern rule) and a '%' in a target as a pattern rule.  Escaped,
 * make and ninja (deps = gcc) both read the names.
 */
static void depfiles_escape_colons_and_percents(void **state)
{
	(void)state;
	char *dir = absolute_tmpdir("depfile-names");
	static const char makefile[] =
		"all: o\\:ut/g_h.xnb o\\:ut/p%q.xnb\n"
		"o\\:ut/g_h.xnb o\\:ut/p\\%q.xnb:\n"
		"\tanimc build -q --depfile deps.d -o o:ut art\n"
		"-include deps.d\n";
	static const char ninja[] =
		"rule animc\n"
		"  command = animc build -q --depfile $out.d -o o:ut $in\n"
		"  depfile = $out.d\n"
		"  deps = gcc\n"
		"build o$:ut/g_h.xnb: animc art/g$:h.Animation\n"
		"build o$:ut/p%q.xnb: animc art/p%q.Animation\n";
	char *path = test_format("%s/Makefile", dir);
	test_run r;

	assert_true(test_write_file(path, makefile, strlen(makefile)));
	free(path);
	path = test_format("%s/build.ninja", dir);
	assert_true(test_write_file(path, ninja, strlen(ninja)));
	free(path);
	r = run_in(dir, "mkdir art && cp " "\"$OLDPWD\"/testdata/sample/Crane/Turn.Animation art/g:h.Animation && "
			"cp \"$OLDPWD\"/testdata/sample/Crane/Wave.Animation art/p%q.Animation");
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	assert_int_equal(make_in(dir, ""), 0);
	path = test_format("%s/deps.d", dir);
	{
		char *text = (char *)test_read_file(path, NULL);

		/* The sources by absolute paths: the output as named. */
		char *want = test_format("o\\:ut/g_h.xnb: %s/art/g\\:h.Animation\n"
					 "o\\:ut/p\\%%q.xnb: %s/art/p%%q.Animation\n", dir, dir);

		assert_string_equal(text, want);
		free(want);
		free(text);
	}
	free(path);
	assert_int_equal(make_in(dir, "-q"), 0);   /* up to date */
	r = run_in(dir, "touch art/p%q.Animation");
	test_run_release(&r);
	assert_int_equal(make_in(dir, "-q"), 1);   /* the source is newer */
	/* ninja, from scratch, reads the same names. */
	r = run_in(dir, "rm -rf o:ut deps.d && ninja && ninja -t deps && ninja");
	if (r.status != 0)
		fail_msg("ninja: exit %d\n%s%s", r.status, r.out, r.err);
	assert_non_null(strstr(r.out, "o:ut/g_h.xnb: #deps 1, deps mtime"));
	assert_non_null(strstr(r.out, "o:ut/p%q.xnb: #deps 1, deps mtime"));
	char *g = test_format("\n    %s/art/g:h.Animation\n", dir), *p = test_format("\n    %s/art/p%%q.Animation\n", dir);
	assert_non_null(strstr(r.out, g));
	assert_non_null(strstr(r.out, p));
	free(g), free(p);
	assert_non_null(strstr(r.out, "ninja: no work to do."));
	test_run_release(&r);
	free(dir);
}

/*
 * Names make and ninja (1.11, deps = gcc) both read once escaped: written,
 * each source read back by both as its own one file.  (Ninja ended a name
 * at '&' or a quote, recording two files that do not exist; make stopped
 * the whole makefile at a ';'.)
 */
static void depfiles_hold_names_make_and_ninja_both_read(void **state)
{
	(void)state;
	static const char *const names[] = {
		"a b", "a!b", "a(b)c", "\xC3\xA9t\xC3\xA9", "back\\slash", "sp\\ ace", "$(x)", "h#sh", "~t", "p%q",
	};
	enum { N = sizeof names / sizeof names[0] };
	char *dir = absolute_tmpdir("depfile-readable"), *art = test_format("%s/art", dir);
	char *out = test_format("%s/out", dir), *dep = test_format("%s/deps.d", dir), *srcs[N];
	const char *make_argv[8 + N + 1] = { "make", "-B", "-s", "-C", dir, "-f", "M", "--" };
	size_t size;
	uint8_t *bytes = test_read_file("testdata/compact/sway.Animation", &size);
	test_run r;

	assert_int_equal(mkdir(art, 0777), 0);
	for (size_t i = 0; i < N; i++) {
		srcs[i] = test_format("%s/%s.Animation", art, names[i]);
		assert_true(test_write_file(srcs[i], bytes, size));
	}
	r = test_animc("build", "-q", "--depfile", dep, "-o", out, art, NULL);
	if (r.status != 0)
		fail_msg("%s", r.err);
	test_run_release(&r);
	/* make: every output's one prerequisite is its source, by its name
	 * (a match-anything rule records what make read). */
	char *mk = test_format("%s/M", dir);
	static const char makefile[] = "include deps.d\n%::\n\t@: $(file >>got,$@|$^)\n";
	assert_true(test_write_file(mk, makefile, strlen(makefile)));
	r = test_animc("outputs", "-o", out, art, NULL);
	assert_int_equal(r.status, 0);
	char *outputs = test_format("%s", r.out), *line = outputs;
	test_run_release(&r);
	size_t argc = 8;
	for (char *nl; (nl = strchr(line, '\n')); line = nl + 1) {
		*nl = '\0';
		assert_true(argc < 8 + N);
		make_argv[argc++] = line;
	}
	assert_int_equal(argc, 8 + N);
	r = test_execv(make_argv);
	if (r.status != 0)
		fail_msg("make: %s", r.err);
	test_run_release(&r);
	char *got_path = test_format("%s/got", dir), *got = (char *)test_read_file(got_path, NULL);
	for (size_t i = 0; i < N; i++) {
		char *want = test_format("|%s\n", srcs[i]);

		if (!strstr(got, want))
			fail_msg("make did not read %s as one file:\n%s", srcs[i], got);
		free(want);
	}
	/* ninja: the depfile's lines are the deps of one edge. */
	char *ninja = test_format("%s/build.ninja", dir);
	static const char rules[] = "rule r\n  command = cp deps.d $out.d && touch $out\n  depfile = $out.d\n"
				    "  deps = gcc\nbuild t: r\n";
	assert_true(test_write_file(ninja, rules, strlen(rules)));
	r = run_in(dir, "ninja >/dev/null && ninja -t deps t");
	assert_int_equal(r.status, 0);
	assert_int_equal(count_lines(r.out), 1 + N + 1);   /* the edge, its deps, a blank line */
	for (size_t i = 0; i < N; i++) {
		char *want = test_format("\n    %s\n", srcs[i]);

		if (!strstr(r.out, want))
			fail_msg("ninja did not read %s as one file:\n%s", srcs[i], r.out);
		free(want);
	}
	test_run_release(&r);
	for (size_t i = 0; i < N; i++)
		free(srcs[i]);
	free(ninja), free(got), free(got_path), free(outputs), free(mk), free(bytes);
	free(dep), free(out), free(art), free(dir);
}

/*
 * Names make and ninja do not both read, however escaped: the depfile is
 * not written, the error names the source and what in its name, and the
 * build exits 1 with its output written.  (Written, make stopped the whole
 * makefile at a ';', and ninja recorded files that do not exist.)
 */
static void depfiles_refuse_names_make_or_ninja_misreads(void **state)
{
	(void)state;
	static const char *const cases[][2] = {
		{ "semi;x", "';' in its name" },
		{ "amp&x", "'&' in its name" },
		{ "q'x", "''' in its name" },
		{ "dq\"x", "'\"' in its name" },
		{ "Run[2]", "'[' in its name" },
		{ "a=b", "'=' in its name" },
		{ "st*r", "'*' in its name" },
		{ "wh?t", "'?' in its name" },
		{ "l<g>", "'<' in its name" },
		{ "p|pe", "'|' in its name" },
		{ "ta\tb", "a tab in its name" },
		{ "b\\#h", "a backslash before '#' in its name" },
		{ "b\\:c", "a backslash before ':' in its name" },
		{ "b\\$d", "a backslash before '$' in its name" },
	};
	char *dir = absolute_tmpdir("depfile-unreadable");
	size_t size;
	uint8_t *bytes = test_read_file("testdata/compact/sway.Animation", &size);

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *sub = test_format("%s/%zu", dir, i), *src = test_format("%s/%s.Animation", sub, cases[i][0]);
		char *out = test_format("%s/out", sub), *dep = test_format("%s/deps.d", sub);
		test_run r;

		assert_int_equal(mkdir(sub, 0777), 0);
		assert_true(test_write_file(src, bytes, size));
		r = test_animc("build", "-q", "--depfile", dep, "-o", out, src, NULL);
		assert_int_equal(r.status, 1);
		char *want = test_format("deps.d: error: not written: '%s/%zu/", dir, i);
		char *why = test_format(".Animation' has %s, which make and ninja", cases[i][1]);
		if (!strstr(r.err, want) || !strstr(r.err, why))
			fail_msg("%s: %s", cases[i][0], r.err);
		assert_false(test_file_exists(dep));
		assert_int_equal(test_count_files(out), 1);   /* the output, written */
		test_run_release(&r);
		free(why), free(want), free(dep), free(out), free(src), free(sub);
	}
	/* An output folder given as ~NAME: make would take the target for a
	 * home folder.  (Run in the folder, so that the name is as given.) */
	char cwd[4096], *bin;
	assert_non_null(getcwd(cwd, sizeof cwd));
	bin = test_animc_path()[0] == '/' ? test_format("%s", test_animc_path()) :
					    test_format("%s/%s", cwd, test_animc_path());
	char *tilde_src = test_format("%s/tilde.Animation", dir);
	assert_true(test_write_file(tilde_src, bytes, size));
	free(tilde_src);
	test_run tilde = test_exec("sh", "-c", "cd \"$1\" && \"$2\" build -q --depfile t.d -o '~out' tilde.Animation",
				   "sh", dir, bin, NULL);
	assert_int_equal(tilde.status, 1);
	if (!strstr(tilde.err, "t.d: error: not written: '~out/tilde.xnb' has '~' at the start of its name"))
		fail_msg("%s", tilde.err);
	test_run_release(&tilde);
	free(bin);
	/* Names the content makes a source of, whatever they end in. */
	static const char *const whole[][2] = {
		{ "lib(member)", "the form of an archive member to make, NAME(MEMBER)" },
		{ "ends:", "':' at the end of its name" },
	};
	for (size_t i = 0; i < sizeof whole / sizeof whole[0]; i++) {
		char *src = test_format("%s/%s", dir, whole[i][0]), *dep = test_format("%s/whole%zu.d", dir, i);
		char *out = test_format("%s/whole%zu", dir, i);
		char *want = test_format("error: not written: '%s' has %s, which make and ninja", src, whole[i][1]);
		test_run r;

		assert_true(test_write_file(src, bytes, size));
		r = test_animc("build", "-q", "--depfile", dep, "-o", out, src, NULL);
		assert_int_equal(r.status, 1);
		if (!strstr(r.err, want))
			fail_msg("%s: %s", whole[i][0], r.err);
		assert_false(test_file_exists(dep));
		test_run_release(&r);
		free(want), free(out), free(dep), free(src);
	}
	free(bytes);
	free(dir);
}

/*
 * A file an output depended on renamed (a glTF's buffer, its uri changed
 * with it): make runs the rule again and settles, where it stopped with
 * "No rule to make target" on the name the depfile held.  Each such file
 * has an empty rule, as gcc -MP writes; ninja (deps = gcc) reads the
 * depfile as before, the source and the buffer its deps.
 */
static void a_renamed_dependency_does_not_stop_make(void **state)
{
	(void)state;
	char *dir = absolute_tmpdir("make-rule-renamed");
	static const char makefile[] =
		"out/external/wag.xnb: art/external.gltf\n"
		"\tanimc build -q --base art --depfile $@.d -o out $<\n"
		"-include $(shell find out -name '*.d' 2>/dev/null)\n";
	char *path = test_format("%s/Makefile", dir);
	test_run r;

	assert_true(test_write_file(path, makefile, strlen(makefile)));
	free(path);
	r = run_in(dir, "mkdir art && cp \"$OLDPWD\"/testdata/gltf/external.gltf \"$OLDPWD/testdata/gltf/wag data.bin\" art");
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	assert_int_equal(make_in(dir, ""), 0);
	path = test_format("%s/out/external/wag.xnb.d", dir);
	char *text = (char *)test_read_file(path, NULL);
	char *want = test_format("out/external/wag.xnb: %s/art/external.gltf %s/art/wag\\ data.bin\n"
				 "%s/art/wag\\ data.bin:\n", dir, dir, dir);
	assert_string_equal(text, want);
	free(want), free(text);
	/* ninja reads it: the empty rule adds nothing. */
	char *ninja = test_format("%s/build.ninja", dir);
	static const char rules[] = "rule r\n  command = cp out/external/wag.xnb.d $out.d && touch $out\n"
				    "  depfile = $out.d\n  deps = gcc\nbuild t: r\n";
	assert_true(test_write_file(ninja, rules, strlen(rules)));
	r = run_in(dir, "ninja >/dev/null && ninja -t deps t && ninja");
	assert_int_equal(r.status, 0);
	want = test_format("t: #deps 2, deps mtime");
	assert_non_null(strstr(r.out, want));
	free(want);
	want = test_format("\n    %s/art/external.gltf\n    %s/art/wag data.bin\n\nninja: no work to do.\n", dir, dir);
	assert_non_null(strstr(r.out, want));
	free(want);
	test_run_release(&r);
	sleep(1);   /* a later mtime on file systems of coarse times */
	r = run_in(dir, "mv 'art/wag data.bin' art/wag.bin && sed -i 's/wag%20data\\.bin/wag.bin/' art/external.gltf");
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	assert_int_equal(make_in(dir, ""), 0);     /* runs the rule */
	assert_int_equal(make_in(dir, "-q"), 0);   /* and then has nothing to do */
	text = (char *)test_read_file(path, NULL);
	want = test_format("out/external/wag.xnb: %s/art/external.gltf %s/art/wag.bin\n%s/art/wag.bin:\n", dir, dir, dir);
	assert_string_equal(text, want);
	free(want), free(text), free(ninja), free(path), free(dir);
}

/* A per-file rule in an output folder that holds many other sources
 * stat()ed each of them, every time, to find those deleted: the rules of a
 * per-file build cost more the more sources the folder held.  A folder of
 * many recorded sources is now listed once.  (Counted with strace: the
 * stat calls naming a source of the tree.) */
static void a_rule_does_not_stat_every_recorded_source(void **state)
{
	char *made = test_tmpdir("make-rule-stats"), *dir = realpath(made, NULL);
	char *log = test_format("%s/strace.log", dir);
	test_run r;

	(void)state;
	r = test_exec("sh", "-c", "command -v strace", NULL);
	if (r.status != 0) {
		test_run_release(&r);
		print_message("skipped: strace not found\n");
		free(log), free(dir), free(made);
		skip();
	}
	test_run_release(&r);
	char *sample = realpath("testdata/sample/Crane/Turn.Animation", NULL);
	assert_non_null(sample);
	test_sh("cd '%s' && for d in 0 1 2; do mkdir -p art/d$d && for i in $(seq 1 40); do "
		"cp '%s' art/d$d/t$i.Animation; done; done", dir, sample);
	free(sample);
	char *animc = realpath(test_animc_path(), NULL);
	assert_non_null(animc);
	test_sh("cd '%s' && '%s' build -q -o out art", dir, animc);
	/* LeakSanitizer cannot run under ptrace: a sanitizer build checks no
	 * leaks in this run. */
	test_sh("cd '%s' && echo '<!-- edit -->' >> art/d1/t5.Animation && "
		"ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0\" strace -f -qq -o '%s' "
		"-e trace=stat,lstat,newfstatat,statx '%s' build -q --prune --base art -o out art/d1/t5.Animation",
		dir, log, animc);
	char *text = (char *)test_read_file(log, NULL);
	size_t named = 0;
	for (char *at = text; (at = strstr(at, "art/d")); at++)
		named++;
	if (named > 40)
		fail_msg("%zu stat calls name a source of 120 recorded", named);
	free(text), free(animc), free(log), free(dir), free(made);
}

/* A depfile on a full disk says why it was not written, as the report
 * and JUnit files do: written at once, larger than a buffer, its failed
 * write's reason was lost ("cannot write 'deps.d'"). */
static void a_depfile_on_a_full_disk_says_why(void **state)
{
	char *dir = test_tmpdir("depfile-full"), *abs = realpath(dir, NULL);
	char *sample = realpath("testdata/sample/Crane/Turn.Animation", NULL);

	(void)state;
	assert_non_null(sample);
	test_sh("cd '%s' && mkdir art && for i in $(seq 1 150); do cp '%s' art/a_longer_name_for_the_turn_$i.Animation; "
		"done", abs, sample);
	char *animc = realpath(test_animc_path(), NULL);
	const char *argv[] = { "sh", "-c", "cd \"$0\" && exec \"$1\" build -q --depfile - -o out art > /dev/full", abs,
			       animc, NULL };
	test_run r = test_execv(argv);

	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "-: error: cannot write '-': No space left on device\n"))
		fail_msg("%s", r.err);
	test_run_release(&r);
	free(animc), free(sample), free(abs), free(dir);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(documented_make_rule_settles_after_one_rebuild),
	cmocka_unit_test(a_rule_does_not_stat_every_recorded_source),
	cmocka_unit_test(a_touched_skeleton_settles_after_one_rebuild),
	cmocka_unit_test(documented_make_rule_runs_after_an_install_keeping_old_mtimes),
	cmocka_unit_test(an_install_of_animc_settles_after_one_rebuild),
	cmocka_unit_test(depfiles_escape_colons_and_percents),
	cmocka_unit_test(depfiles_hold_names_make_and_ninja_both_read),
	cmocka_unit_test(a_depfile_on_a_full_disk_says_why),
	cmocka_unit_test(depfiles_refuse_names_make_or_ninja_misreads),
	cmocka_unit_test(a_renamed_dependency_does_not_stop_make),
	cmocka_unit_test(a_killed_rule_runs_again),
};

ANIMC_TEST_GROUP(tests);
