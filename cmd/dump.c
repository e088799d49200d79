/*
 * dump.c - `animc dump`: prints a compiled file through the loader library,
 * as the JSON view of FORMAT.md section 4 or as a table.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <animc/animrt.h>
#include "cli.h"
#include "table.h"

static void help(FILE *out)
{
	fprintf(out,
		"usage: animc dump [--json] [--reader-name NAME] FILE\n"
		"\n"
		"Check a compiled file (.xnb or .xnb.zst) with the animc loader and print it:\n"
		"a table by default (per bone: keys, flags, duration), or with --json the JSON\n"
		"view of FORMAT.md section 4 (floats print as the shortest text that reads\n"
		"back as the same float32).  Control characters in names are escaped in the\n"
		"table (\\n, \\x1b, ...).  Compact files (--layout compact, reader version 3)\n"
		"print each track as absent, constant or its keys, decoded (section 7).\n"
		"FILE may be a pipe (<(zstd -dc F.xnb.zst), /dev/stdin), read to its end as\n"
		"a file is; a folder, a socket or an empty file is refused.\n"
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

/* A compact clip's track in the JSON view of FORMAT.md section 7. */
static void print_compact_track(const animrt_clip *clip, uint32_t seq, unsigned track, bool has,
				const float *constant)
{
	unsigned width = track == ANIMRT_ROTATION ? 4 : 3;
	uint32_t n = animrt_track_keys(clip, seq, track, 0, 0, NULL, NULL);

	if (!has) {
		printf("{\"kind\": \"absent\"}");
		return;
	}
	if (!n) {
		printf("{\"kind\": \"constant\", \"value\": ");
		json_floats(stdout, constant, 1, width);
		printf("}");
		return;
	}
	float *times = malloc(n * sizeof *times), *values = malloc((size_t)n * width * sizeof *values);
	if (!times || !values) {
		free(times);
		free(values);
		printf("{\"kind\": \"keys\", \"keys\": null}");
		return;
	}
	animrt_track_keys(clip, seq, track, 0, n, times, values);
	printf("{\"kind\": \"keys\", \"keys\": [");
	for (uint32_t k = 0; k < n; k++) {
		printf("%s[", k ? ", " : "");
		json_float(stdout, times[k]);
		for (unsigned c = 0; c < width; c++) {
			printf(", ");
			json_float(stdout, values[(size_t)k * width + c]);
		}
		printf("]");
	}
	printf("]}");
	free(times);
	free(values);
}

static void print_compact_json(const animrt_clip *clip)
{
	printf("  \"layout\": \"compact\", \"grid\": {\"rate\": ");
	json_float(stdout, clip->grid_rate_hz);
	printf(", \"samples\": %u},\n", clip->grid_sample_count);
	if (clip->is_additive)
		printf("  \"additive\": true,\n");
	printf("  \"sequences\": [");
	for (uint32_t i = 0; i < clip->sequence_count; i++) {
		const animrt_sequence *s = &clip->sequences[i];

		printf("%s\n    {\"bone\": ", i ? "," : "");
		json_string(stdout, s->bone);
		printf(",\n     \"translation\": ");
		print_compact_track(clip, i, ANIMRT_TRANSLATION, s->has_translation, s->translation);
		printf(",\n     \"rotation\": ");
		print_compact_track(clip, i, ANIMRT_ROTATION, s->has_rotation, s->rotation);
		printf(",\n     \"scale\": ");
		print_compact_track(clip, i, ANIMRT_SCALE, s->has_scale, s->scale);
		printf("}");
	}
	printf("%s]\n}\n", clip->sequence_count ? "\n  " : "");
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
	printf(",\n");
	if (clip->compact) {
		print_compact_json(clip);
		return;
	}
	printf("  \"sequences\": [");
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
	size_t name_width = 24;

	cli_print_escaped(stdout, path, 0);
	printf(": XNB v%u, platform '%c', %u bytes%s\n", c->format_version, c->platform,
	       c->file_size_bytes, c->is_zstd ? " (in a zstd frame)" : "");
	printf("reader: ");
	cli_print_escaped(stdout, c->reader, 0);
	printf(" (version %d)\n", c->reader_version);
	cli_format_float(clip->duration_s, duration, sizeof duration);
	printf("duration: %s s, %u %s\n", duration, clip->sequence_count,
	       table_noun(clip->sequence_count, "sequence", "sequences"));
	for (uint32_t i = 0; i < clip->sequence_count; i++)
		name_width = table_name_width(name_width, clip->sequences[i].bone);
	if (clip->compact) {
		char rate[32];

		cli_format_float(clip->grid_rate_hz, rate, sizeof rate);
		printf("compact layout: a grid of %u %s at %s Hz; keys per track\n", clip->grid_sample_count,
		       table_noun(clip->grid_sample_count, "sample", "samples"), rate);
		if (clip->is_additive)
			printf("additive: each track is the difference from a reference pose "
			       "(apply with animrt_pose_add)\n");
		printf("\n");
		printf("  %-*s %-8s %-8s %s\n", (int)name_width, "bone", "trans", "rot", "scale");
		for (uint32_t i = 0; i < clip->sequence_count; i++) {
			const animrt_sequence *s = &clip->sequences[i];
			bool has[3] = { s->has_translation, s->has_rotation, s->has_scale };
			char cell[3][16];

			for (unsigned k = 0; k < 3; k++) {
				uint32_t n = animrt_track_keys(clip, i, k, 0, 0, NULL, NULL);

				if (!has[k])
					snprintf(cell[k], sizeof cell[k], "-");
				else if (!n)
					snprintf(cell[k], sizeof cell[k], "fixed");
				else
					snprintf(cell[k], sizeof cell[k], "%u", n);
			}
			printf("  ");
			cli_print_escaped(stdout, s->bone, name_width);
			/* The last column is padded to its header, so rows are one width. */
			printf(" %-8s %-8s %-5s\n", cell[0], cell[1], cell[2]);
		}
		return;
	}
	printf("\n");
	/* Durations print as they read back (0.96666664) when that fits ten
	 * characters, rounded when not; --json has every digit. */
	printf("  %-*s %6s %10s %10s  %-7s %-6s %-6s %s\n", (int)name_width, "bone", "keys", "duration",
	       "interval", "time", "trans", "rot", "scale");
	for (uint32_t i = 0; i < clip->sequence_count; i++) {
		const animrt_sequence *s = &clip->sequences[i];

		table_format_value(s->duration_s, 0, 10, duration, sizeof duration);
		table_format_value(s->key_interval_s, 0, 10, interval, sizeof interval);
		printf("  ");
		cli_print_escaped(stdout, s->bone, name_width);
		printf(" %6u %10s %10s  %-7s %-6s %-6s %-5s\n", s->key_count, duration,
		       s->has_time ? "-" : interval, s->has_time ? "times" : "uniform",
		       track_state(s->has_translation, s->is_fixed_translation),
		       track_state(s->has_rotation, s->is_fixed_rotation),
		       track_state(s->has_scale, s->is_fixed_scale));
	}
}

static int run(int argc, char **argv)
{
	static const char shorts[] = ":h";
	static const struct option options[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "reader-name", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	cli_readers readers = { 0 };
	bool json = false;
	animrt_clip *clip;
	cli_error err;
	int c;

	cli_getopt_reset();
	for (int from = 1; (c = getopt_long(argc, argv, shorts, options, NULL)) != -1; from = optind) {
		if (c == 'j') {
			json = true;
		} else if (c == 'n') {
			if (!cli_readers_add(&readers, "dump", optarg))
				return ANIMC_EXIT_USAGE;
		} else if (c == 'h') {
			return cli_stdout_help("dump", help) ? ANIMC_EXIT_OK : ANIMC_EXIT_FAILED;
		} else if (c == ':') {
			return cli_option_error("dump", argc, argv, from, true, shorts, options);
		} else {
			return cli_option_error("dump", argc, argv, from, false, shorts, options);
		}
	}
	if (argc - optind != 1)
		return cli_usage_error("dump", "give exactly one compiled file");
	if (!cli_path_argument("FILE", argv[optind], "a compiled file", &err))
		return cli_usage_error("dump", "%s", err.message);
	clip = cli_clip_open(argv[optind], &readers);
	if (!clip)
		return ANIMC_EXIT_FAILED;
	if (json)
		print_json(clip);
	else
		print_table(argv[optind], clip);
	cli_clip_close(clip);
	return ANIMC_EXIT_OK;
}

const animc_command animc_cmd_dump = {
	.name = "dump",
	.summary = "check a compiled file and print it: animc dump [--json] FILE",
	.run = run,
	.help = help,
};
