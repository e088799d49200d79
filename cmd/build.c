/*
 * build.c - `animc build`: gathers the sources (files, folders walked in a
 * fixed order), compiles each independently (import, process, write
 * atomically), and reports per file and in a summary line.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <animc/animc_formats.h>
#include "cli.h"

typedef struct job {
	char *path;     /* the source, as the user can find it */
	char *rel_dir;  /* its folder under OUTDIR ("" for files given directly) */
	bool is_explicit;
} job;

typedef struct builder {
	const char *out_dir;
	animc_process_options process;
	animc_xnb_options xnb;
	animc_import_options import;
	bool verbose, quiet, warnings_as_errors;
	cli_strings clip_names;    /* --clip: only these clips of multi-clip sources */
	const char *skeleton_path; /* --skeleton */
	double import_timeout_s;   /* --import-timeout; 0 = no limit */
	animc_skeleton skeleton;
	cli_diag_printer printer;
	job *jobs;
	size_t job_count, job_capacity;
	unsigned compiled, failed, skipped;
	/* In a child compiling one source (compile_isolated): where it
	 * reports the outputs it claims and its counts; -1 otherwise. */
	int report_fd;
	/* Outputs written in this run, to refuse a second writer: the paths
	 * and an open-addressing hash set of their indices (0 = empty slot). */
	cli_strings outputs;
	size_t *output_slots;
	size_t output_slot_count;
} builder;

static void help(FILE *out)
{
	fprintf(out,
		"usage: animc build [options] -o OUTDIR INPUT...\n"
		"\n"
		"Compile animation sources into .xnb files (XNB v5, RobotGame AnimationSequence\n"
		"layout) that XNA, FNA and MonoGame load through RobotGame's AnimationReader.\n"
		"\n"
		"INPUT is a file or a folder.  A folder is walked recursively (names starting\n"
		"with '.' are left out) and its tree is mirrored under OUTDIR.  A source that is\n"
		"one clip (a RobotGame .Animation) becomes OUTDIR/<stem>.xnb; a source holding\n"
		"named clips becomes OUTDIR/<stem>/<clip>.xnb.  Files no importer recognises\n"
		"are skipped.  Each source compiles on its own: a bad one is reported and the\n"
		"others still compile.  Output files appear whole or not at all.\n"
		"\n"
		"options:\n"
		"  -o, --output DIR        where compiled files go (created when missing)\n"
		"      --exact             reproduce the original XNA pipeline's bytes: validate\n"
		"                          only, no normalisation; what the original would have\n"
		"                          written as a corrupt file is an error\n"
		"      --platform L        XNB platform letter, one of %s (default w)\n"
		"      --reader-name NAME  type reader name written into the file (default:\n"
		"                          the original RobotGame AnimationReader)\n"
		"      --compress KIND     zstd: wrap each file in one zstd frame, named\n"
		"                          .xnb.zst (XNA, FNA and MonoGame cannot read these;\n"
		"                          the animc loader can); none (default)\n"
		"      --zstd-level N      zstd level, 1 to 22 (default 19)\n"
		"      --clip NAME         compile only the clip NAME of sources holding named\n"
		"                          clips (repeatable); a source without it fails,\n"
		"                          listing the clips it has\n"
		"      --skeleton MODEL    check that every bone each clip animates is a node of\n"
		"                          MODEL (.gltf/.glb read natively, or any model Assimp\n"
		"                          reads: .fbx, .x, ...); a clip with an unknown bone\n"
		"                          fails.  Sources that number their bones take the\n"
		"                          names from it.  Without it, a glTF source with skins\n"
		"                          warns of animated nodes that are no joint\n"
		"      --relative-to-bind  keys of XNA intermediate XML are relative to the bone's\n"
		"                          rest pose: compose each with the rest transform of\n"
		"                          MODEL (key x rest), so the output holds absolute\n"
		"                          local transforms.  Needs --skeleton\n"
		"      --ticks-per-second N  the rate of tick-based key times (Assimp\n"
		"                          sources), instead of what each file declares;\n"
		"                          without it a file that declares none is read at\n"
		"                          its format's default (.X 4800, others 25), with\n"
		"                          a warning\n"
		"      --import-timeout S  stop an Assimp import that runs longer than S seconds\n"
		"                          and fail that file (default 120; 0: no limit)\n"
		"      --tolerance T,R,S   lossy: remove keys while the error against the source\n"
		"                          stays within T model units of translation, R degrees\n"
		"                          of rotation and S of scale, measured at every key and\n"
		"                          between keys as the runtime interpolates; 'default'\n"
		"                          is 0.001,0.05,0.0001.  Output keeps explicit key\n"
		"                          times and plays in XNA, FNA and MonoGame\n"
		"      --layout KIND       original (default): the RobotGame layout, reader\n"
		"                          version 0; compact: reader version 1, quantised keys\n"
		"                          on a grid, about a quarter of the size, read by the\n"
		"                          animc loader only (XNA, FNA and MonoGame cannot read\n"
		"                          it); implies --tolerance default\n"
		"      --shell-distance D  with --skeleton, a lossy build bounds the model-space\n"
		"                          error of every point D model units around each bone\n"
		"                          (through the bone hierarchy) by T, instead of each\n"
		"                          track by T, R and S (default 1)\n"
		"      --warnings-as-errors  a source with warnings fails, writing nothing\n"
		"  -q, --quiet             print warnings and errors only\n"
		"  -v, --verbose           also list skipped files, clip details and what the\n"
		"                          passes changed\n"
		"  -h, --help              show this help\n"
		"\n"
		"The default mode applies lossless passes: keys sorted by time, constant tracks\n"
		"stored once (fixed), evenly spaced key times stored as an interval, a wrong\n"
		"KeyFrameSequenceCount corrected (with a warning).\n"
		"glTF STEP keys are held exactly (a key one float before each step);\n"
		"CUBICSPLINE curves are baked into keys within 1e-4 (units, radians).\n"
		"\n"
		"importers (recognised by content first, file name second):\n",
		animc_xnb_platforms());
	for (size_t i = 0; animc_importers[i]; i++)
		fprintf(out, "  %-10s %s\n", animc_importers[i]->name, animc_importers[i]->description);
	fprintf(out,
		"\n"
		"Diagnostics go to stderr as 'path:line:column: error: message'.\n"
		"exit status: 0 every source compiled (or was skipped), 1 some source failed,\n"
		"2 usage error.\n");
}

static bool add_job(builder *b, const char *path, const char *rel_dir, bool is_explicit)
{
	job *j;

	if (b->job_count == b->job_capacity) {
		size_t capacity = b->job_capacity ? b->job_capacity * 2 : 64;
		job *grown = realloc(b->jobs, capacity * sizeof *grown);

		if (!grown)
			return false;
		b->jobs = grown;
		b->job_capacity = capacity;
	}
	j = &b->jobs[b->job_count];
	j->path = strdup(path);
	j->rel_dir = strdup(rel_dir);
	j->is_explicit = is_explicit;
	if (!j->path || !j->rel_dir) {
		free(j->path);
		free(j->rel_dir);
		return false;
	}
	b->job_count++;
	return true;
}

static size_t hash_path(const char *s)
{
	size_t h = 1469598103934665603u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return h;
}

/* Record an output path; false when this run has written it already (or
 * when out of memory). */
static bool claim_output(builder *b, const char *path)
{
	size_t mask, i;

	if (b->outputs.count * 2 >= b->output_slot_count) {
		size_t count = b->output_slot_count ? b->output_slot_count * 2 : 256;
		size_t *slots = calloc(count, sizeof *slots);

		if (!slots)
			return false;
		for (size_t k = 0; k < b->outputs.count; k++) {
			for (i = hash_path(b->outputs.items[k]) & (count - 1); slots[i]; i = (i + 1) & (count - 1))
				;
			slots[i] = k + 1;
		}
		free(b->output_slots);
		b->output_slots = slots;
		b->output_slot_count = count;
	}
	mask = b->output_slot_count - 1;
	for (i = hash_path(path) & mask; b->output_slots[i]; i = (i + 1) & mask)
		if (strcmp(b->outputs.items[b->output_slots[i] - 1], path) == 0)
			return false;
	if (!cli_strings_push(&b->outputs, path))
		return false;
	b->output_slots[i] = b->outputs.count;
	return true;
}

/* A clip name made safe as a file name (FORMAT.md section 5). */
static char *safe_clip_name(const char *name, uint32_t index)
{
	char *out;

	if (!name[0]) {
		out = malloc(24);
		if (out)
			snprintf(out, 24, "clip%u", index);
		return out;
	}
	out = strdup(name);
	if (!out)
		return NULL;
	for (unsigned char *p = (unsigned char *)out; *p; p++)
		if (*p < 0x20 || *p == 0x7F || strchr("/\\:*?\"<>|", *p))
			*p = '_';
	return out;
}

static char *output_path(const builder *b, const job *j, const animc_clip_set *set, uint32_t index)
{
	const char *base = cli_basename(j->path);
	size_t stem_len = cli_stem_length(base);
	const char *ext = b->xnb.compression == ANIMC_COMPRESSION_ZSTD ? ".xnb.zst" : ".xnb";
	char *dir, *name, *path;
	size_t name_size;

	dir = cli_path_join(b->out_dir, j->rel_dir, NULL);
	if (!dir)
		return NULL;
	if (set->is_single_asset) {
		name_size = stem_len + strlen(ext) + 1;
		name = malloc(name_size);
		if (name)
			snprintf(name, name_size, "%.*s%s", (int)stem_len, base, ext);
		path = name ? cli_path_join(dir, name, NULL) : NULL;
	} else {
		char *clip = safe_clip_name(set->clips[index]->name, index);
		char *stem = strndup(base, stem_len);

		name_size = (clip ? strlen(clip) : 0) + strlen(ext) + 1;
		name = clip ? malloc(name_size) : NULL;
		if (name)
			snprintf(name, name_size, "%s%s", clip, ext);
		path = name && stem ? cli_path_join(dir, stem, name) : NULL;
		free(clip);
		free(stem);
	}
	free(name);
	free(dir);
	return path;
}

static void report_passes(const animc_pass_stats *s)
{
	char line[512];
	size_t n = 0;

#define PART(cond, ...)                                                                   \
	do {                                                                              \
		if ((cond) && n < sizeof line)                                            \
			n += (size_t)snprintf(line + n, sizeof line - n, "%s", n ? ", " : ""); \
		if ((cond) && n < sizeof line)                                            \
			n += (size_t)snprintf(line + n, sizeof line - n, __VA_ARGS__);    \
	} while (0)
	PART(s->channels_sorted, "%u sorted", s->channels_sorted);
	PART(s->duplicate_keys_dropped, "%u duplicate keys dropped", s->duplicate_keys_dropped);
	PART(s->channels_merged, "%u merged onto one timeline", s->channels_merged);
	PART(s->rotations_flipped, "%u rotations put on one hemisphere", s->rotations_flipped);
	PART(s->tracks_made_fixed, "%u tracks made fixed", s->tracks_made_fixed);
	PART(s->channels_collapsed, "%u sequences down to one key", s->channels_collapsed);
	PART(s->channels_made_uniform, "%u sequences made uniform", s->channels_made_uniform);
	PART(s->declared_count_corrected, "KeyFrameSequenceCount corrected");
#undef PART
	printf("    passes: %s\n", n ? line : "nothing to change");
	/* The lossy passes' error (stats->error: translation, rotation_deg,
	 * scale, shell, keys_before, keys_after) is what a per-clip build
	 * report (issue 10) takes from here. */
	if (s->is_reduced) {
		cli_format_clip_error(&s->error, line, sizeof line);
		printf("    %s\n", line);
	}
}

static uint64_t total_keys(const animc_clip *clip)
{
	uint64_t keys = 0;

	for (uint32_t i = 0; i < clip->channel_count; i++)
		keys += clip->channels[i].key_count;
	return keys;
}

/* Keep only the clips --clip asked for; false (reported) when one is missing. */
static bool filter_clips(const builder *b, animc_clip_set *set, animc_diag_sink *sink)
{
	bool ok = true;

	if (!b->clip_names.count || set->is_single_asset)
		return true;
	for (size_t n = 0; n < b->clip_names.count; n++) {
		bool found = false;

		for (uint32_t i = 0; i < set->count && !found; i++)
			found = strcmp(set->clips[i]->name, b->clip_names.items[n]) == 0;
		if (!found) {
			char list[1024];
			size_t used = 0;

			list[0] = '\0';
			for (uint32_t i = 0; i < set->count && used < sizeof list; i++)
				used += (size_t)snprintf(list + used, sizeof list - used, "%s'%s'",
							 i ? ", " : "", set->clips[i]->name);
			animc_diag_report(sink, ANIMC_ERROR, 0, 0, "no clip '%s'; the clips are: %s",
					  b->clip_names.items[n], set->count ? list : "none");
			ok = false;
		}
	}
	for (uint32_t i = set->count; ok && i-- > 0;) {
		bool wanted = false;

		for (size_t n = 0; n < b->clip_names.count && !wanted; n++)
			wanted = strcmp(set->clips[i]->name, b->clip_names.items[n]) == 0;
		if (!wanted)
			animc_clip_set_remove(set, i);
	}
	return ok;
}

/* In a child of compile_isolated: send the parent one record, a kind
 * letter and a NUL-terminated text.  A record that cannot be sent is lost
 * with the child's report; the parent then fails the source. */
static void report_to_parent(const builder *b, char kind, const char *text)
{
	size_t size = strlen(text) + 2, done = 0;
	char *record;

	if (b->report_fd < 0)
		return;
	record = malloc(size);
	if (!record)
		return;
	record[0] = kind;
	memcpy(record + 1, text, size - 1);
	while (done < size) {
		ssize_t n = write(b->report_fd, record + done, size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	free(record);
}

/* A clip of a source, processed and serialised, waiting to be written. */
typedef struct compiled_clip {
	uint8_t *bytes;          /* NULL: the clip failed */
	size_t size;
	animc_pass_stats stats;
} compiled_clip;

/* Process, check and serialise one clip; false (reported) when it fails. */
static bool prepare_clip(builder *b, animc_clip *clip, animc_diag_sink *sink, compiled_clip *out)
{
	unsigned errors_before = sink->error_count;

	memset(out, 0, sizeof *out);
	if (animc_clip_process(clip, &b->process, sink, &out->stats) != ANIMC_OK ||
	    (b->skeleton_path && animc_skeleton_check(&b->skeleton, clip, sink) != ANIMC_OK) ||
	    animc_xnb_write(clip, &b->xnb, &out->bytes, &out->size, sink) != ANIMC_OK) {
		if (sink->error_count == errors_before)
			animc_diag_report(sink, ANIMC_ERROR, 0, 0, "%s%s%scannot compile",
					  clip->name[0] ? "clip '" : "", clip->name,
					  clip->name[0] ? "': " : "");
		free(out->bytes);
		out->bytes = NULL;
		return false;
	}
	return true;
}

/* Write one prepared clip of a source; true when its file was written. */
static bool write_clip(builder *b, const job *j, const animc_clip_set *set, uint32_t index,
		       const compiled_clip *compiled, animc_diag_sink *sink, const char *progress)
{
	const animc_clip *clip = set->clips[index];
	char why[512];
	char *out = output_path(b, j, set, index);

	if (!out) {
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "out of memory");
		return false;
	}
	if (!claim_output(b, out)) {
		animc_diag_report(sink, ANIMC_ERROR, 0, 0,
				  "'%s' is the output of another source (or clip) in this run; not written",
				  out);
		free(out);
		return false;
	}
	report_to_parent(b, 'o', out);
	if (!cli_write_atomic(out, compiled->bytes, compiled->size, why, sizeof why)) {
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "%s", why);
		free(out);
		return false;
	}
	if (!b->quiet) {
		printf("%scompiled %s%s%s%s -> %s (%u bones, %g s, %zu bytes)\n", progress, j->path,
		       clip->name[0] ? " [" : "", clip->name, clip->name[0] ? "]" : "", out,
		       clip->channel_count, (double)clip->duration_s, compiled->size);
		if (b->verbose) {
			printf("    clip%s%s%s: %g s, %u bones, %llu keys", clip->name[0] ? " '" : "",
			       clip->name, clip->name[0] ? "'" : "", (double)clip->duration_s,
			       clip->channel_count, (unsigned long long)total_keys(clip));
			if (clip->ticks_per_second > 0)
				printf(", %g ticks per second", clip->ticks_per_second);
			printf("\n");
			report_passes(&compiled->stats);
		}
	}
	free(out);
	return true;
}

/* Import one source (taking `data`), compile its clips, count the result. */
static void compile_source(builder *b, const job *j, const animc_importer *importer, uint8_t *data,
			   size_t size, animc_diag_sink *sink, const char *progress)
{
	animc_import_request request = { j->path, data, size, &b->import };
	animc_clip_set set = { 0 };
	animc_status status;
	bool ok = true;

	status = importer->import(&request, &set, sink);
	free(data);
	/* A static model is normal in an art folder, a mistake on the command
	 * line. */
	if (status == ANIMC_ERR_NOT_FOUND && sink->error_count == 0) {
		if (j->is_explicit) {
			animc_diag_report(sink, ANIMC_ERROR, 0, 0, "holds no animation");
			b->failed++;
		} else {
			if (b->verbose)
				printf("%sskipped %s (holds no animation)\n", progress, j->path);
			b->skipped++;
		}
		animc_clip_set_release(&set);
		return;
	}
	if (status != ANIMC_OK) {
		if (sink->error_count == 0)
			animc_diag_report(sink, ANIMC_ERROR, 0, 0, "cannot import: %s",
					  animc_status_string(status));
		b->failed++;
		animc_clip_set_release(&set);
		return;
	}
	/* Every clip is processed before any is written, so that a source
	 * that fails as a whole (--warnings-as-errors) writes nothing.  A clip
	 * that fails alone leaves the others written; the source still counts
	 * as failed. */
	ok = filter_clips(b, &set, sink);
	compiled_clip *compiled = ok && set.count ? calloc(set.count, sizeof *compiled) : NULL;
	if (ok && set.count && !compiled) {
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "out of memory");
		ok = false;
	}
	for (uint32_t i = 0; ok && i < set.count; i++)
		prepare_clip(b, set.clips[i], sink, &compiled[i]);
	if (ok && b->warnings_as_errors && sink->warning_count) {
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "%u warning%s treated as errors; nothing written",
				  sink->warning_count, sink->warning_count == 1 ? "" : "s");
		ok = false;
	}
	for (uint32_t i = 0; ok && i < set.count; i++)
		if (compiled[i].bytes)
			write_clip(b, j, &set, i, &compiled[i], sink, progress);
	for (uint32_t i = 0; compiled && i < set.count; i++)
		free(compiled[i].bytes);
	free(compiled);
	/* Any error in this source (a failed clip included) fails it. */
	if (sink->error_count)
		ok = false;
	animc_clip_set_release(&set);
	if (ok)
		b->compiled++;
	else
		b->failed++;
}

/*
 * Wait until `fd` can be read, at most until `deadline` (set on the first
 * call from timeout_s; no limit when timeout_s is 0).  False on time out.
 */
static bool wait_readable(int fd, double timeout_s, struct timespec *deadline)
{
	struct timespec now;

	if (timeout_s <= 0)
		return true;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (deadline->tv_sec == 0 && deadline->tv_nsec == 0) {
		double whole = floor(timeout_s);

		deadline->tv_sec = now.tv_sec + (time_t)whole;
		deadline->tv_nsec = now.tv_nsec + (long)((timeout_s - whole) * 1e9);
		if (deadline->tv_nsec >= 1000000000L) {
			deadline->tv_sec++;
			deadline->tv_nsec -= 1000000000L;
		}
	}
	for (;;) {
		struct pollfd pfd = { fd, POLLIN, 0 };
		double left_ms = (double)(deadline->tv_sec - now.tv_sec) * 1e3 +
				 (double)(deadline->tv_nsec - now.tv_nsec) / 1e6;
		int r;

		if (left_ms <= 0)
			return false;
		r = poll(&pfd, 1, left_ms > INT_MAX ? INT_MAX : (int)ceil(left_ms));
		if (r > 0)
			return true;
		if (r < 0 && errno != EINTR)
			return true;   /* let read() report it */
		clock_gettime(CLOCK_MONOTONIC, &now);
	}
}

/* End a child that ran out of time: SIGTERM first, so its handler removes a
 * temporary file it was writing; SIGKILL if it is still there a second on. */
static void stop_child(pid_t pid)
{
	kill(pid, SIGTERM);
	for (int i = 0; i < 100; i++) {
		if (waitpid(pid, NULL, WNOHANG) == pid)
			return;
		usleep(10000);
	}
	kill(pid, SIGKILL);
}

/*
 * Compile a source whose importer can crash on damaged input in a child
 * process, so that a crash fails that source alone and the run goes on.
 * The child prints as usual and reports through a pipe the outputs it
 * claims ('o' records) and its counts ('r'); the parent takes both as its
 * own.  Costs a fork per such source, small beside what Assimp does.
 * Compiles in this process when it cannot fork.
 */
static void compile_isolated(builder *b, const job *j, const animc_importer *importer,
			     uint8_t *data, size_t size, animc_diag_sink *sink, const char *progress)
{
	char *reply = NULL;
	size_t used = 0, capacity = 0;
	bool has_counts = false, timed_out = false;
	struct timespec deadline;
	int fds[2], status;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	if (pipe(fds) != 0) {
		compile_source(b, j, importer, data, size, sink, progress);
		return;
	}
	memset(&deadline, 0, sizeof deadline);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		compile_source(b, j, importer, data, size, sink, progress);
		return;
	}
	if (pid == 0) {
		unsigned before[3] = { b->compiled, b->failed, b->skipped };
		char counts[64];

		close(fds[0]);
		b->report_fd = fds[1];
		compile_source(b, j, importer, data, size, sink, progress);
		snprintf(counts, sizeof counts, "%u %u %u", b->compiled - before[0],
			 b->failed - before[1], b->skipped - before[2]);
		report_to_parent(b, 'r', counts);
		fflush(stdout);
		fflush(stderr);
		_exit(0);
	}
	close(fds[1]);
	free(data);
	for (;;) {
		ssize_t n;

		if (!wait_readable(fds[0], b->import_timeout_s, &deadline)) {
			stop_child(pid);
			timed_out = true;
			break;
		}
		if (used == capacity) {
			char *grown = realloc(reply, capacity ? capacity * 2 : 4096);

			if (!grown)
				break;
			reply = grown;
			capacity = capacity ? capacity * 2 : 4096;
		}
		n = read(fds[0], reply + used, capacity - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		used += (size_t)n;
	}
	close(fds[0]);
	status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	for (size_t at = 0; at < used;) {
		char *end = memchr(reply + at, '\0', used - at);
		unsigned counts[3];

		if (!end)
			break;   /* cut short by a crash */
		if (reply[at] == 'o') {
			claim_output(b, reply + at + 1);
		} else if (reply[at] == 'r' &&
			   sscanf(reply + at + 1, "%u %u %u", &counts[0], &counts[1], &counts[2]) == 3) {
			b->compiled += counts[0];
			b->failed += counts[1];
			b->skipped += counts[2];
			has_counts = true;
		}
		at = (size_t)(end - reply) + 1;
	}
	free(reply);
	if (timed_out) {
		animc_diag_report(sink, ANIMC_ERROR, 0, 0,
				  "the %s importer did not finish within %g s (--import-timeout); "
				  "stopped, nothing written", importer->name, b->import_timeout_s);
		b->failed++;
	} else if (!has_counts) {
		if (WIFSIGNALED(status))
			animc_diag_report(sink, ANIMC_ERROR, 0, 0,
					  "the %s importer crashed on this file (%s); it was not compiled",
					  importer->name, strsignal(WTERMSIG(status)));
		else
			animc_diag_report(sink, ANIMC_ERROR, 0, 0,
					  "the %s importer ended without a result (exit status %d)",
					  importer->name, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		b->failed++;
	}
}

static void compile_job(builder *b, const job *j, size_t number)
{
	animc_diag_sink sink = { cli_print_diag, &b->printer, j->path, 0, 0 };
	const animc_importer *importer;
	cli_source src;
	uint8_t *data;
	size_t size;
	char why[512], progress[48] = "";

	if (b->job_count > 1)
		snprintf(progress, sizeof progress, "[%zu/%zu] ", number, b->job_count);
	if (!cli_source_open(&src, j->path, why, sizeof why)) {
		animc_diag_report(&sink, ANIMC_ERROR, 0, 0, "%s", why);
		b->failed++;
		return;
	}
	importer = animc_importer_find(j->path, src.head, src.head_size);
	if (!importer) {
		cli_source_close(&src);
		if (j->is_explicit)
			animc_diag_report(&sink, ANIMC_WARNING, 0, 0, "no importer recognises this file; skipped");
		else if (b->verbose)
			printf("%sskipped %s (no importer recognises it)\n", progress, j->path);
		b->skipped++;
		return;
	}
	if (importer->reads_path) {
		cli_source_close(&src);
		size = src.head_size;
		data = malloc(size + 1);
		if (data)
			memcpy(data, src.head, size);
		else
			snprintf(why, sizeof why, "out of memory");
	} else {
		cli_source_read_rest(&src, &data, &size, why, sizeof why);
	}
	if (!data) {
		animc_diag_report(&sink, ANIMC_ERROR, 0, 0, "%s", why);
		b->failed++;
		return;
	}
	if (importer->needs_isolation)
		compile_isolated(b, j, importer, data, size, &sink, progress);
	else
		compile_source(b, j, importer, data, size, &sink, progress);
}

/* Turn the INPUT arguments into jobs; false only when out of memory. */
static bool gather(builder *b, char **inputs, int count)
{
	animc_diag_sink sink = { cli_print_diag, &b->printer, NULL, 0, 0 };

	for (int i = 0; i < count; i++) {
		struct stat st;

		sink.path = inputs[i];
		if (stat(inputs[i], &st) != 0) {
			animc_diag_report(&sink, ANIMC_ERROR, 0, 0, "cannot open: %s", strerror(errno));
			b->failed++;
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			cli_strings files = { 0 };
			unsigned errors = sink.error_count;

			if (!cli_walk(inputs[i], b->out_dir, &files, &sink)) {
				cli_strings_release(&files);
				return false;
			}
			b->failed += sink.error_count - errors;
			for (size_t f = 0; f < files.count; f++) {
				char *path = cli_path_join(inputs[i], files.items[f], NULL);
				char *slash = strrchr(files.items[f], '/');
				bool ok;

				if (!path) {
					cli_strings_release(&files);
					return false;
				}
				if (slash)
					*slash = '\0';
				ok = add_job(b, path, slash ? files.items[f] : "", false);
				free(path);
				if (!ok) {
					cli_strings_release(&files);
					return false;
				}
			}
			cli_strings_release(&files);
		} else if (!add_job(b, inputs[i], "", true)) {
			return false;
		}
	}
	return true;
}

static int parse_options(builder *b, int argc, char **argv)
{
	enum { O_EXACT = 256, O_PLATFORM, O_READER, O_COMPRESS, O_LEVEL, O_WERROR, O_CLIP, O_SKELETON,
	       O_RELATIVE, O_TICKS, O_TIMEOUT, O_TOLERANCE, O_LAYOUT, O_SHELL };
	static const struct option options[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "exact", no_argument, NULL, O_EXACT },
		{ "platform", required_argument, NULL, O_PLATFORM },
		{ "reader-name", required_argument, NULL, O_READER },
		{ "compress", required_argument, NULL, O_COMPRESS },
		{ "zstd-level", required_argument, NULL, O_LEVEL },
		{ "warnings-as-errors", no_argument, NULL, O_WERROR },
		{ "clip", required_argument, NULL, O_CLIP },
		{ "skeleton", required_argument, NULL, O_SKELETON },
		{ "relative-to-bind", no_argument, NULL, O_RELATIVE },
		{ "ticks-per-second", required_argument, NULL, O_TICKS },
		{ "import-timeout", required_argument, NULL, O_TIMEOUT },
		{ "tolerance", required_argument, NULL, O_TOLERANCE },
		{ "layout", required_argument, NULL, O_LAYOUT },
		{ "shell-distance", required_argument, NULL, O_SHELL },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":o:qvh", options, NULL)) != -1) {
		switch (c) {
		case 'o':
			b->out_dir = optarg;
			break;
		case O_EXACT:
			b->process.exact = true;
			break;
		case O_PLATFORM:
			if (strlen(optarg) != 1 || !strchr(animc_xnb_platforms(), optarg[0]))
				return cli_usage_error("build", "--platform '%s' is not one of the letters %s",
						       optarg, animc_xnb_platforms());
			b->xnb.platform = optarg[0];
			break;
		case O_READER: {
			size_t bad;

			if (!optarg[0])
				return cli_usage_error("build", "--reader-name is empty");
			if (!animc_utf8_check(optarg, strlen(optarg), &bad))
				return cli_usage_error("build", "--reader-name is not UTF-8 (byte %zu)", bad);
			b->xnb.reader_name = optarg;
			break;
		}
		case O_COMPRESS:
			if (strcmp(optarg, "zstd") == 0)
				b->xnb.compression = ANIMC_COMPRESSION_ZSTD;
			else if (strcmp(optarg, "none") == 0)
				b->xnb.compression = ANIMC_COMPRESSION_NONE;
			else
				return cli_usage_error("build", "--compress '%s': use zstd or none", optarg);
			break;
		case O_LEVEL: {
			char *end;
			long level = strtol(optarg, &end, 10);

			if (*end || end == optarg || level < 1 || level > 22)
				return cli_usage_error("build", "--zstd-level '%s' is not between 1 and 22",
						       optarg);
			b->xnb.zstd_level = (int)level;
			break;
		}
		case O_WERROR:
			b->warnings_as_errors = true;
			break;
		case O_SKELETON:
			b->skeleton_path = optarg;
			break;
		case O_RELATIVE:
			b->import.relative_to_bind = true;
			break;
		case O_TICKS: {
			char *end;
			double rate = strtod(optarg, &end);

			if (end == optarg || *end || !isfinite(rate) || !(rate > 0))
				return cli_usage_error("build", "--ticks-per-second '%s' is not a number above 0",
						       optarg);
			b->import.ticks_per_second = rate;
			break;
		}
		case O_TIMEOUT: {
			char *end;
			double seconds = strtod(optarg, &end);

			if (end == optarg || *end || !isfinite(seconds) || seconds < 0)
				return cli_usage_error("build", "--import-timeout '%s' is not a number of "
						       "seconds (0 for no limit)", optarg);
			b->import_timeout_s = seconds;
			break;
		}
		case O_TOLERANCE:
			if (!cli_parse_tolerance(optarg, &b->process.reduce.tolerance))
				return cli_usage_error("build", "--tolerance '%s': give 'default' or three "
						       "numbers >= 0, T,R,S (units, degrees, scale)", optarg);
			break;
		case O_LAYOUT:
			if (strcmp(optarg, "compact") == 0)
				b->process.layout = ANIMC_LAYOUT_COMPACT;
			else if (strcmp(optarg, "original") == 0)
				b->process.layout = ANIMC_LAYOUT_ORIGINAL;
			else
				return cli_usage_error("build", "--layout '%s': use original or compact", optarg);
			break;
		case O_SHELL: {
			char *end;
			double d = strtod(optarg, &end);

			if (end == optarg || *end || !isfinite(d) || !(d > 0) || d > 1e30)
				return cli_usage_error("build", "--shell-distance '%s': give a distance > 0 in "
						       "model units", optarg);
			b->process.reduce.shell_distance = (float)d;
			break;
		}
		case O_CLIP:
			if (!cli_strings_push(&b->clip_names, optarg))
				return cli_usage_error("build", "out of memory");
			break;
		case 'q':
			b->quiet = true;
			break;
		case 'v':
			b->verbose = true;
			break;
		case 'h':
			help(stdout);
			return -1;
		case ':':
			return cli_usage_error("build", "option '%s' needs a value", argv[optind - 1]);
		default:
			return cli_usage_error("build", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (!b->out_dir)
		return cli_usage_error("build", "no output folder: give -o OUTDIR");
	if (optind >= argc)
		return cli_usage_error("build", "no inputs: give files or folders to compile");
	if (b->quiet && b->verbose)
		return cli_usage_error("build", "--quiet and --verbose contradict each other");
	if (b->process.exact && b->process.layout == ANIMC_LAYOUT_COMPACT)
		return cli_usage_error("build", "--exact and --layout compact contradict each other: --exact "
				       "writes the original pipeline's bytes");
	if (b->process.exact && animc_tolerance_is_set(&b->process.reduce.tolerance))
		return cli_usage_error("build", "--exact and --tolerance contradict each other: --exact "
				       "writes the source's keys as they are");
	if (b->process.reduce.shell_distance > 0 && !b->skeleton_path)
		return cli_usage_error("build", "--shell-distance needs --skeleton MODEL: the shell is "
				       "measured through the model's bones");
	if (b->import.relative_to_bind && !b->skeleton_path)
		return cli_usage_error("build", "--relative-to-bind needs --skeleton MODEL: the rest "
				       "transforms come from the model");
	return 0;
}

static int run(int argc, char **argv)
{
	builder b;
	char why[512];
	int status;

	memset(&b, 0, sizeof b);
	b.report_fd = -1;
	b.import_timeout_s = 120;
	b.printer.out = stderr;
	status = parse_options(&b, argc, argv);
	if (status) {
		cli_strings_release(&b.clip_names);
		return status < 0 ? ANIMC_EXIT_OK : status;
	}
	b.printer.show_notes = b.verbose;
	if (b.skeleton_path) {
		animc_diag_sink sink = { cli_print_diag, &b.printer, b.skeleton_path, 0, 0 };

		if (animc_skeleton_load(b.skeleton_path, &b.skeleton, &sink) != ANIMC_OK) {
			cli_strings_release(&b.clip_names);
			return ANIMC_EXIT_FAILED;
		}
		b.import.skeleton = &b.skeleton;
		/* The lossy passes measure the error on the model's shell. */
		b.process.reduce.skeleton = &b.skeleton;
		if (!(b.process.reduce.shell_distance > 0))
			b.process.reduce.shell_distance = CLI_SHELL_DISTANCE;
	}
	cli_install_signal_cleanup();
	if (!cli_mkdir_p(b.out_dir, why, sizeof why)) {
		fprintf(stderr, "%s: error: %s\n", b.out_dir, why);
		return ANIMC_EXIT_FAILED;
	}
	if (!gather(&b, argv + optind, argc - optind)) {
		fprintf(stderr, "animc: error: out of memory\n");
		return ANIMC_EXIT_FAILED;
	}
	for (size_t i = 0; i < b.job_count; i++) {
		compile_job(&b, &b.jobs[i], i + 1);
		fflush(stdout);
	}
	if (!b.quiet || b.failed)
		printf("compiled %u, failed %u, skipped %u\n", b.compiled, b.failed, b.skipped);
	for (size_t i = 0; i < b.job_count; i++) {
		free(b.jobs[i].path);
		free(b.jobs[i].rel_dir);
	}
	cli_strings_release(&b.clip_names);
	animc_skeleton_release(&b.skeleton);
	cli_strings_release(&b.outputs);
	free(b.output_slots);
	free(b.jobs);
	return b.failed ? ANIMC_EXIT_FAILED : ANIMC_EXIT_OK;
}

const animc_command animc_cmd_build = {
	.name = "build",
	.summary = "compile sources into .xnb files: animc build -o OUTDIR INPUT...",
	.run = run,
	.help = help,
};
