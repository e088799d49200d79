/*
 * build.c - the commands `animc build`, `animc outputs` and `animc clean`:
 * their arguments (the option table of lib/build/options.c), then the
 * engine (lib/build/engine.h) runs them.
 */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "build.h"

/* A report named "-" takes the standard output for itself; what the build
 * says there (progress, summary) goes to stderr.  False (said) when there
 * is none to write to: the caller closed it, and main holds it open for
 * reading only (hold_standard_descriptors). */
static bool set_stdout_aside(build_options *o)
{
	const char *const paths[] = { o->report_path, o->junit_path, o->depfile_path };
	static const char *const names[] = { "--report", "--junit", "--depfile" };
	int flags;

	for (size_t i = 0; i < 3; i++) {
		if (!paths[i] || strcmp(paths[i], "-") != 0)
			continue;
		flags = fcntl(STDOUT_FILENO, F_GETFL);
		if (flags == -1 || (flags & O_ACCMODE) == O_RDONLY) {
			cli_usage_error("build",
					"%s -: the standard output is not open for writing", names[i]);
			return false;
		}
		fflush(stdout);
		o->report_stdout_fd = dup(STDOUT_FILENO);
		if (o->report_stdout_fd >= 0)
			dup2(STDERR_FILENO, STDOUT_FILENO);
		return true;
	}
	return true;
}

static int run_command(build_command command, void (*help)(FILE *out), int argc, char **argv)
{
	build_options o;
	int status = build_options_parse(&o, command, argc, argv);

	if (status == 0 && !set_stdout_aside(&o))
		status = ANIMC_EXIT_USAGE;
	if (status == 0) {
		status = build_engine_run(command, &o);
		if (o.report_stdout_fd >= 0)
			close(o.report_stdout_fd);
	}
	else if (status < 0) {
		status = cli_stdout_help(command == CMD_BUILD ? "build" : command == CMD_OUTPUTS ? "outputs" : "clean",
					 help) ? ANIMC_EXIT_OK : ANIMC_EXIT_FAILED;
	}
	build_options_release(&o);
	return status;
}

static int run_build(int argc, char **argv)
{
	return run_command(CMD_BUILD, build_help, argc, argv);
}

static int run_outputs(int argc, char **argv)
{
	return run_command(CMD_OUTPUTS, build_outputs_help, argc, argv);
}

static int run_clean(int argc, char **argv)
{
	return run_command(CMD_CLEAN, build_clean_help, argc, argv);
}

const animc_command animc_cmd_build = {
	.name = "build",
	.summary = "compile sources into .xnb files: animc build -o OUTDIR INPUT...",
	.run = run_build,
	.help = build_help,
};

const animc_command animc_cmd_outputs = {
	.name = "outputs",
	.summary = "list the files a build would write: animc outputs -o OUTDIR INPUT...",
	.run = run_outputs,
	.help = build_outputs_help,
};

const animc_command animc_cmd_clean = {
	.name = "clean",
	.summary = "remove what builds wrote into a folder: animc clean -o OUTDIR",
	.run = run_clean,
	.help = build_clean_help,
};
