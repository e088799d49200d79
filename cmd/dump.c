/*
 * dump.c - `animc dump`: prints a compiled file through the loader library,
 * as the JSON view of FORMAT.md section 4 or as a table.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <string.h>

#include <animc/animrt.h>
#include "cli.h"

static void help(FILE *out)
{
	fprintf(out,
		"usage: animc dump [--json] [--reader-name NAME] FILE\n"
		"\n"
		"Check a compiled file (.xnb or .xnb.zst) with the animc loader and print it:\n"
		"a table by default (per bone: keys, flags, duration), or with --json the JSON\n"
		"view of FORMAT.md section 4 (floats print as the shortest text that reads\n"
		"back as the same float32).  Control characters in names are escaped in the\n"
		"table (\\n, \\x1b, ...).\n"
		"\n"
		"The file's type reader must be an animation reader: one whose type name ends\n"
		"in AnimationReader (the original RobotGame reader does), or one given with\n"
		"--reader-name.  Other XNA content (textures, fonts, ...) is refused, naming\n"
		"its reader.\n"
		"\n"
		"options:\n"
		"  --json              print JSON\n"
		"  --reader-name NAME  also take files whose type reader is NAME, whole or its\n"
		"                      type part (before the first comma); repeatable\n"
		"  -h, --help          show this help\n"
		"\n"
		"exit status: 0 printed, 1 the file is unreadable or damaged (the message names\n"
		"the byte offset), 2 usage error.\n");
}

static void print_json(const animrt_clip *clip)
{
	const animrt_container *c = &clip->container;

	printf("{\n  \"container\": {\"format\": \"xnb\", \"platform\": ");
	json_string(stdout, (char[]){ c->platform, '\0' });
	printf(", \"version\": %u, \"flags\": %u,\n                \"reader\": ", c->format_version,
	       c->flags);
	json_string(stdout, c->reader);
	printf(",\n                \"reader_version\": %d, \"shared_resources\": %u, "
	       "\"compression\": \"%s\"},\n",
	       c->reader_version, c->shared_resources, c->is_zstd ? "zstd" : "none");
	printf("  \"duration\": ");
	json_float(stdout, clip->duration_s);
	printf(",\n  \"sequences\": [");
	for (uint32_t i = 0; i < clip->sequence_count; i++) {
		const animrt_sequence *s = &clip->sequences[i];

		printf("%s\n    {\"bone\": ", i ? "," : "");
		json_string(stdout, s->bone);
		printf(", \"key_count\": %u, \"duration\": ", s->key_count);
		json_float(stdout, s->duration_s);
		printf(", \"key_interval\": ");
		json_float(stdout, s->key_interval_s);
		printf(",\n     \"has\": {\"translation\": %s, \"rotation\": %s, \"scale\": %s, "
		       "\"time\": %s},\n",
		       s->has_translation ? "true" : "false", s->has_rotation ? "true" : "false",
		       s->has_scale ? "true" : "false", s->has_time ? "true" : "false");
		printf("     \"fixed\": {\"translation\": %s, \"rotation\": %s, \"scale\": %s},\n",
		       s->is_fixed_translation ? "true" : "false", s->is_fixed_rotation ? "true" : "false",
		       s->is_fixed_scale ? "true" : "false");
		printf("     \"translation\": ");
		json_floats(stdout, s->translation, s->translation_count, 3);
		printf(",\n     \"rotation\": ");
		json_floats(stdout, s->rotation, s->rotation_count, 4);
		printf(",\n     \"scale\": ");
		json_floats(stdout, s->scale, s->scale_count, 3);
		printf(",\n     \"time\": ");
		json_floats(stdout, s->times_s, s->time_count, 1);
		printf("}");
	}
	printf("%s]\n}\n", clip->sequence_count ? "\n  " : "");
}

static const char *track_state(bool has, bool fixed)
{
	return !has ? "-" : fixed ? "fixed" : "keys";
}

static void print_table(const char *path, const animrt_clip *clip)
{
	const animrt_container *c = &clip->container;
	char duration[32], interval[32];

	cli_print_escaped(stdout, path, 0);
	printf(": XNB v%u, platform '%c', %u bytes%s\n", c->format_version, c->platform,
	       c->file_size_bytes, c->is_zstd ? " (in a zstd frame)" : "");
	printf("reader: ");
	cli_print_escaped(stdout, c->reader, 0);
	printf(" (version %d)\n", c->reader_version);
	cli_format_float(clip->duration_s, duration, sizeof duration);
	printf("duration: %s s, %u sequences\n\n", duration, clip->sequence_count);
	printf("  %-24s %6s %9s %9s  %-7s %-6s %-6s %-6s\n", "bone", "keys", "duration", "interval",
	       "time", "trans", "rot", "scale");
	for (uint32_t i = 0; i < clip->sequence_count; i++) {
		const animrt_sequence *s = &clip->sequences[i];

		cli_format_float(s->duration_s, duration, sizeof duration);
		cli_format_float(s->key_interval_s, interval, sizeof interval);
		printf("  ");
		cli_print_escaped(stdout, s->bone, 24);
		printf(" %6u %9s %9s  %-7s %-6s %-6s %-6s\n", s->key_count, duration,
		       s->has_time ? "-" : interval, s->has_time ? "times" : "uniform",
		       track_state(s->has_translation, s->is_fixed_translation),
		       track_state(s->has_rotation, s->is_fixed_rotation),
		       track_state(s->has_scale, s->is_fixed_scale));
	}
}

static int run(int argc, char **argv)
{
	static const struct option options[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "reader-name", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	cli_readers readers = { 0 };
	bool json = false;
	animrt_clip *clip;
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", options, NULL)) != -1) {
		if (c == 'j') {
			json = true;
		} else if (c == 'n') {
			if (!cli_readers_add(&readers, "dump", optarg))
				return ANIMC_EXIT_USAGE;
		} else if (c == 'h') {
			help(stdout);
			return ANIMC_EXIT_OK;
		} else if (c == ':') {
			return cli_usage_error("dump", "option '%s' needs a value", argv[optind - 1]);
		} else {
			return cli_usage_error("dump", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (argc - optind != 1)
		return cli_usage_error("dump", "give exactly one compiled file");
	clip = cli_clip_open(argv[optind], &readers);
	if (!clip)
		return ANIMC_EXIT_FAILED;
	if (json)
		print_json(clip);
	else
		print_table(argv[optind], clip);
	animrt_close(clip);
	return ANIMC_EXIT_OK;
}

const animc_command animc_cmd_dump = {
	.name = "dump",
	.summary = "check a compiled file and print it: animc dump [--json] FILE",
	.run = run,
	.help = help,
};
