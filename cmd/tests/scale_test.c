/*
 * scale_test.c - `animc build` past one machine: two "machines" (two empty
 * output folders) sharing one cache on Debian's nginx (WebDAV, loopback) or
 * in a folder; a damaged entry; the server stopped in the middle of a
 * build; --shard.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cache.h"
#include "cli.h"
#include "test_support.h"

/* A build that must succeed; what it said, when it did not. */
static void expect_ok(const test_run *run)
{
	if (run->status != 0) {
		const char *last = strrchr(run->out, '\n');

		/* Its messages, and the summary line (cmocka's message is short). */
		while (last && last > run->out && last[-1] != '\n')
			last--;
		print_message("exit status %d; stderr:\n%s\nsummary: %s\n", run->status, run->err,
			      last ? last : run->out);
		fail();
	}
}

static const char *const sample_files[] = { "Crane.x", "Idle.Animation", "Signals.xml", "Turn.Animation",
					    "Wave.Animation" };
#define SAMPLE_COUNT (sizeof sample_files / sizeof *sample_files)

/* The sample sources (every importer: Assimp, RobotGame XML, XNA XML),
 * without the README the build would skip, in `dir`/src. */
static char *sample_sources(const char *dir)
{
	char *src = test_format("%s/src", dir);
	cli_error err;

	assert_true(cli_mkdir_p(src, &err));
	for (size_t i = 0; i < SAMPLE_COUNT; i++) {
		char *from = test_format("testdata/sample/Crane/%s", sample_files[i]);
		char *to = test_format("%s/%s", src, sample_files[i]);
		size_t size;
		uint8_t *data = test_read_file(from, &size);

		assert_true(test_write_file(to, data, size));
		free(data);
		free(from);
		free(to);
	}
	return src;
}

/* `copies` folders of distinct XML sources (each RobotGame sample with a
 * comment naming its copy), for builds that take a while. */
static char *many_sources(const char *dir, unsigned copies)
{
	static const char *const xml[] = { "Idle.Animation", "Turn.Animation", "Wave.Animation" };
	char *src = test_format("%s/many", dir);
	cli_error err;

	for (unsigned c = 0; c < copies; c++)
		for (size_t i = 0; i < 3; i++) {
			char *from = test_format("testdata/sample/Crane/%s", xml[i]);
			char *folder = test_format("%s/copy%03u", src, c);
			char *to = test_format("%s/%s", folder, xml[i]);
			size_t size;
			uint8_t *data = test_read_file(from, &size);
			FILE *fp;

			assert_true(cli_mkdir_p(folder, &err));
			fp = fopen(to, "wb");
			assert_non_null(fp);
			fwrite(data, 1, size, fp);
			fprintf(fp, "<!-- copy %u -->\n", c);
			fclose(fp);
			free(data);
			free(from);
			free(folder);
			free(to);
		}
	return src;
}

/* The statuses of a JSON report, space-separated, in source order. */
static char *report_statuses(const char *report)
{
	test_run run = test_exec("python3", "-c",
				 "import json, sys\n"
				 "r = json.load(open(sys.argv[1]))\n"
				 "print(' '.join(s['status'] for s in r['sources']), end='')\n"
				 "print(' | shard', r.get('shard'), 'cached', r['totals'].get('cached'), end='')\n",
				 report, NULL);
	char *out;

	expect_ok(&run);
	out = strdup(run.out);
	test_run_release(&run);
	return out;
}

/* How many times `word` stands in `text` as a whole word. */
static size_t count_word(const char *text, const char *word)
{
	size_t n = 0, len = strlen(word);

	for (const char *p = strstr(text, word); p; p = strstr(p + len, word))
		n += (p == text || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0');
	return n;
}

/* Every file under `a` (but .animc/) is under `b` with the same bytes, and
 * the other way round. */
static void assert_same_tree(const char *a, const char *b)
{
	test_run run = test_exec("diff", "-r", "-x", ".animc", a, b, NULL);

	if (run.status != 0)
		fail_msg("%s and %s differ:\n%s", a, b, run.out);
	test_run_release(&run);
}

static size_t count_entries(const char *root, const char *kind)
{
	char *dir = test_format("%s/%s", root, kind);
	size_t n = test_count_files(dir);

	free(dir);
	return n;
}

/* ---------------------------------------------------------- the tests */

/* Machine 1 compiles and stores; machine 2 compiles nothing. */
static void two_machines_share_a_remote(void **state)
{
	char *dir = test_tmpdir("two_machines_share_a_remote"), *src = sample_sources(dir);
	char *out1 = test_format("%s/out1", dir), *out2 = test_format("%s/out2", dir);
	char *r1 = test_format("%s/r1.json", dir), *r2 = test_format("%s/r2.json", dir), *statuses;
	char *junit = test_format("%s/r2.xml", dir);
	test_nginx server;
	test_run run;

	(void)state;
	test_nginx_start(&server, dir, NULL, NULL);
	run = test_animc("build", "--allow", "numbered-bones", "--cache-wait", "--cache-url", server.url, "--cache-min-size", "0",
			 "--report", r1, "-o", out1, src, NULL);
	expect_ok(&run);
	assert_null(strstr(run.err, "warning"));
	test_run_release(&run);
	statuses = report_statuses(r1);
	assert_int_equal(count_word(statuses, "compiled"), SAMPLE_COUNT);
	free(statuses);
	/* Five entries, one per source; the seven clips' bytes. */
	assert_int_equal(count_entries(server.root, "ac"), SAMPLE_COUNT);
	assert_int_equal(count_entries(server.root, "cas"), 7);

	run = test_animc("build", "--cache-wait", "--cache-url", server.url, "--cache-min-size", "0", "--report", r2, "--junit", junit, "-o", out2, src,
			 NULL);
	expect_ok(&run);
	{
		/* JUnit: five passing cases, each saying where it came from. */
		char *xml = (char *)test_read_file(junit, NULL);
		size_t n = 0;

		for (const char *p = strstr(xml, "fetched from the shared cache"); p;
		     p = strstr(p + 1, "fetched from the shared cache"))
			n++;
		assert_int_equal(n, SAMPLE_COUNT);
		assert_null(strstr(xml, "<failure"));
		free(xml);
	}
	/* The clips fetched are counted with the sources cached, not as
	 * compiled. */
	if (!strstr(run.out, "compiled 0 sources (0 clips), 0 failed") || !strstr(run.out, "5 cached (7 clips)"))
		fail_msg("machine 2 compiled:\n%s%s", run.out, run.err);
	test_run_release(&run);
	statuses = report_statuses(r2);
	assert_int_equal(count_word(statuses, "cached"), SAMPLE_COUNT + 1);   /* and the totals' word */
	assert_int_equal(count_word(statuses, "compiled"), 0);
	assert_non_null(strstr(statuses, "cached 5"));
	free(statuses);
	assert_same_tree(out1, out2);

	/* --rebuild compiles every source: not one lookup goes out. */
	size_t gets = test_nginx_count_requests(&server, "GET ");
	char *out3 = test_format("%s/out3", dir);
	run = test_animc("build", "-q", "--rebuild", "--cache-wait", "--cache-url", server.url, "--cache-min-size", "0",
			 "-o", out3, src, NULL);
	expect_ok(&run);
	test_run_release(&run);
	usleep(200000);   /* nginx logs just after answering */
	assert_int_equal(test_nginx_count_requests(&server, "GET "), gets);
	free(out3);

	/* What a hit wrote is in machine 2's manifest: built again with no
	 * cache, nothing is compiled. */
	run = test_animc("build", "--report", r2, "-o", out2, src, NULL);
	expect_ok(&run);
	test_run_release(&run);
	statuses = report_statuses(r2);
	assert_int_equal(count_word(statuses, "up-to-date"), SAMPLE_COUNT);
	free(statuses);
	test_nginx_release(&server);
	free(junit);
	free(r1);
	free(r2);
	free(out1);
	free(out2);
	free(src);
	free(dir);
}

/* The same with a cache folder, and --cache-read-only. */
static void two_machines_share_a_folder(void **state)
{
	char *dir = test_tmpdir("two_machines_share_a_folder"), *src = sample_sources(dir);
	char *cache = test_format("%s/cache", dir), *out1 = test_format("%s/out1", dir);
	char *out2 = test_format("%s/out2", dir), *r2 = test_format("%s/r2.json", dir), *statuses;
	test_run run;

	(void)state;
	run = test_animc("build", "--cache-wait", "--cache-dir", cache, "--cache-min-size", "0", "--cache-read-only", "-o", out1, src, NULL);
	expect_ok(&run);
	test_run_release(&run);
	assert_false(test_file_exists(cache));
	run = test_animc("build", "--cache-wait", "--cache-dir", cache, "--cache-min-size", "0", "--rebuild", "-o", out1, src, NULL);
	expect_ok(&run);
	test_run_release(&run);
	assert_int_equal(count_entries(cache, "ac"), SAMPLE_COUNT);
	run = test_animc("build", "--cache-wait", "--cache-dir", cache, "--cache-min-size", "0", "--cache-read-only", "--report", r2, "-o", out2, src,
			 NULL);
	expect_ok(&run);
	test_run_release(&run);
	statuses = report_statuses(r2);
	assert_non_null(strstr(statuses, "cached 5"));
	free(statuses);
	assert_same_tree(out1, out2);
	free(r2);
	free(out1);
	free(out2);
	free(cache);
	free(src);
	free(dir);
}

/* By default, sources animc's own readers compile faster than a fetch
 * (small RobotGame and XNA XML) skip the cache: no entry, no lookup; the
 * Assimp source goes through it.  The tests above pass --cache-min-size 0
 * to put every source through it. */
static void small_own_format_sources_skip_the_cache(void **state)
{
	char *dir = test_tmpdir("small_own_format_sources_skip_the_cache"), *src = sample_sources(dir);
	char *cache = test_format("%s/cache", dir), *out1 = test_format("%s/out1", dir);
	char *out2 = test_format("%s/out2", dir), *r2 = test_format("%s/r2.json", dir), *statuses;
	test_run run;

	(void)state;
	run = test_animc("build", "--cache-wait", "--cache-dir", cache, "-o", out1, src, NULL);
	expect_ok(&run);
	test_run_release(&run);
	assert_int_equal(count_entries(cache, "ac"), 1);   /* Crane.x alone */
	run = test_animc("build", "--cache-wait", "--cache-dir", cache, "--report", r2, "-o", out2, src, NULL);
	expect_ok(&run);
	test_run_release(&run);
	statuses = report_statuses(r2);
	/* Crane.x, Idle, Signals.xml (by its content), Turn, Wave. */
	if (strstr(statuses, "cached compiled compiled compiled compiled |") != statuses)
		fail_msg("statuses: %s", statuses);
	free(statuses);
	assert_same_tree(out1, out2);
	/* With 0, every source is stored. */
	run = test_exec("rm", "-rf", out1, NULL);
	test_run_release(&run);
	run = test_animc("build", "--cache-wait", "--cache-dir", cache, "--cache-min-size", "0", "-o", out1, src, NULL);
	expect_ok(&run);
	test_run_release(&run);
	assert_int_equal(count_entries(cache, "ac"), SAMPLE_COUNT);
	run = test_animc("build", "--cache-wait", "--cache-dir", cache, "--cache-min-size", "lots", "-o", out1, src, NULL);
	assert_int_equal(run.status, 2);
	assert_non_null(strstr(run.err, "--cache-min-size 'lots' is not a size"));
	test_run_release(&run);
	free(r2);
	free(out1);
	free(out2);
	free(cache);
	free(src);
	free(dir);
}

/* A damaged blob on the server: that source compiles again, correctly,
 * with a warning; the others are fetched. */
static void damaged_entry_compiles_again(void **state)
{
	char *dir = test_tmpdir("damaged_entry_compiles_again"), *src = sample_sources(dir);
	char *out1 = test_format("%s/out1", dir), *out2 = test_format("%s/out2", dir);
	char *r2 = test_format("%s/r2.json", dir), *statuses, *cas = test_format("%s/root/cas", dir);
	char **blobs;
	test_nginx server;
	test_run run;
	FILE *fp;

	(void)state;
	test_nginx_start(&server, dir, NULL, NULL);
	run = test_animc("build", "--cache-wait", "--cache-url", server.url, "--cache-min-size", "0", "-o", out1, src, NULL);
	expect_ok(&run);
	test_run_release(&run);
	blobs = test_list_dir(cas, NULL);
	assert_non_null(blobs[0]);
	{
		char *blob = test_format("%s/%s", cas, blobs[0]);

		fp = fopen(blob, "r+b");
		assert_non_null(fp);
		fseek(fp, 10, SEEK_SET);
		fputc('!', fp);
		fclose(fp);
		free(blob);
	}
	test_free_list(blobs);
	run = test_animc("build", "--cache-wait", "--cache-url", server.url, "--cache-min-size", "0", "--report", r2, "-o", out2, src, NULL);
	expect_ok(&run);
	assert_non_null(strstr(run.err, "does not match its digest"));
	test_run_release(&run);
	statuses = report_statuses(r2);
	assert_int_equal(count_word(statuses, "compiled"), 1);
	assert_non_null(strstr(statuses, "cached 4"));
	free(statuses);
	assert_same_tree(out1, out2);
	test_nginx_release(&server);
	free(cas);
	free(r2);
	free(out1);
	free(out2);
	free(src);
	free(dir);
}

/* The server stops while machine 2 builds: warnings, and a build as whole
 * and as right as machine 1's. */
static void server_stopped_mid_build(void **state)
{
	char *dir = test_tmpdir("server_stopped_mid_build"), *src = many_sources(dir, 200);
	char *out1 = test_format("%s/out1", dir), *out2 = test_format("%s/out2", dir);
	char *r2 = test_format("%s/r2.json", dir), *log = test_format("%s/access.log", dir);
	char *err = test_format("%s/err.txt", dir), *statuses;
	test_nginx server;
	test_run run;
	pid_t pid;
	int status;
	size_t lines = 0;

	(void)state;
	test_nginx_start(&server, dir, NULL, NULL);
	run = test_animc("build", "-q", "--cache-wait", "--cache-url", server.url, "--cache-min-size", "0", "-o", out1, src, NULL);
	expect_ok(&run);
	test_run_release(&run);
	assert_int_equal(truncate(log, 0), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		dup2(fd, 2);
		freopen("/dev/null", "w", stdout);
		execl(test_animc_path(), "animc", "build", "-q", "-j1", "--cache-url", server.url, "--cache-min-size", "0", "--report", r2,
		      "-o", out2, src, (char *)NULL);
		_exit(127);
	}
	/* Stopped after some 40 requests of the 1,200 or so a full fetch
	 * makes, however long a loaded machine takes to make them (up to 5
	 * minutes). */
	for (int i = 0; i < 150000 && lines < 40; i++) {
		FILE *fp = fopen(log, "r");
		int c;

		lines = 0;
		if (fp) {
			while ((c = fgetc(fp)) != EOF)
				lines += c == '\n';
			fclose(fp);
		}
		if (lines < 40 && waitpid(pid, &status, WNOHANG) == pid)
			fail_msg("the build ended after %zu requests, before the server stopped", lines);
		usleep(2000);
	}
	assert_true(lines >= 40);
	test_nginx_stop(&server);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	{
		char *text = (char *)test_read_file(err, NULL);

		assert_non_null(strstr(text, "warning"));
		if (!strstr(text, "compiled here") && !strstr(text, "compiling instead"))
			fail_msg("%s", text);
		free(text);
	}
	statuses = report_statuses(r2);
	assert_true(count_word(statuses, "cached") >= 2);     /* some came from the server */
	assert_true(count_word(statuses, "compiled") >= 1);   /* the rest were compiled */
	assert_int_equal(count_word(statuses, "compiled") + count_word(statuses, "cached") - 1, 600);
	free(statuses);
	assert_same_tree(out1, out2);
	test_nginx_release(&server);
	free(err);
	free(log);
	free(r2);
	free(out1);
	free(out2);
	free(src);
	free(dir);
}

/* Sources that would write one output are in one shard, which refuses the
 * second as a whole build does: shards by source name each wrote it. */
static void shards_keep_sources_of_one_output_together(void **state)
{
	char *dir = test_tmpdir("shards_keep_sources_of_one_output_together"), *src = many_sources(dir, 10);
	size_t compiled = 0, failed = 0, shards_failing = 0;
	test_run run;

	(void)state;
	/* Beside each copy's Idle.Animation, the same clip as Idle.xml (the
	 * XmlSerializer dialect): both write copyNNN/Idle.xnb. */
	for (unsigned c = 0; c < 10; c++) {
		char *from = test_format("%s/copy%03u/Idle.Animation", src, c);
		char *to = test_format("%s/copy%03u/Idle.xml", src, c);
		size_t size;
		uint8_t *data = test_read_file(from, &size);

		assert_true(test_write_file(to, data, size));
		free(data);
		free(from);
		free(to);
	}
	char *all = test_format("%s/all", dir);
	run = test_animc("build", "-q", "-o", all, src, NULL);
	assert_int_equal(run.status, 1);
	assert_int_equal(count_word(run.err, "error:"), 10);
	test_run_release(&run);
	free(all);
	for (unsigned k = 1; k <= 3; k++) {
		char *shard = test_format("%u/3", k), *report = test_format("%s/r%u.json", dir, k);
		char *out = test_format("%s/out%u", dir, k), *statuses;

		/* Each shard into a folder of its own, as CI runners do. */
		run = test_animc("build", "-q", "--shard", shard, "--report", report, "-o", out, src, NULL);
		statuses = report_statuses(report);
		compiled += count_word(statuses, "compiled");
		failed += count_word(statuses, "failed");
		assert_int_equal(run.status, count_word(statuses, "failed") ? 1 : 0);
		shards_failing += run.status != 0;
		test_run_release(&run);
		free(statuses);
		free(out);
		free(report);
		free(shard);
	}
	assert_int_equal(failed, 10);
	assert_int_equal(compiled, 30);
	assert_true(shards_failing >= 1);
	/* With --root-motion, Turn.motion.Animation writes what Turn's motion
	 * is written to: one shard has both, and refuses one. */
	char *motion = test_format("%s/copy000/Turn.motion.Animation", src), *turn = test_format("%s/copy000/Turn.Animation", src);
	size_t size;
	uint8_t *data = test_read_file(turn, &size);
	assert_true(test_write_file(motion, data, size));
	free(data);
	unsigned refusing = 0;
	for (unsigned n = 2; n <= 5; n++)
		for (unsigned k = 1; k <= n; k++) {
			char *shard = test_format("%u/%u", k, n), *out = test_format("%s/motion%u-%u", dir, k, n);

			run = test_animc("build", "-q", "--root-motion", "Base", "--shard", shard, "-o", out, motion,
					 turn, NULL);
			refusing += strstr(run.err, "Turn.motion.xnb' is the output of") != NULL;
			test_run_release(&run);
			free(out), free(shard);
		}
	assert_int_equal(refusing, 4);   /* once for each N */
	free(motion), free(turn);
	free(src);
	free(dir);
}

/* --shard K/N: disjoint shards, together the whole build. */
static void shards_partition_a_build(void **state)
{
	char *dir = test_tmpdir("shards_partition_a_build"), *src = many_sources(dir, 10);
	char *all = test_format("%s/all", dir), *merged = test_format("%s/merged", dir);
	size_t total = 0;
	test_run run;

	(void)state;
	run = test_animc("build", "-q", "-o", all, src, NULL);
	expect_ok(&run);
	test_run_release(&run);
	for (unsigned k = 1; k <= 3; k++) {
		char *shard = test_format("%u/3", k), *report = test_format("%s/r%u.json", dir, k);
		char *statuses, *want = test_format("shard {'index': %u, 'count': 3}", k);

		/* All three shards write into one folder, one after the other:
		 * a shard leaves the others' outputs alone. */
		run = test_animc("build", "--shard", shard, "--report", report, "-o", merged, src, NULL);
		expect_ok(&run);
		assert_non_null(strstr(run.out, shard));
		test_run_release(&run);
		statuses = report_statuses(report);
		assert_non_null(strstr(statuses, want));
		total += count_word(statuses, "compiled");
		assert_true(count_word(statuses, "compiled") > 0);
		free(statuses);
		free(want);
		free(report);
		free(shard);
	}
	assert_int_equal(total, 30);
	assert_same_tree(all, merged);
	/* Sources deleted: each shard counts (and --prune removes) the stale
	 * outputs of its own sources alone. */
	static const char *const names[] = { "Idle", "Turn", "Wave" };
	unsigned stale[4] = { 0 }, sum = 0;
	for (size_t i = 0; i < 3; i++) {
		char *path = test_format("%s/copy000/%s.Animation", src, names[i]);

		assert_int_equal(unlink(path), 0);
		free(path);
	}
	for (unsigned k = 1; k <= 3; k++) {
		char *shard = test_format("%u/3", k);
		const char *at;

		run = test_animc("build", "--shard", shard, "-o", merged, src, NULL);
		expect_ok(&run);
		at = strstr(run.out, " stale output");
		if (at) {
			while (at > run.out && at[-1] != ' ')
				at--;
			stale[k] = (unsigned)atoi(at);
		}
		sum += stale[k];
		test_run_release(&run);
		free(shard);
	}
	assert_int_equal(sum, 3);
	run = test_animc("build", "-q", "--shard", "1/3", "--prune", "-o", merged, src, NULL);
	expect_ok(&run);
	test_run_release(&run);
	size_t left = 0;
	for (size_t i = 0; i < 3; i++) {
		char *path = test_format("%s/copy000/%s.xnb", merged, names[i]);

		left += test_file_exists(path);
		free(path);
	}
	assert_int_equal(left, 3 - stale[1]);
	run = test_animc("build", "--shard", "4/3", "-o", merged, src, NULL);
	assert_int_equal(run.status, 2);
	test_run_release(&run);
	free(all);
	free(merged);
	free(src);
	free(dir);
}

/* An entry under another source's key (a damaged or hand-edited cache):
 * the entry's source hash is not this source's, so it is not used, and
 * the source compiles, saying why. */
static void an_entry_of_another_source_is_not_used(void **state)
{
	char *dir = test_tmpdir("an_entry_of_another_source_is_not_used");
	char *a = test_format("%s/a/Turn.Animation", dir), *b = test_format("%s/b/Turn.Animation", dir);
	char *ca = test_format("%s/ca", dir), *cb = test_format("%s/cb", dir), *fresh = test_format("%s/fresh", dir);
	char *out = test_format("%s/out", dir);
	char **ea, **eb;
	test_run run;

	(void)state;
	run = test_exec("sh", "-c", "mkdir -p \"$1/a\" \"$1/b\" && cp testdata/sample/Crane/Turn.Animation \"$1/a/\" && "
			"cp testdata/sample/Crane/Wave.Animation \"$1/b/Turn.Animation\"", "sh", dir, NULL);
	expect_ok(&run);
	test_run_release(&run);
	const char *pairs[2][2] = { { ca, a }, { cb, b } };
	for (int i = 0; i < 2; i++) {
		run = test_animc("build", "-q", "--cache-wait", "--cache-dir", pairs[i][0], "--cache-min-size", "0", "-o",
				 fresh, pairs[i][1], NULL);
		expect_ok(&run);
		test_run_release(&run);
	}
	/* b's key now names a's entry; a's blobs are there too. */
	char *aac = test_format("%s/ac", ca), *bac = test_format("%s/ac", cb);
	ea = test_list_dir(aac, NULL);
	eb = test_list_dir(bac, NULL);
	assert_non_null(ea[0]);
	assert_non_null(eb[0]);
	run = test_exec("sh", "-c", "cp \"$1\"/cas/* \"$2\"/cas/ && cp \"$1/ac/$3\" \"$2/ac/$4\"", "sh", ca, cb, ea[0],
			eb[0], NULL);
	expect_ok(&run);
	test_run_release(&run);
	run = test_animc("build", "--cache-wait", "--cache-dir", cb, "--cache-min-size", "0", "-o", out, b, NULL);
	expect_ok(&run);
	if (!strstr(run.err, "b/Turn.Animation: warning: the cache's entry for it was made from another source"))
		fail_msg("%s%s", run.out, run.err);
	test_run_release(&run);
	char *got = test_format("%s/Turn.xnb", out), *want = test_format("%s/Turn.xnb", fresh);
	assert_true(test_same_bytes(got, want));   /* fresh holds b's, built last */
	free(got), free(want);
	test_free_list(ea);
	test_free_list(eb);
	free(aac), free(bac), free(out), free(fresh), free(cb), free(ca), free(b), free(a), free(dir);
}

/* An entry filed under another key (here a --scale 2 build's, at the
 * default build's key: a server or a sync tool that mixed names) is not
 * used: the entry says its key.  It wrote the scaled clip, exit 0. */
static void an_entry_under_another_key_is_not_used(void **state)
{
	char *dir = test_tmpdir("an_entry_under_another_key"), *src = test_format("%s/src", dir);
	char *c1 = test_format("%s/c1", dir), *c2 = test_format("%s/c2", dir), *fresh = test_format("%s/fresh", dir);
	char *scaled = test_format("%s/scaled", dir), *out = test_format("%s/out", dir);
	test_run run;

	(void)state;
	run = test_exec("sh", "-c", "mkdir -p \"$1/src\" && cp testdata/sample/Crane/Turn.Animation \"$1/src/\"", "sh",
			dir, NULL);
	expect_ok(&run);
	test_run_release(&run);
	run = test_animc("build", "-q", "--cache-wait", "--cache-dir", c1, "--cache-min-size", "0", "-o", fresh, src,
			 NULL);
	expect_ok(&run);
	test_run_release(&run);
	run = test_animc("build", "-q", "--scale", "2", "--cache-wait", "--cache-dir", c2, "--cache-min-size", "0", "-o",
			 scaled, src, NULL);
	expect_ok(&run);
	test_run_release(&run);
	run = test_exec("sh", "-c", "k1=$(ls \"$1/ac\") && k2=$(ls \"$2/ac\") && [ \"$k1\" != \"$k2\" ] && "
			"cp \"$2/ac/$k2\" \"$1/ac/$k1\" && cp \"$2\"/cas/* \"$1/cas/\"", "sh", c1, c2, NULL);
	expect_ok(&run);
	test_run_release(&run);
	run = test_animc("build", "--progress", "never", "--cache-wait", "--cache-read-only", "--cache-dir", c1, "--cache-min-size", "0",
			 "-o", out, src, NULL);
	expect_ok(&run);
	if (!strstr(run.err, "Turn.Animation: warning: the cache's entry for it was stored under another key"))
		fail_msg("%s%s", run.out, run.err);
	test_run_release(&run);
	char *got = test_format("%s/Turn.xnb", out), *want = test_format("%s/Turn.xnb", fresh);
	assert_true(test_same_bytes(got, want));
	free(got), free(want), free(out), free(scaled), free(fresh), free(c2), free(c1), free(src), free(dir);
}

/* Rewrites the action entry in cache folder $1 whose output is named $2:
 * its output named $3 instead (the same length, in the entry and in animc's
 * record of it), or, with $3 "digest:NAME", its digest that of NAME's entry,
 * or, with $3 "status:N", the status of animc's record (its first byte,
 * after the header line) N.  An entry is a protobuf: field 2, the output,
 * holds its path (1) and digest (2). */
static const char edit_entry_py[] =
	"import os, sys\n"
	"def varint(b, i):\n"
	"    r = s = 0\n"
	"    while True:\n"
	"        c = b[i]; i += 1; r |= (c & 0x7f) << s; s += 7\n"
	"        if not c & 0x80: return r, i\n"
	"def parse(b):\n"
	"    i = 0; out = []\n"
	"    while i < len(b):\n"
	"        k, i = varint(b, i); f, w = k >> 3, k & 7\n"
	"        if w == 0: v, i = varint(b, i)\n"
	"        elif w == 2: n, i = varint(b, i); v = b[i:i + n]; i += n\n"
	"        elif w == 1: v = b[i:i + 8]; i += 8\n"
	"        else: v = b[i:i + 4]; i += 4\n"
	"        out.append((f, w, v))\n"
	"    return out\n"
	"def ev(n):\n"
	"    o = bytearray()\n"
	"    while True:\n"
	"        c = n & 0x7f; n >>= 7\n"
	"        if n: o.append(c | 0x80)\n"
	"        else: o.append(c); return bytes(o)\n"
	"def enc(fs):\n"
	"    o = bytearray()\n"
	"    for f, w, v in fs:\n"
	"        o += ev(f << 3 | w)\n"
	"        o += ev(v) if w == 0 else (ev(len(v)) + v if w == 2 else v)\n"
	"    return bytes(o)\n"
	"d = sys.argv[1] + '/ac'; ents = {}\n"
	"for e in os.listdir(d):\n"
	"    fs = parse(open(os.path.join(d, e), 'rb').read())\n"
	"    o = [parse(v) for f, w, v in fs if f == 2][0]\n"
	"    ents[o[0][2].decode()] = (e, fs, o)\n"
	"e, fs, o = ents[sys.argv[2]]\n"
	"if sys.argv[3].startswith('digest:'):\n"
	"    other = [v for f, w, v in ents[sys.argv[3][7:]][2] if f == 2][0]\n"
	"    fs = [(f, w, enc([o[0], (2, 2, other)]) if f == 2 else v) for f, w, v in fs]\n"
	"    open(os.path.join(d, e), 'wb').write(enc(fs))\n"
	"elif sys.argv[3].startswith('status:'):\n"
	"    b = bytearray(open(os.path.join(d, e), 'rb').read())\n"
	"    b[b.index(b'\\n', b.index(b'animc-cache 1 outputs=')) + 1] = int(sys.argv[3][7:])\n"
	"    open(os.path.join(d, e), 'wb').write(b)\n"
	"else:\n"
	"    b = open(os.path.join(d, e), 'rb').read()\n"
	"    assert len(sys.argv[3]) == len(sys.argv[2])\n"
	"    open(os.path.join(d, e), 'wb').write(b.replace(sys.argv[2].encode(), sys.argv[3].encode()))\n";

/* Edit the entry of output `name` in `cache` (edit_entry_py). */
static void edit_entry(const char *cache, const char *name, const char *to)
{
	test_run run = test_exec("python3", "-c", edit_entry_py, cache, name, to, NULL);

	expect_ok(&run);
	test_run_release(&run);
}

/* A cache entry edited (by hand, or on a server) to name another output
 * file, or another output's bytes, is refused: the source compiles, its
 * own output is written where it belongs, and nothing the entry names
 * elsewhere (a folder, the state folder) is.  Both were taken, exit 0. */
/* A file the entry's import read, here a symbolic link in the source's
 * folder that leads out of it (a glTF buffer), is not read to check the
 * entry: the compile refuses to read it, so the cache does not stand in
 * for it with bytes from outside the folders given. */
static void an_entry_reads_no_dependency_through_a_link_out(void **state)
{
	char *dir = test_tmpdir("cache_dep_link"), *cache = test_format("%s/cache", dir);
	char *first = test_format("%s/out_a", dir), *out = test_format("%s/out_b", dir);
	char *gltf = test_format("%s/b/external.gltf", dir), *xnb = test_format("%s/external/wag.xnb", out);
	char *copy = test_format("%s/a/external.gltf", dir);
	test_run run;

	(void)state;
	run = test_exec("sh", "-c", "mkdir -p \"$1/a\" \"$1/b\" \"$1/secret\" && "
			"cp testdata/gltf/external.gltf 'testdata/gltf/wag data.bin' \"$1/a\" && "
			"cp testdata/gltf/external.gltf \"$1/b\" && cp 'testdata/gltf/wag data.bin' \"$1/secret\" && "
			"ln -s '../secret/wag data.bin' \"$1/b/wag data.bin\"", "sh", dir, NULL);
	expect_ok(&run);
	test_run_release(&run);
	run = test_animc("build", "-q", "--cache-wait", "--cache-dir", cache, "--cache-min-size", "0", "-o", first,
			 copy, NULL);
	expect_ok(&run);
	test_run_release(&run);
	run = test_animc("build", "--progress", "never", "--cache-wait", "--cache-dir", cache, "--cache-min-size", "0",
			 "-o", out, gltf, NULL);
	assert_int_equal(run.status, 1);
	if (!strstr(run.err, "b/external.gltf: error: buffers[0].uri: 'wag%20data.bin' resolves to ") ||
	    !strstr(run.err, "secret/wag data.bin', outside the source's folder: only files beside the source are read\n") ||
	    !strstr(run.out, "compiled 0 sources (0 clips), 1 failed, 0 skipped, 0 warnings\n"))
		fail_msg("%s%s", run.out, run.err);
	test_run_release(&run);
	assert_false(test_file_exists(xnb));
	free(copy), free(xnb), free(gltf), free(out), free(first), free(cache), free(dir);
}

/* The same, with the folder swapped for the link between the hit's check
 * of where the file lies and its read (another process writing the
 * folder; the stand-in swaps it right after the check): the hit reads
 * nothing through the link.  It did, and was taken. */
static void an_entry_reads_no_dependency_through_a_folder_swapped_for_a_link(void **state)
{
	(void)state;
	TEST_NEEDS_PRELOAD();
	char *dir = test_tmpdir("cache_dep_swap"), *real = realpath(dir, NULL), *cache = test_format("%s/cache", dir);
	char *shim = test_format("%s/swap.so", dir), *sub = test_format("%s/b/sub", real);
	char *to = test_format("%s/secret/sub", real), *gltf = test_format("%s/b/external.gltf", real);
	char *copy = test_format("%s/a/external.gltf", real), *out_a = test_format("%s/out_a", dir);
	char *out_b = test_format("%s/out_b", dir);
	test_run run;

	run = test_exec("sh", "-c", "mkdir -p \"$1/a/sub\" \"$1/b/sub\" \"$1/secret/sub\" && "
			"sed 's|\"wag%20data.bin\"|\"sub/wag%20data.bin\"|' testdata/gltf/external.gltf > \"$1/a/external.gltf\" && "
			"cp \"$1/a/external.gltf\" \"$1/b\" && for d in a/sub b/sub secret/sub; do "
			"cp 'testdata/gltf/wag data.bin' \"$1/$d\"; done && "
			"cc -shared -fPIC -o \"$2\" testdata/env/swap_after_realpath.c -ldl", "sh", real, shim, NULL);
	expect_ok(&run);
	test_run_release(&run);
	run = test_animc("build", "-q", "--cache-wait", "--cache-dir", cache, "--cache-min-size", "0", "-o", out_a,
			 copy, NULL);
	expect_ok(&run);
	test_run_release(&run);
	setenv("SWAP_FOLDER", sub, 1), setenv("SWAP_TO", to, 1), setenv("LD_PRELOAD", shim, 1);
	run = test_animc("build", "--progress", "never", "--cache-wait", "--cache-dir", cache, "--cache-min-size", "0",
			 "-o", out_b, gltf, NULL);
	unsetenv("LD_PRELOAD"), unsetenv("SWAP_FOLDER"), unsetenv("SWAP_TO");
	if (run.status != 1 || strstr(run.out, "cached") ||
	    !strstr(run.err, "secret/sub/wag data.bin', outside the source's folder: only files beside the source are read\n"))
		fail_msg("exit %d\n%s%s", run.status, run.out, run.err);
	test_run_release(&run);
	free(dir), free(real), free(cache), free(shim), free(sub), free(to), free(gltf), free(copy);
	free(out_a), free(out_b);
}

static void an_edited_entry_writes_nothing_it_names(void **state)
{
	char *dir = test_tmpdir("an_edited_entry"), *src = test_format("%s/src", dir);
	char *cache = test_format("%s/cache", dir), *fresh = test_format("%s/fresh", dir);
	test_run run;

	(void)state;
	run = test_exec("sh", "-c", "mkdir -p \"$1/src\" && cp testdata/sample/Crane/Turn.Animation \"$1/src/AAAAA.Animation\" && "
			"cp testdata/sample/Crane/Wave.Animation \"$1/src/BBBBB.Animation\"", "sh", dir, NULL);
	expect_ok(&run);
	test_run_release(&run);
	run = test_animc("build", "-q", "--cache-wait", "--cache-dir", cache, "--cache-min-size", "0", "-o", fresh, src,
			 NULL);
	expect_ok(&run);
	test_run_release(&run);
	static const char *const edits[][3] = {
		{ "AAAAA.xnb", "x/y/z.xnb", "names an output 'x/y/z.xnb' that it does not write" },
		{ "AAAAA.xnb", ".animc/mf", "names an output '.animc/mf' that it does not write" },
		{ "AAAAA.xnb", "BBBBB.xnb", "names an output 'BBBBB.xnb' that it does not write" },
		{ "AAAAA.xnb", "digest:BBBBB.xnb", "holds other bytes for 'AAAAA.xnb' than its compile made" },
	};
	for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
		char *copy = test_format("%s/cache%zu", dir, i), *out = test_format("%s/out%zu", dir, i);
		char *got = test_format("%s/AAAAA.xnb", out), *want = test_format("%s/AAAAA.xnb", fresh);

		run = test_exec("cp", "-a", cache, copy, NULL);
		expect_ok(&run);
		test_run_release(&run);
		edit_entry(copy, edits[i][0], edits[i][1]);
		run = test_animc("build", "--progress", "never", "--cache-wait", "--cache-read-only", "--cache-dir", copy,
				 "--cache-min-size", "0", "-o", out, src, NULL);
		expect_ok(&run);
		if (!strstr(run.err, "AAAAA.Animation: warning: the cache's entry for it ") ||
		    !strstr(run.err, edits[i][2]) || !strstr(run.err, "; not used, compiling instead [cache]\n"))
			fail_msg("edit %zu: %s%s", i, run.out, run.err);
		assert_non_null(strstr(run.out, "compiled 1 source (1 clip), 0 failed, 0 skipped, 1 warning, 1 cached"));
		test_run_release(&run);
		assert_true(test_same_bytes(got, want));
		assert_int_equal(test_count_files(out), 2);
		free(got), free(want), free(out), free(copy);
	}
	free(fresh), free(cache), free(src), free(dir);
}

/* An entry whose record says the compile did not succeed (skipped, or
 * failed: what no build stores) is not used; the source compiles. */
static void an_entry_not_compiled_is_not_used(void **state)
{
	char *dir = test_tmpdir("an_entry_not_compiled"), *src = test_format("%s/src", dir);
	char *cache = test_format("%s/cache", dir), *fresh = test_format("%s/fresh", dir);
	test_run run;

	(void)state;
	run = test_exec("sh", "-c", "mkdir -p \"$1/src\" && cp testdata/sample/Crane/Turn.Animation \"$1/src/AAAAA.Animation\"",
			"sh", dir, NULL);
	expect_ok(&run);
	test_run_release(&run);
	run = test_animc("build", "-q", "--cache-wait", "--cache-dir", cache, "--cache-min-size", "0", "-o", fresh, src,
			 NULL);
	expect_ok(&run);
	test_run_release(&run);
	for (int status = 1; status <= 2; status++) {
		char *copy = test_format("%s/cache%d", dir, status), *out = test_format("%s/out%d", dir, status);
		char *got = test_format("%s/AAAAA.xnb", out), *want = test_format("%s/AAAAA.xnb", fresh);
		char *edit = test_format("status:%d", status);

		run = test_exec("cp", "-a", cache, copy, NULL);
		expect_ok(&run);
		test_run_release(&run);
		edit_entry(copy, "AAAAA.xnb", edit);
		run = test_animc("build", "--progress", "never", "--cache-wait", "--cache-read-only", "--cache-dir", copy,
				 "--cache-min-size", "0", "-o", out, src, NULL);
		expect_ok(&run);
		if (!strstr(run.out, "compiled 1 source (1 clip), 0 failed, 0 skipped, 0 warnings\n") ||
		    strstr(run.out, "cached"))
			fail_msg("status %d: %s%s", status, run.out, run.err);
		test_run_release(&run);
		assert_true(test_same_bytes(got, want));
		free(edit), free(got), free(want), free(out), free(copy);
	}
	free(fresh), free(cache), free(src), free(dir);
}

/* An entry whose blob is another output of the same size (a source one
 * letter apart) is refused by its bytes, not only by its size. */
static void an_entry_of_other_bytes_of_one_size_is_not_used(void **state)
{
	char *dir = test_tmpdir("an_entry_of_other_bytes"), *src = test_format("%s/src", dir);
	char *cache = test_format("%s/cache", dir), *fresh = test_format("%s/fresh", dir);
	char *out = test_format("%s/out", dir), *got = test_format("%s/AAAAA.xnb", out);
	char *want = test_format("%s/AAAAA.xnb", fresh);
	test_run run;

	(void)state;
	run = test_exec("sh", "-c", "mkdir -p \"$1/src\" && cp testdata/sample/Crane/Turn.Animation \"$1/src/AAAAA.Animation\" && "
			"sed 's/<BoneName>Base</<BoneName>Bass</' testdata/sample/Crane/Turn.Animation > \"$1/src/CCCCC.Animation\"",
			"sh", dir, NULL);
	expect_ok(&run);
	test_run_release(&run);
	run = test_animc("build", "-q", "--cache-wait", "--cache-dir", cache, "--cache-min-size", "0", "-o", fresh, src,
			 NULL);
	expect_ok(&run);
	test_run_release(&run);
	char *c = test_format("%s/CCCCC.xnb", fresh);
	size_t a_size, c_size;
	uint8_t *a_bytes = test_read_file(want, &a_size), *c_bytes = test_read_file(c, &c_size);
	assert_int_equal(a_size, c_size);
	assert_memory_not_equal(a_bytes, c_bytes, a_size);
	free(a_bytes), free(c_bytes), free(c);
	edit_entry(cache, "AAAAA.xnb", "digest:CCCCC.xnb");
	run = test_animc("build", "--progress", "never", "--cache-wait", "--cache-read-only", "--cache-dir", cache,
			 "--cache-min-size", "0", "-o", out, src, NULL);
	expect_ok(&run);
	if (!strstr(run.err, "AAAAA.Animation: warning: the cache's entry for it holds other bytes for 'AAAAA.xnb' "
			     "than its compile made; not used, compiling instead [cache]\n"))
		fail_msg("%s%s", run.out, run.err);
	test_run_release(&run);
	assert_true(test_same_bytes(got, want));
	free(want), free(got), free(out), free(fresh), free(cache), free(src), free(dir);
}

/* The --skeleton model's bytes are part of the key: the same model edited
 * (to the same size) compiles again, where the unchanged one came from the
 * cache. */
static void a_skeleton_of_other_bytes_is_another_key(void **state)
{
	char *dir = test_tmpdir("a_skeleton_of_other_bytes"), *src = test_format("%s/src", dir);
	char *model = test_format("%s/Crane.x", dir), *cache = test_format("%s/cache", dir);
	char *outs[3] = { test_format("%s/o1", dir), test_format("%s/o2", dir), test_format("%s/o3", dir) };
	const char *want[3] = { "compiled 1 source (1 clip), 0 failed", "1 cached", "compiled 1 source (1 clip), 0 failed" };
	test_run run;

	(void)state;
	run = test_exec("sh", "-c", "mkdir -p \"$1/src\" && cp testdata/sample/Crane/Turn.Animation \"$1/src/\" && "
			"cp testdata/sample/Crane/Crane.x \"$1/\"", "sh", dir, NULL);
	expect_ok(&run);
	test_run_release(&run);
	for (int i = 0; i < 3; i++) {
		if (i == 2) {
			/* One digit of a bone's rest translation: the same size. */
			run = test_exec("sed", "-i", "15s/0\\.600000/0.700000/", model, NULL);
			expect_ok(&run);
			test_run_release(&run);
		}
		run = test_animc("build", "--progress", "never", "--cache-wait", "--cache-dir", cache, "--cache-min-size",
				 "0", "--skeleton", model, "-o", outs[i], src, NULL);
		expect_ok(&run);
		if (!strstr(run.out, want[i]) || (i != 1 && strstr(run.out, "cached")))
			fail_msg("build %d: %s%s", i + 1, run.out, run.err);
		test_run_release(&run);
		free(outs[i]);
	}
	free(cache), free(model), free(src), free(dir);
}

/* The same for an output of a clip (STEM/CLIP.xnb): an entry naming a
 * folder below it, a name with a leading dot, or a root motion's name with
 * more after .motion (STEM.motionXY.xnb, a file no compile writes), is
 * refused. */
static void an_edited_clip_entry_writes_nothing_it_names(void **state)
{
	char *dir = test_tmpdir("an_edited_clip_entry"), *src = test_format("%s/src", dir);
	char *cache = test_format("%s/cache", dir), *fresh = test_format("%s/fresh", dir);
	/* The clip Start renamed Starting: a name as long as the last's. */
	static const char *const names[][2] = {
		{ "Walker/Starting.xnb", "Walker/a/bcdefg.xnb" },
		{ "Walker/Starting.xnb", "Walker/.tarting.xnb" },
		{ "Walker/Starting.xnb", "Walker.motionXY.xnb" },
	};
	test_run run;

	(void)state;
	run = test_exec("sh", "-c", "mkdir -p \"$1/src\" && cp testdata/authoring/Walker.xml \"$1/src/\" && "
			"sed 's/<ClipName>Start</<ClipName>Starting</' testdata/authoring/Walker_Anims.xml > \"$1/src/Walker_Anims.xml\"",
			"sh", dir, NULL);
	expect_ok(&run);
	test_run_release(&run);
	run = test_animc("build", "-q", "--cache-wait", "--cache-dir", cache, "--cache-min-size", "0", "-o", fresh, src,
			 NULL);
	expect_ok(&run);
	test_run_release(&run);
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		char *copy = test_format("%s/cache%zu", dir, i), *out = test_format("%s/out%zu", dir, i);
		char *got = test_format("%s/%s", out, names[i][0]), *want = test_format("%s/%s", fresh, names[i][0]);
		char *said = test_format("names an output '%s' that it does not write; not used, compiling instead",
					 names[i][1]);

		run = test_exec("cp", "-a", cache, copy, NULL);
		expect_ok(&run);
		test_run_release(&run);
		edit_entry(copy, names[i][0], names[i][1]);
		run = test_animc("build", "--progress", "never", "--cache-wait", "--cache-read-only", "--cache-dir", copy,
				 "--cache-min-size", "0", "-o", out, src, NULL);
		expect_ok(&run);
		if (!strstr(run.err, said))
			fail_msg("%s: %s%s", names[i][1], run.out, run.err);
		test_run_release(&run);
		assert_true(test_same_bytes(got, want));
		free(said), free(got), free(want), free(out), free(copy);
	}
	free(fresh), free(cache), free(src), free(dir);
}

static double monotonic_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* A server that takes connections (the kernel's backlog) and never
 * answers: its URL; *fd closes it. */
static char *silent_server(int *fd)
{
	struct sockaddr_in addr = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof addr;

	*fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(*fd >= 0);
	assert_int_equal(bind(*fd, (struct sockaddr *)&addr, sizeof addr), 0);
	assert_int_equal(listen(*fd, 64), 0);
	assert_int_equal(getsockname(*fd, (struct sockaddr *)&addr, &len), 0);
	return test_format("http://127.0.0.1:%u", (unsigned)ntohs(addr.sin_port));
}

/* SIGTERM (a CI job's time-out) or Ctrl-C while a --cache-wait build
 * waits for a server that never answers: the build stops at once, says
 * so, and ends by the signal.  It waited out --cache-timeout (up to an
 * hour) first, and a CI runner's SIGKILL came before its reports. */
static void a_stop_ends_the_wait_for_a_silent_server(void **state)
{
	char *dir = test_tmpdir("a_stop_ends_the_wait"), *src = sample_sources(dir), *out = test_format("%s/out", dir);
	char *err_path = test_format("%s/err", dir);
	int fd;
	char *url = silent_server(&fd);

	(void)state;
	const int signals[] = { SIGTERM, SIGINT };
	for (size_t i = 0; i < 2; i++) {
		pid_t pid = fork();
		int status;

		assert_true(pid >= 0);
		if (pid == 0) {
			int err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
			int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

			dup2(null, 1);
			dup2(err, 2);
			execl(test_animc_path(), "animc", "build", "--cache-url", url, "--cache-wait", "--cache-timeout",
			      "300", "--cache-min-size", "0", "-o", out, src, (char *)NULL);
			_exit(127);
		}
		/* The lookups are made (connected, unanswered) once the
		 * running marker is there; then the stop. */
		for (int k = 0; k < 10000 && !test_has_running_marker(out); k++)
			usleep(1000);
		usleep(500000);
		double start = monotonic_s();
		assert_int_equal(kill(pid, signals[i]), 0);
		assert_int_equal(waitpid(pid, &status, 0), pid);
		/* Not the 300 s of --cache-timeout: a second or so. */
		double took = monotonic_s() - start;
		if (took > 60)
			fail_msg("stopped after %g s", took);
		assert_true(WIFSIGNALED(status) && WTERMSIG(status) == signals[i]);
		char *text = (char *)test_read_file(err_path, NULL);
		if (!strstr(text, signals[i] == SIGTERM ? "the build was stopped (SIGTERM) after 0 of "
							 : "the build was stopped (SIGINT) after 0 of ") ||
		    strstr(text, "answered none"))
			fail_msg("%s", text);
		free(text);
	}
	close(fd);
	free(url), free(err_path), free(out), free(src), free(dir);
}

/* A server that takes connections and never answers: the build compiles
 * everything, and says the cache answered nothing.  The files beside the
 * sources that no importer claims (notes, textures) are not looked up:
 * each cost a read, a hash and a round trip, and they were counted among
 * the lookups. */
static void a_silent_server_is_said(void **state)
{
	char *dir = test_tmpdir("a_silent_server_is_said"), *src = sample_sources(dir), *out = test_format("%s/out", dir);
	int fd;
	char *url = silent_server(&fd);
	test_run run;

	(void)state;
	char *note = test_format("%s/README.md", src), *texture = test_format("%s/Crane.png", src);
	static const uint8_t png[] = "\x89PNG\r\n\x1a\n\0\0\0\rIHDR";

	assert_true(test_write_file(note, (const uint8_t *)"# Crane\n", 8));
	assert_true(test_write_file(texture, png, sizeof png - 1));
	free(note), free(texture);
	run = test_animc("build", "--cache-url", url, "--cache-min-size", "0", "--cache-timeout", "30", "-o", out, src,
			 NULL);
	expect_ok(&run);
	if (!strstr(run.out, ", 0 failed, 2 skipped,"))
		fail_msg("%s", run.out);
	if (!strstr(run.err, "answered none of the 5 lookups made while the build ran"))
		fail_msg("%s", run.err);
	test_run_release(&run);
	close(fd);
	free(url), free(out), free(src), free(dir);
}

/* `animc build -q --cache-url URL --cache-timeout 3 --cache-min-size 0
 * ARGS... -o out SOURCE` from `dir`, its standard error into err_path: its
 * lookups wait out a server that never answers (URL), so that it saves
 * its manifest after a build run meanwhile.  Returns once the lookups are
 * made (the running marker is there, and a little more). */
static pid_t start_held_build(const char *dir, const char *url, const char *err_path, const char *const *args)
{
	char *animc = realpath(test_animc_path(), NULL), *out = test_format("%s/out", dir);
	pid_t pid;

	assert_non_null(animc);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* execv takes char *const[]: copies (the process execs or ends). */
		static const char *const head[] = { "animc", "build", "-q", "--cache-url", NULL, "--cache-timeout", "3",
						    "--cache-min-size", "0" };
		char *argv[24] = { NULL };
		int n = 0, err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

		for (size_t i = 0; i < sizeof head / sizeof *head; i++)
			argv[n++] = strdup(head[i] ? head[i] : url);
		for (size_t i = 0; args[i] && n < 22; i++)
			argv[n++] = strdup(args[i]);
		dup2(null, 1);
		dup2(err, 2);
		if (chdir(dir) != 0)
			_exit(126);
		execv(animc, argv);
		_exit(127);
	}
	for (int k = 0; k < 10000 && !test_has_running_marker(out); k++)
		usleep(1000);
	usleep(500000);
	free(out), free(animc);
	return pid;
}

/* The held build's end: its exit status 0, and no output-taken-over said. */
static void expect_held_build_ok(pid_t pid, const char *err_path)
{
	int status;

	assert_int_equal(waitpid(pid, &status, 0), pid);
	char *text = (char *)test_read_file(err_path, NULL);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || strstr(text, "output-taken-over"))
		fail_msg("status %d: %s", status, text);
	free(text);
}

/* A CMake rule (`--base /abs/src /abs/src/Wave.Animation`) and `animc watch`
 * or a folder build (`src`, from the project's folder) into one folder at
 * once: one source spelt two ways.  The build that saved second took the
 * other's record for another source's, said output-taken-over ("give one
 * another name"), and failed under --warnings-as-errors: also when the
 * source was deleted before it saved.  And where the two cut the source
 * into other parts, the other build's parts were recorded nowhere, so that
 * `animc clean` and --prune never found them. */
static void one_source_spelt_two_ways_at_once_is_one_source(void **state)
{
	char *dir = test_tmpdir("one_source_spelt_two_ways"), *src = sample_sources(dir);
	char *out = test_format("%s/out", dir), *err_path = test_format("%s/err", dir);
	char *wave = test_format("%s/Wave.Animation", src), *report = test_format("%s/r.json", dir);
	int fd;
	char *url = silent_server(&fd);
	char *whole_src = realpath(src, NULL), *whole_wave = realpath(wave, NULL);
	static const char *const folder[] = { "--warnings-as-errors", "--allow", "numbered-bones", "-o", "out", "src",
					      NULL };
	test_run run;

	(void)state;
	assert_true(whole_src && whole_wave);
	pid_t pid = start_held_build(dir, url, err_path, folder);
	run = test_animc("build", "-q", "--warnings-as-errors", "--base", whole_src, "-o", out, whole_wave, NULL);
	expect_ok(&run);
	test_run_release(&run);
	expect_held_build_ok(pid, err_path);
	/* One record of each source: up to date by either spelling. */
	char *statuses;
	run = test_animc("build", "-q", "--report", report, "--base", whole_src, "-o", out, whole_wave, NULL);
	expect_ok(&run);
	test_run_release(&run);
	statuses = report_statuses(report);
	assert_int_equal(count_word(statuses, "up-to-date"), 1);
	free(statuses);
	run = test_animc("build", "-q", "--warnings-as-errors", "--allow", "numbered-bones", "--report", report, "-o", out,
			 src, NULL);
	expect_ok(&run);
	test_run_release(&run);
	statuses = report_statuses(report);
	assert_int_equal(count_word(statuses, "up-to-date"), SAMPLE_COUNT);
	free(statuses);
	/* Cut into other parts at once: the other build's part is an orphan,
	 * which clean removes. */
	static const char *const parts[] = { "--split", "A=0:0.5", "--split", "B=0.5:1", "--base", "src", "-o", "out",
					     "src/Wave.Animation", NULL };
	pid = start_held_build(dir, url, err_path, parts);
	run = test_animc("build", "-q", "--split", "C=0.2:0.7", "--base", whole_src, "-o", out, whole_wave, NULL);
	expect_ok(&run);
	test_run_release(&run);
	expect_held_build_ok(pid, err_path);
	char *part_c = test_format("%s/Wave/C.xnb", out);
	assert_true(test_file_exists(part_c));
	run = test_animc("clean", "-o", out, NULL);
	expect_ok(&run);
	test_run_release(&run);
	assert_false(test_file_exists(part_c));
	/* The source deleted once both have read it, before the held build
	 * saves. */
	pid = start_held_build(dir, url, err_path, folder);
	run = test_animc("build", "-q", "--warnings-as-errors", "--base", whole_src, "-o", out, whole_wave, NULL);
	expect_ok(&run);
	test_run_release(&run);
	assert_int_equal(unlink(wave), 0);
	expect_held_build_ok(pid, err_path);
	close(fd);
	free(part_c), free(whole_wave), free(whole_src), free(url), free(report), free(wave), free(err_path), free(out),
		free(src), free(dir);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(a_silent_server_is_said),
	cmocka_unit_test(an_entry_of_another_source_is_not_used),
	cmocka_unit_test(an_edited_entry_writes_nothing_it_names),
	cmocka_unit_test(an_entry_not_compiled_is_not_used),
	cmocka_unit_test(an_entry_reads_no_dependency_through_a_link_out),
	cmocka_unit_test(an_entry_reads_no_dependency_through_a_folder_swapped_for_a_link),
	cmocka_unit_test(an_edited_clip_entry_writes_nothing_it_names),
	cmocka_unit_test(an_entry_under_another_key_is_not_used),
	cmocka_unit_test(an_entry_of_other_bytes_of_one_size_is_not_used),
	cmocka_unit_test(a_skeleton_of_other_bytes_is_another_key),
	cmocka_unit_test(a_stop_ends_the_wait_for_a_silent_server),
	cmocka_unit_test(one_source_spelt_two_ways_at_once_is_one_source),
	cmocka_unit_test_teardown(two_machines_share_a_remote, test_nginx_teardown),
	cmocka_unit_test(two_machines_share_a_folder),
	cmocka_unit_test_teardown(damaged_entry_compiles_again, test_nginx_teardown),
	cmocka_unit_test(small_own_format_sources_skip_the_cache),
	cmocka_unit_test_teardown(server_stopped_mid_build, test_nginx_teardown),
	cmocka_unit_test(shards_partition_a_build),
	cmocka_unit_test(shards_keep_sources_of_one_output_together),
};

ANIMC_TEST_GROUP(tests);
