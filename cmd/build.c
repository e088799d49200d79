/*
 * build.c - the commands `animc build`, `animc outputs` and `animc clean`:
 * their arguments (the option table of lib/build/options.c), then the
 * engine (lib/build/engine.h) runs them.
 */
#include "build.h"

static int run_command(build_command command, void (*help)(FILE *out), int argc, char **argv)
{
	build_options o;
	int status = build_options_parse(&o, command, argc, argv);

	if (status == 0)
		status = build_engine_run(command, &o);
	else if (status < 0) {
		help(stdout);
		status = ANIMC_EXIT_OK;
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
