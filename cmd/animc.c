/*
 * animc.c - the animc command line: the command table, global options and
 * help.  Each command lives in its own file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <animc/animc_formats.h>
#include <animc/animrt.h>
#include "cli.h"
#include "help.h"
#if __has_include(<build_id.h>)
#include <build_id.h>   /* made by the Makefile: the commit built from */
#endif
#ifndef ANIMC_BUILD_ID
#define ANIMC_BUILD_ID ""
#endif

static const animc_command *const commands[] = {
	&animc_cmd_build,
	&animc_cmd_outputs,
	&animc_cmd_clean,
	&animc_cmd_watch,
	&animc_cmd_dump,
	&animc_cmd_sample,
	&animc_cmd_batch,
	&animc_cmd_plot,
	NULL,
};

static void print_usage(FILE *out)
{
	fprintf(out,
		"usage: animc <command> [options] [args]\n"
		"\n"
		"animc compiles skeletal animation sources (RobotGame .Animation XML, XNA\n"
		"intermediate XML, glTF 2.0, and .X, FBX, BVH and the rest Assimp reads) into\n"
		"RobotGame-layout XNB files that XNA, FNA and MonoGame load, and inspects and\n"
		"samples what it wrote.  'animc help build' lists the importers.\n"
		"\n"
		"commands:\n");
	for (size_t i = 0; commands[i]; i++) {
		char label[32];

		snprintf(label, sizeof label, "  %s", commands[i]->name);
		build_help_row(out, label, commands[i]->summary, 11);
	}
	fprintf(out,
		"  help     show help for a command: animc help build\n"
		"\n"
		"options:\n"
		"  -h, --help     show this help\n"
		"  --version      show the version\n"
		"\n"
		"exit status: 0 all done, 1 some input failed (the rest was still done) or\n"
		"standard output could not be written, 2 usage error (nothing done).\n");
}

static const animc_command *find_command(const char *name)
{
	for (size_t i = 0; commands[i]; i++)
		if (strcmp(commands[i]->name, name) == 0)
			return commands[i];
	return NULL;
}

/* The usage error for a word that is no command, first (command NULL) or
 * after help (command "help", whose error and hint it is): one that starts
 * with '-' is an option, and a near miss says what it may mean. */
static int unknown_word(const char *command, const char *word)
{
	static const char *const options[] = { "--help", "--version", NULL };
	const char *names[sizeof commands / sizeof commands[0] + 2], *near;
	size_t n = 0;

	if (word[0] == '-') {
		near = cli_nearest(word, options);
		if (near && strcmp(near, word) != 0)
			return cli_usage_error(command, "unknown option '%s' (did you mean '%s'?)", word, near);
		return cli_usage_error(command, "unknown option '%s'", word);
	}
	for (size_t i = 0; commands[i]; i++)
		names[n++] = commands[i]->name;
	names[n++] = "help";
	names[n] = NULL;
	near = cli_nearest(word, names);
	if (near && strcmp(near, word) != 0)
		return cli_usage_error(command, "no command '%s' (did you mean '%s'?)", word, near);
	return cli_usage_error(command, "no command '%s'", word);
}

/* `animc help --markdown`, `--man` or `--completion`: the whole text at
 * once, so that a failed write keeps its reason. */
static int write_doc(build_doc_format format)
{
	char *text = NULL;
	size_t size = 0;
	FILE *mem = open_memstream(&text, &size);
	bool put;

	if (!mem) {
		build_doc_write(stdout, format, commands, print_usage);
		return ANIMC_EXIT_OK;   /* main checks that it was written */
	}
	build_doc_write(mem, format, commands, print_usage);
	put = fclose(mem) == 0 && cli_stdout_put("help", text, size);
	free(text);
	return put ? ANIMC_EXIT_OK : ANIMC_EXIT_FAILED;
}

/* `animc --version` (or `version`, or `help` of either). */
static void print_version(void)
{
	printf("animc %s%s%s (loader %d.%d.%d, zstd %s)\n", ANIMC_VERSION_STRING, ANIMC_BUILD_ID[0] ? " " : "",
	       ANIMC_BUILD_ID, ANIMRT_VERSION_MAJOR, ANIMRT_VERSION_MINOR, ANIMRT_VERSION_PATCH,
	       animrt_has_zstd() ? "yes" : "no");
}

/* `animc help [TOPIC]`: one topic, as a command takes its arguments; a
 * word after it is a usage error rather than left unread (`help dump
 * --markdown` printed the terminal help, exit 0). */
static int run_help(int argc, char **argv)
{
	const animc_command *cmd;

	if (argc < 3)
		return cli_stdout_help("help", print_usage) ? ANIMC_EXIT_OK : ANIMC_EXIT_FAILED;
	if (argc > 3)
		return cli_usage_error("help", "'%s' after '%s': give one command (animc help COMMAND)", argv[3],
				       argv[2]);
	/* The usage lists --version beside --help: its help is the version. */
	if (strcmp(argv[2], "--version") == 0 || strcmp(argv[2], "version") == 0) {
		print_version();
		return ANIMC_EXIT_OK;
	}
	/* Not listed: `make docs` writes docs/cli.md, docs/animc.1 and
	 * docs/animc.bash-completion with these. */
	if (strcmp(argv[2], "--markdown") == 0 || strcmp(argv[2], "--man") == 0 ||
	    strcmp(argv[2], "--completion") == 0)
		return write_doc(argv[2][2] == 'm' && argv[2][3] == 'a' && argv[2][4] == 'r' ? BUILD_DOC_MARKDOWN
				 : argv[2][3] == 'a' ? BUILD_DOC_MAN : BUILD_DOC_COMPLETION);
	/* help is a command too: its help is the usage. */
	if (strcmp(argv[2], "help") == 0 || strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0)
		return cli_stdout_help("help", print_usage) ? ANIMC_EXIT_OK : ANIMC_EXIT_FAILED;
	cmd = find_command(argv[2]);
	if (!cmd)
		return unknown_word("help", argv[2]);
	return cli_stdout_help("help", cmd->help) ? ANIMC_EXIT_OK : ANIMC_EXIT_FAILED;
}

/* A command's status, made a failure when what it printed on standard
 * output could not be written (said, naming the command). */
static int finish(const char *command, int status)
{
	if (!cli_stdout_flush(command) && status == ANIMC_EXIT_OK)
		status = ANIMC_EXIT_FAILED;
	return status;
}

/*
 * A standard descriptor the caller closed (`animc build >&-`) would go to
 * the first file animc opens, and its output into that file: a build's
 * summary went into its lock file, and the build exited 0.  Each closed
 * one gets /dev/null opened the other way (standard input for writing,
 * the others for reading), so that using it fails as on a closed one
 * (the error is said, and the status is 1) and no file takes its place.
 */
static void hold_standard_descriptors(void)
{
	for (int fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) == -1 && errno == EBADF) {
			int got = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);

			if (got >= 0 && got != fd)
				close(got);
		}
}

/*
 * The standard error is unbuffered, and a diagnostic is printed a piece
 * (a character of a name) at a time: every piece was a write of its own,
 * and builds sharing one stderr (make -j running a rule per file, CI jobs
 * side by side) had the letters of one's warning land inside another's.
 * Line-buffered, each line is one write.  (Processes animc starts, whose
 * stderr is captured or may end in a crash, set theirs unbuffered again.)
 */
static void write_stderr_a_line_at_a_time(void)
{
	static char buffer[BUFSIZ];

	setvbuf(stderr, buffer, _IOLBF, sizeof buffer);
}

int main(int argc, char **argv)
{
	const animc_command *cmd;

	hold_standard_descriptors();
	write_stderr_a_line_at_a_time();
	if (argc < 2) {
		print_usage(stderr);
		return ANIMC_EXIT_USAGE;
	}
	/* `animc --help build` is `animc help build`; a word after --version
	 * was left unread. */
	if (argc > 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
		argv[1] = (char *)"help";
		return finish("help", run_help(argc, argv));
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		return finish(NULL, cli_stdout_help(NULL, print_usage) ? ANIMC_EXIT_OK : ANIMC_EXIT_FAILED);
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
		if (argc > 2)
			return cli_usage_error(NULL, "'%s' after '%s': it takes no argument", argv[2], argv[1]);
		print_version();
		return finish(NULL, ANIMC_EXIT_OK);
	}
	if (strcmp(argv[1], "help") == 0)
		return finish("help", run_help(argc, argv));
	cmd = find_command(argv[1]);
	if (!cmd)
		return unknown_word(NULL, argv[1]);
	return finish(cmd->name, cmd->run(argc - 1, argv + 1));
}
