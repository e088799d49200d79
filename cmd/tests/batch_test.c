/*
 * batch_test.c - `animc batch` reads lines typed with spaces as a person
 * would type them, when that is unambiguous, and says that fields are
 * separated by tabs when it is not.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_support.h"

#define UNIFORM "testdata/loader/uniform.xnb"

/* `animc batch ARGS...` with `text` on standard input. */
static test_run batch_with(const char *dir, const char *text, const char *const *args)
{
	char *in = test_format("%s/requests.txt", dir);
	const char *argv[24] = { test_animc_path(), "batch" };

	for (size_t i = 0; args && args[i]; i++) {
		assert_true(i < 21);
		argv[2 + i] = args[i];
	}

	assert_true(test_write_file(in, text, strlen(text)));
	test_run r = test_execv_stdin(argv, in);
	free(in);
	return r;
}

static test_run batch(const char *dir, const char *text)
{
	return batch_with(dir, text, NULL);
}

static void batch_takes_words_separated_by_spaces(void **state)
{
	(void)state;
	char *dir = test_tmpdir("batch-spaces");
	test_run tabs = batch(dir, "sample\t--time\t0.5\t" UNIFORM "\ndump\t" UNIFORM "\n");
	test_run spaces = batch(dir, "sample --time 0.5 " UNIFORM "\ndump   " UNIFORM "\n");

	assert_int_equal(tabs.status, 0);
	assert_int_equal(spaces.status, 0);
	assert_string_equal(spaces.out, tabs.out);
	assert_string_equal(spaces.err, "");
	test_run_release(&tabs);
	test_run_release(&spaces);
	free(dir);
}

static void batch_says_fields_are_separated_by_tabs(void **state)
{
	(void)state;
	char *dir = test_tmpdir("batch-tabs");
	char *spaced = test_format("%s/a walk.xnb", dir);
	size_t size;
	uint8_t *bytes = test_read_file(UNIFORM, &size);

	assert_true(test_write_file(spaced, bytes, size));
	/* Tabs and spaces mixed: the first field is not a command. */
	test_run mixed = batch(dir, "sample --time\t0.5\t" UNIFORM "\n");
	assert_int_equal(mixed.status, 1);
	assert_string_equal(mixed.out, "");
	assert_string_equal(mixed.err, "<stdin>:1: error: 'sample --time' is not a command a batch runs (dump, "
			    "sample); the words of a line are separated by tabs\n");
	test_run_release(&mixed);
	/* A file name with a space on a line without tabs cannot be told from
	 * two words: the line fails, saying how to write it... */
	char *text = test_format("dump %s\n", spaced);
	test_run ambiguous = batch(dir, text);
	assert_int_equal(ambiguous.status, 1);
	assert_string_equal(ambiguous.out, "");
	assert_string_equal(ambiguous.err, "<stdin>:1: error: dump: give exactly one compiled file; the line has no "
			    "tabs, so its words were split at spaces: separate them by tabs, as a file name "
			    "here has a space\n");
	test_run_release(&ambiguous);
	free(text);
	/* ...and with a tab it is read. */
	text = test_format("dump\t%s\n", spaced);
	test_run tabbed = batch(dir, text);
	assert_int_equal(tabbed.status, 0);
	assert_non_null(strstr(tabbed.out, "a walk.xnb: XNB v5"));
	test_run_release(&tabbed);
	free(text);
	/* A damaged file or a bad value: no word about tabs; blank lines are
	 * skipped.  One line per failure, leading with the input's line: no
	 * "Try 'animc help sample'", no exit status. */
	char *damaged = test_format("%s/damaged.xnb", dir);
	assert_true(test_write_file(damaged, bytes, 100));
	text = test_format("sample --time 0.5 %s\n   \n\t\nsample --time nan " UNIFORM "\n", damaged);
	test_run other = batch(dir, text);
	char *want = test_format("<stdin>:1: error: sample: %s: byte 6: the header says the file is %zu bytes, it is "
				 "100\n<stdin>:4: error: sample: --time 'nan' is not a finite number of seconds\n",
				 damaged, size);
	assert_int_equal(other.status, 1);
	assert_string_equal(other.err, want);
	test_run_release(&other);
	free(want);
	free(text);
	free(damaged);
	free(bytes);
	free(spaced);
	free(dir);
}

/* A line whose option cluster fails part way (-xh: -x unknown) leaves
 * nothing behind for the next lines: each parses as it would alone. */
static void batch_lines_after_a_bad_option_cluster_parse_alone(void **state)
{
	(void)state;
	char *dir = test_tmpdir("batch-getopt");
	test_run alone = batch(dir, "dump\t--json\t" UNIFORM "\nsample --time 0 " UNIFORM "\n");
	test_run after = batch(dir, "dump\t-xh\t" UNIFORM "\ndump\t--json\t" UNIFORM "\nsample --time 0 " UNIFORM
			       "\ndump -xh " UNIFORM "\ndump\t-hj\t" UNIFORM "\ndump " UNIFORM "\n");
	test_run table = test_animc("dump", UNIFORM, NULL);
	test_run help = test_animc("dump", "--help", NULL);

	assert_int_equal(alone.status, 0);
	assert_int_equal(after.status, 1);
	char *want = test_format("%s%s%s", alone.out, help.out, table.out);
	assert_string_equal(after.out, want);
	assert_string_equal(after.err, "<stdin>:1: error: dump: unknown option '-x' (in '-xh')\n"
			    "<stdin>:4: error: dump: unknown option '-x' (in '-xh')\n");
	free(want);
	test_run_release(&alone);
	test_run_release(&after);
	test_run_release(&table);
	test_run_release(&help);
	free(dir);
}

/* batch's own arguments parse as dump's and sample's do, and a bad one is a
 * usage error before any line runs. */
static void batch_checks_its_own_arguments_first(void **state)
{
	(void)state;
	char *dir = test_tmpdir("batch-args");
	const char *line = "dump " UNIFORM "\n";
	test_run alone = test_animc("dump", UNIFORM, NULL);
	const char *const forms[][4] = { { "--reader-name=Foo", NULL }, { "--", NULL }, { "--reader-name", "Foo", "--" } };

	for (size_t i = 0; i < 3; i++) {
		test_run r = batch_with(dir, line, forms[i]);

		assert_int_equal(r.status, 0);
		assert_string_equal(r.out, alone.out);
		test_run_release(&r);
	}
	const char *empty[] = { "--reader-name", "", NULL };
	test_run r = batch_with(dir, line, empty);
	assert_int_equal(r.status, 2);
	assert_string_equal(r.out, "");
	assert_string_equal(r.err, "animc batch: --reader-name is empty\nTry 'animc help batch'.\n");
	test_run_release(&r);

	/* One --reader-name too many: said once, before any line. */
	const char *argv[40] = { test_animc_path(), "batch" };
	for (int i = 0; i < 17; i++) {
		argv[2 + 2 * i] = "--reader-name";
		argv[3 + 2 * i] = "X";
	}
	char *in = test_format("%s/requests.txt", dir);
	r = test_execv_stdin(argv, in);
	assert_int_equal(r.status, 2);
	assert_string_equal(r.out, "");
	assert_string_equal(r.err, "animc batch: more than 16 --reader-name options\nTry 'animc help batch'.\n");
	test_run_release(&r);
	free(in);
	test_run_release(&alone);
	free(dir);
}

/* Standard input that cannot be read is an error, not an empty batch. */
static void batch_fails_when_standard_input_cannot_be_read(void **state)
{
	(void)state;
	const char *argv[] = { test_animc_path(), "batch", NULL };
	test_run r = test_execv_stdin(argv, "testdata");

	assert_int_equal(r.status, 1);
	assert_string_equal(r.err, "animc batch: error: cannot read standard input: Is a directory\n");
	test_run_release(&r);
	r = test_exec("sh", "-c", "exec \"$0\" batch <&-", test_animc_path(), NULL);
	assert_int_equal(r.status, 1);
	assert_string_equal(r.err, "animc batch: error: cannot read standard input: Bad file descriptor\n");
	test_run_release(&r);
}

/* Blanks before the command and tabs after the last word make no words. */
static void batch_ignores_blanks_around_a_line(void **state)
{
	(void)state;
	char *dir = test_tmpdir("batch-blanks");
	test_run alone = test_animc("dump", UNIFORM, NULL);
	const char *lines[] = { "  dump " UNIFORM "\n", "dump\t" UNIFORM "\t\n", "\tdump\t" UNIFORM "\t\t\r\n",
				" \t dump " UNIFORM " \n" };

	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
		test_run r = batch(dir, lines[i]);

		if (r.status != 0)
			fail_msg("line %zu: exit %d, stderr: %s", i, r.status, r.err);
		assert_string_equal(r.out, alone.out);
		assert_string_equal(r.err, "");
		test_run_release(&r);
	}
	test_run_release(&alone);
	free(dir);
}

/* The bytes process `pid` has read so far (its rchar: files, pipes). */
static unsigned long long bytes_read_by(pid_t pid)
{
	char *path = test_format("/proc/%d/io", (int)pid);
	FILE *f = fopen(path, "r");
	unsigned long long n = 0;
	char line[128];

	assert_non_null(f);
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "rchar: %llu", &n) == 1)
			break;
	fclose(f);
	free(path);
	return n;
}

/* Write `lines` to the batch, then a line naming no file, and wait for its
 * error (<stdin>:N:) on the batch's standard error: every line before it
 * is done. */
static void run_lines(int in_fd, int err_fd, const char *lines, unsigned long number)
{
	char *text = test_format("%sdump\tno-such.xnb\n", lines), *mark = test_format("<stdin>:%lu:", number);
	char said[8192];
	size_t len = 0;
	ssize_t n;

	assert_int_equal(write(in_fd, text, strlen(text)), (ssize_t)strlen(text));
	said[0] = '\0';
	while (!strstr(said, mark) && len < sizeof said - 1 && (n = read(err_fd, said + len, sizeof said - 1 - len)) > 0)
		said[len += (size_t)n] = '\0';
	assert_non_null(strstr(said, mark));
	free(text), free(mark);
}

/* Lines naming one file read it once while it is unchanged (a large clip
 * costs its load once, not per line), and again once it changed. */
static void batch_reads_a_file_again_only_once_it_changed(void **state)
{
	char *dir = test_tmpdir("batch-kept"), *clip = test_format("%s/take.xnb", dir);
	char *out_path = test_format("%s/out.txt", dir), *line = test_format("sample\t--time\t0.5\t%s\n", clip);
	char *many = calloc(40, strlen(line) + 1), *out;
	uint8_t *bytes;
	size_t size, out_size;
	int in[2], err[2];

	(void)state;
	assert_non_null(many);
	assert_non_null(bytes = test_read_file("testdata/loader/sway.compact.xnb", &size));
	assert_true(test_write_file(clip, bytes, size));
	free(bytes);
	for (int i = 0; i < 40; i++)
		strcat(many, line);
	assert_int_equal(pipe(in), 0);
	assert_int_equal(pipe(err), 0);
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		int out_fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		dup2(in[0], 0), dup2(out_fd, 1), dup2(err[1], 2);
		close(in[1]), close(err[0]);
		execl(test_animc_path(), test_animc_path(), "batch", (char *)NULL);
		_exit(127);
	}
	close(in[0]), close(err[1]);
	run_lines(in[1], err[0], line, 2);
	unsigned long long before = bytes_read_by(pid);
	run_lines(in[1], err[0], many, 43);
	unsigned long long after = bytes_read_by(pid);
	/* The 40 lines themselves, not 40 times the file. */
	if (after - before > strlen(many) + 4 * size)
		fail_msg("40 lines read %llu bytes: the %zu-byte clip again for each", after - before, size);
	/* Changed, it is read again: the last line samples the new clip. */
	assert_non_null(bytes = test_read_file(UNIFORM, &size));
	assert_true(test_write_file(clip, bytes, size));
	free(bytes);
	run_lines(in[1], err[0], line, 45);
	close(in[1]), close(err[0]);
	waitpid(pid, NULL, 0);
	assert_non_null(out = (char *)test_read_file(out_path, &out_size));
	test_run fresh = test_animc("sample", "--time", "0.5", clip, NULL);
	assert_true(out_size > strlen(fresh.out));
	assert_memory_equal(out + out_size - strlen(fresh.out), fresh.out, strlen(fresh.out));
	test_run_release(&fresh);
	free(out), free(many), free(line), free(out_path), free(clip), free(dir);
}

/* dump and sample read a pipe to its end; under batch, the pipe on
 * standard input holds the next lines, and a line naming it (dump
 * /dev/stdin) is refused rather than taking them. */
static void batch_does_not_read_its_own_lines_as_a_file(void **state)
{
	test_run r;

	(void)state;
	setenv("ANIMC", test_animc_path(), 1);
	r = test_exec("sh", "-c", "printf 'dump /dev/stdin\\ndump " UNIFORM "\\n' | \"$ANIMC\" batch", NULL);
	unsetenv("ANIMC");
	if (r.status != 1 || !strstr(r.out, UNIFORM ": XNB v5") ||
	    !strstr(r.err, "<stdin>:1: error: dump: /dev/stdin: is the standard input, which holds batch's lines; not "
			   "read\n"))
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
	test_run_release(&r);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(batch_does_not_read_its_own_lines_as_a_file),
	cmocka_unit_test(batch_reads_a_file_again_only_once_it_changed),
	cmocka_unit_test(batch_takes_words_separated_by_spaces),
	cmocka_unit_test(batch_says_fields_are_separated_by_tabs),
	cmocka_unit_test(batch_lines_after_a_bad_option_cluster_parse_alone),
	cmocka_unit_test(batch_checks_its_own_arguments_first),
	cmocka_unit_test(batch_fails_when_standard_input_cannot_be_read),
	cmocka_unit_test(batch_ignores_blanks_around_a_line),
};

ANIMC_TEST_GROUP(tests);
