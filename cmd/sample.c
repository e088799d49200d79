/*
 * sample.c - `animc sample`: the pose of a compiled clip at given times,
 * evaluated by the loader library (animrt_clip_sample), or the crossfade of
 * two clips at a weight (binding both to one bone table, animrt_pose_blend).
 * Prints a table, or JSON with one object per line.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <animc/animrt.h>
#include "cli.h"
#include "table.h"

static void help(FILE *out)
{
	fprintf(out,
		"usage: animc sample [options] --time SECONDS FILE\n"
		"       animc sample [options] --blend OTHER --weight W --time SECONDS FILE\n"
		"\n"
		"Print the pose of a compiled clip (.xnb or .xnb.zst) at a time, as the animc\n"
		"loader library evaluates it: per bone, in the file's sequence order, the\n"
		"translation (x y z), rotation (quaternion x y z w) and scale (x y z).\n"
		"A time past the clip's end holds the end, or with --repeat wraps around;\n"
		"a negative time holds the start, or with --repeat wraps back from the end.\n"
		"FILE and OTHER may be pipes (<(zstd -dc F.xnb.zst), /dev/stdin), read to\n"
		"their end as files are.\n"
		"\n"
		"With --blend, print the crossfade from FILE's pose to OTHER's at weight W\n"
		"(0 is FILE, 1 is OTHER): lerp of translation and scale, slerp of rotation;\n"
		"a bone or track only one clip animates takes that clip's value.  Bones are\n"
		"FILE's, by name (of two sequences of one bone, the later, as a binding\n"
		"plays them), then those only OTHER animates.\n"
		"\n"
		"options:\n"
		"  --time SECONDS   the time to sample; repeat the option for several times\n"
		"  --repeat         play mode Repeat (default: Once)\n"
		"  --json           print {\"time\": t, \"bones\": [{\"bone\": name, \"translation\":\n"
		"                   [x,y,z], \"rotation\": [x,y,z,w], \"scale\": [x,y,z]}, ...]},\n"
		"                   one object per line and time (a value past float's\n"
		"                   range is null)\n"
		"  --blend OTHER    crossfade toward the compiled clip OTHER\n"
		"  --weight W       crossfade weight, 0 to 1 (with --blend)\n"
		"  --reader-name NAME  also take files whose type reader is NAME (as for\n"
		"                   animc dump); repeatable\n"
		"  -h, --help       show this help\n"
		"\n"
		"exit status: 0 printed, 1 a file is unreadable or damaged (the message names\n"
		"the byte offset), 2 usage error.\n");
}

/* A float option: the whole text, a finite number a float holds.  A
 * number past a float's range (1e39) is finite, and is told apart. */
typedef enum float_parse { FLOAT_OK, FLOAT_NOT_A_NUMBER, FLOAT_NOT_FINITE, FLOAT_PAST_RANGE } float_parse;

static float_parse parse_float(const char *text, float *out)
{
	char *end;
	float value;

	errno = 0;
	value = strtof(text, &end);
	if (end == text || *end)
		return FLOAT_NOT_A_NUMBER;
	if (!isfinite(value))
		return errno == ERANGE ? FLOAT_PAST_RANGE : FLOAT_NOT_FINITE;
	*out = value;
	return FLOAT_OK;
}

static void print_json(float time_s, const char *const *names, const animrt_pose *pose)
{
	printf("{\"time\": ");
	json_float(stdout, time_s);
	printf(", \"bones\": [");
	for (uint32_t i = 0; i < pose->bone_count; i++) {
		printf("%s{\"bone\": ", i ? ", " : "");
		json_string(stdout, names[i]);
		printf(", \"translation\": ");
		json_floats(stdout, pose->translation + 3 * (size_t)i, 3, 1);
		printf(", \"rotation\": ");
		json_floats(stdout, pose->rotation + 4 * (size_t)i, 4, 1);
		printf(", \"scale\": ");
		json_floats(stdout, pose->scale + 3 * (size_t)i, 3, 1);
		printf("}");
	}
	printf("]}\n");
}

/* Every value to six significant digits (fewer when that does not fit; --json
 * has them all), right-aligned in ten characters, one space before each, one
 * more between groups (translation, rotation, scale). */
#define VALUE_WIDTH 10

static void print_floats(const float *v, unsigned n)
{
	char text[32];

	for (unsigned k = 0; k < n; k++) {
		table_format_value(v[k], 6, VALUE_WIDTH, text, sizeof text);
		printf(" %*s", VALUE_WIDTH, text);
	}
}

static void print_table(const char *title, float time_s, bool repeat, const char *const *names,
			const animrt_pose *pose)
{
	size_t name_width = 24;
	char t[32];

	for (uint32_t i = 0; i < pose->bone_count; i++)
		name_width = table_name_width(name_width, names[i]);
	cli_format_float(time_s, t, sizeof t);
	cli_print_escaped(stdout, title, 0);
	printf(" at %s s (%s): %u %s\n", t, repeat ? "repeat" : "once", pose->bone_count,
	       table_noun(pose->bone_count, "bone", "bones"));
	printf("  %-*s%*s %*s %*s\n", (int)name_width, "bone", 3 * (VALUE_WIDTH + 1), "translation",
	       4 * (VALUE_WIDTH + 1), "rotation", 3 * (VALUE_WIDTH + 1), "scale");
	for (uint32_t i = 0; i < pose->bone_count; i++) {
		printf("  ");
		cli_print_escaped(stdout, names[i], name_width);
		print_floats(pose->translation + 3 * (size_t)i, 3);
		printf(" ");
		print_floats(pose->rotation + 4 * (size_t)i, 4);
		printf(" ");
		print_floats(pose->scale + 3 * (size_t)i, 3);
		printf("\n");
	}
}

/*
 * A note on stderr when time_s is outside [0, duration] of `clip` at `path`:
 * the pose printed is then the one at another time (FORMAT.md section 2's
 * time rule, animrt.h), which a person asking for 99 s of a 1 s clip may
 * not expect.  Each bone's sequence has its own duration, which gives its
 * time (a compact clip's is the clip's): when they are not all the
 * clip's, no one time was printed, and the note says so.
 */
static void note_time_outside(const char *path, const animrt_clip *clip, float time_s, bool repeat)
{
	double d = clip->duration_s, at, lo, hi;
	char t[32], end[32], local[32];

	/* The sequences' durations, which give their times; a compact
	 * clip's (no sequences) is the clip's. */
	lo = hi = clip->sequences && clip->sequence_count ? clip->sequences[0].duration_s : d;
	for (uint32_t i = 1; clip->sequences && i < clip->sequence_count; i++) {
		lo = fmin(lo, clip->sequences[i].duration_s);
		hi = fmax(hi, clip->sequences[i].duration_s);
	}
	d = lo;
	if (time_s >= 0 && time_s <= lo)
		return;
	if (lo != hi) {
		cli_format_float(time_s, t, sizeof t);
		cli_format_float((float)lo, end, sizeof end);
		cli_format_float((float)hi, local, sizeof local);
		cli_report(ANIMC_NOTE, "animc sample", "%s: its bones' sequences last %s to %s s, and %s s is outside "
			   "some of them: each bone's pose is printed at the time its own sequence gives %s s "
			   "(%s)", path, end, local, t, t,
			   repeat ? "--repeat wraps it" : time_s < 0 ? "clamped to 0" : "clamped to its end");
		return;
	}
	if (!repeat || d <= 0)
		at = time_s > d ? d : 0;
	else if (time_s > d)
		at = fmod(time_s, d);
	else
		at = fmod(time_s, d) < 0 ? fmod(time_s, d) + d : 0;
	cli_format_float(time_s, t, sizeof t);
	cli_format_float((float)d, end, sizeof end);
	cli_format_float((float)at, local, sizeof local);
	if (!repeat || d <= 0)
		cli_report(ANIMC_NOTE, "animc sample", "%s lasts %s s; %s s %s, so its pose at %s s is printed "
			   "(--repeat wraps)", path, end, t, time_s > d ? "is past its end" : "is before its start",
			   local);
	else
		cli_report(ANIMC_NOTE, "animc sample", "%s lasts %s s; %s s wraps (--repeat), so its pose at %s s "
			   "is printed", path, end, t, local);
}

typedef struct sample_args {
	const char *path, *other_path;
	const float *times;
	size_t time_count;
	float weight;
	bool repeat, json;
} sample_args;

/* Evaluate and print; the clips are open. */
static int print_poses(const sample_args *a, const animrt_clip *clip, const animrt_clip *other)
{
	animrt_play_mode mode = a->repeat ? ANIMRT_PLAY_REPEAT : ANIMRT_PLAY_ONCE;
	uint32_t max_bones = clip->sequence_count + (other ? other->sequence_count : 0);
	const char **names = calloc(max_bones ? max_bones : 1, sizeof *names);
	void *mem[2] = { NULL, NULL };
	animrt_pose pose[2];
	animrt_binding *bind[2] = { NULL, NULL };
	uint32_t bones = 0;
	int status = ANIMC_EXIT_FAILED;
	char *title = NULL;

	if (!names)
		goto nomem;
	if (!other) {
		/* One entry per sequence, duplicates included: the file's view. */
		for (uint32_t i = 0; i < clip->sequence_count; i++)
			names[bones++] = clip->sequences[i].bone;
	} else {
		const animrt_clip *both[2] = { clip, other };

		bones = cli_bone_names(both, 2, names);
	}
	for (int p = 0; p < (other ? 2 : 1); p++) {
		mem[p] = malloc(animrt_pose_size_bytes(bones) + 1);
		if (!mem[p])
			goto nomem;
		animrt_pose_init(&pose[p], mem[p], bones);
	}
	if (other) {
		animrt_error err;

		if (animrt_binding_create(clip, names, bones, &bind[0], &err) != ANIMRT_OK ||
		    animrt_binding_create(other, names, bones, &bind[1], &err) != ANIMRT_OK) {
			cli_report(ANIMC_ERROR, "animc sample", "%s", err.message);
			goto out;
		}
		size_t n = strlen(a->path) + strlen(a->other_path) + 64;

		title = malloc(n);
		if (!title)
			goto nomem;
		snprintf(title, n, "%s -> %s, weight %g,", a->path, a->other_path, (double)a->weight);
	}
	for (size_t i = 0; i < a->time_count; i++) {
		float t = a->times[i];

		note_time_outside(a->path, clip, t, a->repeat);
		if (other)
			note_time_outside(a->other_path, other, t, a->repeat);
		if (other) {
			animrt_binding_sample(bind[0], t, mode, NULL, &pose[0]);
			animrt_binding_sample(bind[1], t, mode, NULL, &pose[1]);
			animrt_pose_blend(&pose[0], &pose[1], a->weight, &pose[0]);
		} else {
			animrt_clip_sample(clip, t, mode, NULL, &pose[0]);
		}
		if (a->json)
			print_json(t, names, &pose[0]);
		else
			print_table(title ? title : a->path, t, a->repeat, names, &pose[0]);
	}
	status = ANIMC_EXIT_OK;
	goto out;
nomem:
	cli_report(ANIMC_ERROR, "animc sample", "out of memory");
out:
	animrt_binding_destroy(bind[0]);
	animrt_binding_destroy(bind[1]);
	free(mem[0]);
	free(mem[1]);
	free(names);
	free(title);
	return status;
}

static int run(int argc, char **argv)
{
	static const char shorts[] = ":h";
	static const struct option options[] = {
		{ "time", required_argument, NULL, 't' },
		{ "repeat", no_argument, NULL, 'r' },
		{ "json", no_argument, NULL, 'j' },
		{ "blend", required_argument, NULL, 'b' },
		{ "weight", required_argument, NULL, 'w' },
		{ "reader-name", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	sample_args a = { .weight = NAN };
	cli_readers readers = { 0 };
	float *times = calloc((size_t)argc + 1, sizeof *times);
	animrt_clip *clip = NULL, *other = NULL;
	cli_error err;
	int status = ANIMC_EXIT_USAGE, c;

	if (!times) {
		cli_report(ANIMC_ERROR, "animc sample", "out of memory");
		return ANIMC_EXIT_FAILED;
	}
	cli_getopt_reset();
	for (int from = 1; (c = getopt_long(argc, argv, shorts, options, NULL)) != -1; from = optind) {
		if (c == 't') {
			static const char *const wrong[] = { NULL, "is not a number of seconds",
							     "is not a finite number of seconds",
							     "is past the range of a float (about 3.4e38 s)" };
			float_parse parsed = parse_float(optarg, &times[a.time_count]);

			if (parsed != FLOAT_OK) {
				cli_usage_error("sample", "--time '%s' %s", optarg, wrong[parsed]);
				goto out;
			}
			a.time_count++;
		} else if (c == 'r') {
			a.repeat = true;
		} else if (c == 'j') {
			a.json = true;
		} else if (c == 'b') {
			if (!cli_path_argument("--blend", optarg, "a compiled file", &err)) {
				cli_usage_error("sample", "%s", err.message);
				goto out;
			}
			a.other_path = optarg;
		} else if (c == 'n') {
			if (!cli_readers_add(&readers, "sample", optarg))
				goto out;
		} else if (c == 'w') {
			if (parse_float(optarg, &a.weight) != FLOAT_OK || a.weight < 0 || a.weight > 1) {
				cli_usage_error("sample", "--weight '%s' is not a number from 0 to 1", optarg);
				goto out;
			}
		} else if (c == 'h') {
			status = cli_stdout_help("sample", help) ? ANIMC_EXIT_OK : ANIMC_EXIT_FAILED;
			goto out;
		} else if (c == ':') {
			cli_option_error("sample", argc, argv, from, true, shorts, options);
			goto out;
		} else {
			cli_option_error("sample", argc, argv, from, false, shorts, options);
			goto out;
		}
	}
	if (argc - optind != 1) {
		cli_usage_error("sample", "give exactly one compiled file");
		goto out;
	}
	if (!cli_path_argument("FILE", argv[optind], "a compiled file", &err)) {
		cli_usage_error("sample", "%s", err.message);
		goto out;
	}
	if (!a.time_count) {
		cli_usage_error("sample", "give the time to sample with --time SECONDS");
		goto out;
	}
	if (a.other_path && isnan(a.weight)) {
		cli_usage_error("sample", "--blend needs --weight W");
		goto out;
	}
	if (!a.other_path && !isnan(a.weight)) {
		cli_usage_error("sample", "--weight needs --blend OTHER");
		goto out;
	}
	a.path = argv[optind];
	a.times = times;
	status = ANIMC_EXIT_FAILED;
	clip = cli_clip_open(a.path, &readers);
	if (!clip)
		goto out;
	if (a.other_path) {
		other = cli_clip_open(a.other_path, &readers);
		if (!other)
			goto out;
	}
	status = print_poses(&a, clip, other);
out:
	cli_clip_close(clip);
	cli_clip_close(other);
	free(times);
	return status;
}

const animc_command animc_cmd_sample = {
	.name = "sample",
	.summary = "print the pose of a compiled clip at a time: animc sample --time T FILE",
	.run = run,
	.help = help,
};
