/*
 * test_support.c - helpers for the test suite (see test_support.h).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <ftw.h>
#include <iconv.h>
#include <netinet/in.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <animc/animc_formats.h>
#include <animc/animrt.h>

#include "cli.h"
#include "test_support.h"

extern char **environ;

unsigned long test_strcmp_calls;

int strcmp(const char *a, const char *b)
{
	const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;

	test_strcmp_calls++;
	while (*p && *p == *q)
		p++, q++;
	return *p - *q;
}

uint8_t *test_read_file(const char *path, size_t *size)
{
	uint8_t *data;
	size_t n;
	cli_error err;

	if (!cli_read_file(path, &data, &n, &err))
		fail_msg("cannot read '%s': %s", path, err.message);
	if (size)
		*size = n;
	return data;
}

bool test_write_file(const char *path, const void *data, size_t size)
{
	FILE *fp = fopen(path, "wb");
	bool ok;

	if (!fp)
		return false;
	ok = fwrite(data, 1, size, fp) == size;
	return fclose(fp) == 0 && ok;
}

bool test_file_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

bool test_has_running_marker(const char *out_dir)
{
	char *state_dir = test_format("%s/.animc", out_dir);
	DIR *d = opendir(state_dir);
	struct dirent *e;
	bool found = false;

	while (d && !found && (e = readdir(d)))
		found = strncmp(e->d_name, "running.", 8) == 0;
	if (d)
		closedir(d);
	free(state_dir);
	return found;
}

bool test_same_bytes(const char *a, const char *b)
{
	size_t na, nb;
	uint8_t *x = test_read_file(a, &na), *y = test_read_file(b, &nb);
	bool same = na == nb && memcmp(x, y, na) == 0;

	free(x);
	free(y);
	return same;
}

uint8_t *test_utf16(const char *text, size_t size, bool is_big_endian, bool has_bom, size_t *out_size)
{
	iconv_t cd = iconv_open(is_big_endian ? "UTF-16BE" : "UTF-16LE", "UTF-8");
	size_t room = 2 + size * 2, left = room - 2;
	uint8_t *out = malloc(room);
	char *in = malloc(size + 1), *from = in, *to = (char *)out + 2;

	/* iconv takes its input through a pointer to non-const. */
	assert_true(cd != (iconv_t)-1 && out && in);
	memcpy(in, text, size);
	assert_true(iconv(cd, &from, &size, &to, &left) != (size_t)-1);
	iconv_close(cd);
	free(in);
	out[0] = is_big_endian ? 0xFE : 0xFF;
	out[1] = is_big_endian ? 0xFF : 0xFE;
	*out_size = room - 2 - left;
	if (has_bom)
		*out_size += 2;
	else
		memmove(out, out + 2, *out_size);
	return out;
}

uint8_t *test_utf32(const char *text, size_t size, bool is_big_endian, bool has_bom, size_t *out_size)
{
	iconv_t cd = iconv_open(is_big_endian ? "UTF-32BE" : "UTF-32LE", "UTF-8");
	size_t room = 4 + size * 4, left = room - 4;
	uint8_t *out = malloc(room);
	char *in = malloc(size + 1), *from = in, *to = (char *)out + 4;

	assert_true(cd != (iconv_t)-1 && out && in);
	memcpy(in, text, size);
	assert_true(iconv(cd, &from, &size, &to, &left) != (size_t)-1);
	iconv_close(cd);
	free(in);
	memcpy(out, is_big_endian ? "\0\0\xFE\xFF" : "\xFF\xFE\0\0", 4);
	*out_size = room - 4 - left;
	if (has_bom)
		*out_size += 4;
	else
		memmove(out, out + 4, *out_size);
	return out;
}

char *test_format(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	assert_non_null(s);
	return s;
}

const char *test_current_name;

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) == 0 || errno == ENOENT ? 0 : -1;
}

char *test_tmpdir(const char *name)
{
	const char *build = getenv("ANIMC_BUILD");
	char *dir = test_current_name ? test_format("%s/test-tmp/%s/%s", build ? build : "build",
						    test_current_name, name)
				      : test_format("%s/test-tmp/%s", build ? build : "build", name);
	cli_error err;

	if (nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS) != 0 && errno != ENOENT)
		fail_msg("cannot empty '%s': %s", dir, strerror(errno));
	if (!cli_mkdir_p(dir, &err))
		fail_msg("cannot create '%s': %s", dir, err.message);
	return dir;
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **test_list_dir(const char *dir, const char *suffix)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **list = NULL;
	size_t n = 0;

	if (!d)
		fail_msg("cannot read folder '%s': %s", dir, strerror(errno));
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name), slen = suffix ? strlen(suffix) : 0;

		if (e->d_name[0] == '.')
			continue;
		if (suffix && (len < slen || strcmp(e->d_name + len - slen, suffix) != 0))
			continue;
		list = realloc(list, (n + 2) * sizeof *list);
		assert_non_null(list);
		list[n++] = strdup(e->d_name);
	}
	closedir(d);
	if (!list) {
		list = calloc(1, sizeof *list);
		assert_non_null(list);
	}
	qsort(list, n, sizeof *list, compare_strings);
	list[n] = NULL;
	return list;
}

void test_free_list(char **list)
{
	if (!list)
		return;
	for (char **p = list; *p; p++)
		free(*p);
	free(list);
}

size_t test_count_files(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char *path;
		struct stat st;

		/* .animc holds a build's own state (manifest, lock), not outputs. */
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
		    strcmp(e->d_name, ".animc") == 0)
			continue;
		path = test_format("%s/%s", dir, e->d_name);
		if (lstat(path, &st) == 0)
			n += S_ISDIR(st.st_mode) ? test_count_files(path) : 1;
		free(path);
	}
	closedir(d);
	return n;
}

const char *test_animc_path(void)
{
	const char *bin = getenv("ANIMC_BIN");

	return bin ? bin : "build/animc";
}

/* Read both pipes to the end without deadlocking on either. */
static void drain(int out_fd, int err_fd, char **out, char **err)
{
	struct pollfd fds[2] = { { out_fd, POLLIN, 0 }, { err_fd, POLLIN, 0 } };
	char *bufs[2] = { NULL, NULL };
	size_t lens[2] = { 0, 0 }, caps[2] = { 0, 0 };
	int open_count = 2;

	while (open_count) {
		if (poll(fds, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int i = 0; i < 2; i++) {
			char chunk[65536];
			ssize_t n;

			if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			n = read(fds[i].fd, chunk, sizeof chunk);
			if (n <= 0) {
				close(fds[i].fd);
				fds[i].fd = -1;
				open_count--;
				continue;
			}
			if (lens[i] + (size_t)n + 1 > caps[i]) {
				caps[i] = (lens[i] + (size_t)n + 1) * 2;
				bufs[i] = realloc(bufs[i], caps[i]);
				assert_non_null(bufs[i]);
			}
			memcpy(bufs[i] + lens[i], chunk, (size_t)n);
			lens[i] += (size_t)n;
		}
	}
	for (int i = 0; i < 2; i++) {
		if (!bufs[i]) {
			bufs[i] = malloc(1);
			assert_non_null(bufs[i]);
		}
		bufs[i][lens[i]] = '\0';
	}
	*out = bufs[0];
	*err = bufs[1];
}

test_run test_execv(const char *const *argv)
{
	return test_execv_stdin(argv, NULL);
}

test_run test_execv_stdin(const char *const *argv, const char *stdin_path)
{
	posix_spawn_file_actions_t actions;
	int out_pipe[2], err_pipe[2], wstatus;
	test_run run = { -1, NULL, NULL };
	char *args[64];
	size_t argc = 0;
	pid_t pid;

	/* posix_spawn takes char *const[]: give it copies. */
	for (; argv[argc] && argc < 63; argc++)
		args[argc] = strdup(argv[argc]);
	args[argc] = NULL;
	assert_int_equal(pipe(out_pipe), 0);
	assert_int_equal(pipe(err_pipe), 0);
	posix_spawn_file_actions_init(&actions);
	posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
	posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
	posix_spawn_file_actions_addclose(&actions, out_pipe[0]);
	posix_spawn_file_actions_addclose(&actions, err_pipe[0]);
	if (stdin_path)
		posix_spawn_file_actions_addopen(&actions, 0, stdin_path, O_RDONLY, 0);
	if (posix_spawnp(&pid, args[0], &actions, NULL, args, environ) != 0)
		fail_msg("cannot run '%s'", argv[0]);
	posix_spawn_file_actions_destroy(&actions);
	for (size_t i = 0; i < argc; i++)
		free(args[i]);
	close(out_pipe[1]);
	close(err_pipe[1]);
	drain(out_pipe[0], err_pipe[0], &run.out, &run.err);
	while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR)
		;
	run.status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
	return run;
}

static test_run exec_va(const char *first, const char *arg, va_list ap)
{
	const char *argv[64];
	size_t n = 0;

	argv[n++] = first;
	for (; arg && n < 63; arg = va_arg(ap, const char *))
		argv[n++] = arg;
	argv[n] = NULL;
	return test_execv(argv);
}

test_run test_animc(const char *arg, ...)
{
	va_list ap;
	test_run run;

	va_start(ap, arg);
	run = exec_va(test_animc_path(), arg, ap);
	va_end(ap);
	return run;
}

void test_sh(const char *fmt, ...)
{
	va_list ap;
	char cmd[4096];

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof cmd, fmt, ap);
	va_end(ap);
	if (system(cmd) != 0)
		fail_msg("failed: %s", cmd);
}

test_run test_exec(const char *arg, ...)
{
	va_list ap;
	test_run run;

	va_start(ap, arg);
	run = exec_va(arg, va_arg(ap, const char *), ap);
	va_end(ap);
	return run;
}

/* The files of a check's report that it found hanging and nothing else:
 * a line naming the file, then lines of two spaces, each a hang.  NULL when
 * something else was found (or nothing could be read). */
static char **hung_files(const char *report)
{
	char **files = NULL;
	size_t n = 0;
	const char *line = report;
	bool is_hang_only = true;

	while (line && *line && is_hang_only) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);

		if (len > 2 && line[0] == ' ' && line[1] == ' ') {
			is_hang_only = strncmp(line + 2, "ORIGINAL RUNTIME HANGS", 22) == 0;
		} else if (len > 4 && strncmp(line + len - 4, ".xnb", 4) == 0) {
			files = realloc(files, (n + 2) * sizeof *files);
			files[n++] = test_format("%.*s", (int)len, line);
			files[n] = NULL;
		}
		line = end ? end + 1 : NULL;
	}
	if (!is_hang_only || !n) {
		test_free_list(files);
		return NULL;
	}
	return files;
}

/* True when an executable `name` is in one of PATH's folders. */
static bool on_path(const char *name)
{
	const char *path = getenv("PATH");
	bool found = false;

	while (path && *path && !found) {
		const char *end = strchr(path, ':');
		size_t len = end ? (size_t)(end - path) : strlen(path);
		/* An empty entry is the current folder. */
		char *candidate = len ? test_format("%.*s/%s", (int)len, path, name) : test_format("./%s", name);

		found = access(candidate, X_OK) == 0;
		free(candidate);
		path = end ? end + 1 : NULL;
	}
	return found;
}

const char *test_fna_missing(void)
{
	if (!test_file_exists(TEST_FNA_CHECK))
		return TEST_FNA_CHECK " not found (the original runtime lives in ../shared)";
	if (!on_path("mono"))
		return "mono not found (scripts/install-deps installs mono-runtime and libmono-system4.0-cil "
		       "for make test)";
	return NULL;
}

test_run test_fna_play(const char *const *paths)
{
	const char *argv[64] = { TEST_FNA_CHECK, "--play", test_animc_path() };
	size_t argc = 3;
	test_run first;
	char *latest;   /* the last run's report */

	for (; *paths && argc < 63; paths++)
		argv[argc++] = *paths;
	argv[argc] = NULL;
	first = test_execv(argv);
	latest = strdup(first.out);
	for (int attempt = 1; first.status == 1 && attempt <= 2; attempt++) {
		char **hung = hung_files(latest);
		test_run again;
		char *joined;

		if (!hung)
			break;
		argc = 3;
		for (char **p = hung; *p && argc < 63; p++)
			argv[argc++] = *p;
		argv[argc] = NULL;
		again = test_execv(argv);
		joined = test_format("%splayed again alone (try %d): exit %d\n%s", first.out, attempt + 1,
				     again.status, again.out);
		free(first.out);
		first.out = joined;
		if (again.status == 0)
			first.status = 0;
		free(latest);
		latest = strdup(again.out);
		test_run_release(&again);
		test_free_list(hung);
	}
	free(latest);
	return first;
}

void test_run_release(test_run *run)
{
	free(run->out);
	free(run->err);
	run->out = run->err = NULL;
}

void test_run_ok_at(test_run run, const char *file, int line)
{
	int status = run.status;

	if (status != 0)
		print_error("exit %d\n%s%s", status, run.out, run.err);
	test_run_release(&run);
	if (status != 0)
		_fail(file, line);
}

const char *test_corpus_dir(void)
{
	struct stat st;

	return stat("../shared/corpus", &st) == 0 && S_ISDIR(st.st_mode) ? "../shared/corpus" : NULL;
}

static void collect(void *user, const animc_diag *d)
{
	test_diags *diags = user;
	test_diag *item;

	if (diags->echo)
		fprintf(stderr, "  [diag] %s:%u:%u: %d: %s\n", d->path ? d->path : "-", d->line, d->column,
			(int)d->severity, d->message);
	if (diags->count == diags->capacity) {
		diags->capacity = diags->capacity ? diags->capacity * 2 : 8;
		diags->items = realloc(diags->items, diags->capacity * sizeof *diags->items);
		assert_non_null(diags->items);
	}
	item = &diags->items[diags->count++];
	item->severity = d->severity;
	item->line = d->line;
	item->column = d->column;
	item->byte_offset = d->byte_offset;
	item->message = strdup(d->message);
	item->kind = d->kind;
}

animc_diag_sink test_diag_sink(test_diags *diags, const char *path)
{
	animc_diag_sink sink = { collect, diags, path, 0, 0 };

	return sink;
}

const test_diag *test_diags_first(const test_diags *diags, animc_severity severity)
{
	for (size_t i = 0; i < diags->count; i++)
		if (diags->items[i].severity == severity)
			return &diags->items[i];
	return NULL;
}

size_t test_diags_count(const test_diags *diags, animc_severity severity)
{
	size_t n = 0;

	for (size_t i = 0; i < diags->count; i++)
		n += diags->items[i].severity == severity;
	return n;
}

void test_diags_release(test_diags *diags)
{
	for (size_t i = 0; i < diags->count; i++)
		free(diags->items[i].message);
	free(diags->items);
	diags->items = NULL;
	diags->count = diags->capacity = 0;
}

uint32_t test_add_channel(animc_clip *clip, const char *bone, uint32_t key_count, const float *times,
			  float interval_s, float duration_s)
{
	int64_t i = animc_clip_add_channel(clip, bone, strlen(bone));
	animc_channel *ch;

	assert_true(i >= 0);
	ch = &clip->channels[i];
	ch->key_count = key_count;
	ch->key_interval_s = interval_s;
	ch->duration_s = duration_s;
	if (times) {
		ch->has_time = true;
		ch->times_s = animc_clip_alloc_floats(clip, key_count);
		assert_non_null(ch->times_s);
		memcpy(ch->times_s, times, key_count * sizeof(float));
	}
	return (uint32_t)i;
}

void test_set_track(animc_clip *clip, uint32_t ch, animc_track_kind kind, bool is_fixed,
		    const float *values, uint32_t count, const float *times)
{
	animc_track *t = &clip->channels[ch].tracks[kind];

	t->is_present = true;
	t->is_fixed = is_fixed;
	t->value_count = count;
	t->values = animc_clip_alloc_values(clip, kind, count);
	assert_non_null(t->values);
	memcpy(t->values, values, (size_t)count * animc_track_width[kind] * sizeof(float));
	t->times_s = NULL;
	if (times) {
		t->times_s = animc_clip_alloc_floats(clip, count);
		assert_non_null(t->times_s);
		memcpy(t->times_s, times, count * sizeof(float));
	}
}

void test_assert_near(double got, double want, double tolerance)
{
	if (!(fabs(got - want) <= tolerance))
		fail_msg("got %.9g, expected %.9g", got, want);
}

const animrt_sequence *test_sequence_of(const animrt_clip *clip, const char *bone)
{
	for (uint32_t i = 0; i < clip->sequence_count; i++)
		if (strcmp(clip->sequences[i].bone, bone) == 0)
			return &clip->sequences[i];
	fail_msg("no sequence for bone '%s'", bone);
	return NULL;
}

/* ------------------------------------------------------- runtime error */

static double angle_deg(const float *a, const float *b)
{
	double ax = a[0], ay = a[1], az = a[2], aw = a[3], bx = b[0], by = b[1], bz = b[2], bw = b[3];
	double w = aw * bw + ax * bx + ay * by + az * bz;
	double x = aw * bx - ax * bw - ay * bz + az * by;
	double y = aw * by - ay * bw - az * bx + ax * bz;
	double z = aw * bz - az * bw - ax * by + ay * bx;

	return 2.0 * atan2(sqrt(x * x + y * y + z * z), fabs(w)) * (180.0 / 3.14159265358979323846);
}

static void compare_at(const animrt_clip *a, const animrt_clip *b, animrt_pose *pa, animrt_pose *pb,
		       float t, test_error *e)
{
	assert_int_equal(animrt_clip_sample(a, t, ANIMRT_PLAY_ONCE, NULL, pa), ANIMRT_OK);
	assert_int_equal(animrt_clip_sample(b, t, ANIMRT_PLAY_ONCE, NULL, pb), ANIMRT_OK);
	for (uint32_t i = 0; i < a->sequence_count; i++) {
		double d2 = 0, ds = 0;

		for (int k = 0; k < 3; k++) {
			double d = (double)pa->translation[3 * i + k] - pb->translation[3 * i + k];

			d2 += d * d;
			ds = fmax(ds, fabs((double)pa->scale[3 * i + k] - pb->scale[3 * i + k]));
		}
		e->translation = fmax(e->translation, sqrt(d2));
		e->scale = fmax(e->scale, ds);
		e->rotation_deg = fmax(e->rotation_deg, angle_deg(pa->rotation + 4 * i, pb->rotation + 4 * i));
		e->samples++;
	}
}

test_error test_compare_compiled(const uint8_t *source, size_t source_size, const uint8_t *compiled,
				 size_t compiled_size, double extra_hz)
{
	animrt_clip *a = NULL, *b = NULL;
	animrt_error err;
	test_error e = { 0, 0, 0, 0 };

	if (animrt_open(source, source_size, &a, &err) != ANIMRT_OK)
		fail_msg("source: %s", err.message);
	if (animrt_open(compiled, compiled_size, &b, &err) != ANIMRT_OK)
		fail_msg("compiled: %s", err.message);
	assert_int_equal(a->sequence_count, b->sequence_count);
	for (uint32_t i = 0; i < a->sequence_count; i++)
		assert_string_equal(animrt_clip_bone_name(a, i, NULL), animrt_clip_bone_name(b, i, NULL));
	uint32_t n = a->sequence_count;
	void *ma = malloc(animrt_pose_size_bytes(n ? n : 1)), *mb = malloc(animrt_pose_size_bytes(n ? n : 1));
	animrt_pose pa, pb;

	assert_true(ma && mb);
	animrt_pose_init(&pa, ma, n);
	animrt_pose_init(&pb, mb, n);
	float d = a->duration_s;
	for (int i = 0;; i++) {
		float t = (float)(i / 60.0);

		if (t > d)
			break;
		compare_at(a, b, &pa, &pb, t, &e);
	}
	compare_at(a, b, &pa, &pb, d, &e);
	for (uint32_t s = 0; s < n; s++) {
		const animrt_sequence *q = &a->sequences[s];

		for (uint32_t k = 0; k < q->key_count; k++) {
			float t = q->has_time ? q->times_s[k] : (float)((double)k * q->key_interval_s);

			if (t <= d)
				compare_at(a, b, &pa, &pb, t, &e);
		}
	}
	/* A compact file's grid samples: at their own times, which on a float
	 * rate lie a little off the keys they hold. */
	for (uint32_t i = 0; b->compact && i < b->grid_sample_count; i++) {
		float t = (float)((double)i / b->grid_rate_hz);

		if (t <= d)
			compare_at(a, b, &pa, &pb, t, &e);
	}
	if (extra_hz > 0)
		for (uint64_t i = 0;; i++) {
			float t = (float)((double)i / extra_hz);

			if (t > d)
				break;
			compare_at(a, b, &pa, &pb, t, &e);
		}
	free(ma);
	free(mb);
	animrt_close(a);
	animrt_close(b);
	return e;
}

void test_axis_angle(float out[4], double ax, double ay, double az, double angle_rad)
{
	double n = sqrt(ax * ax + ay * ay + az * az), s = sin(angle_rad / 2) / n;

	out[0] = (float)(ax * s);
	out[1] = (float)(ay * s);
	out[2] = (float)(az * s);
	out[3] = (float)cos(angle_rad / 2);
}

test_error test_compare_files(const char *source, const char *compiled, double extra_hz, bool is_smaller)
{
	size_t na, nb;
	uint8_t *a = test_read_file(source, &na), *b = test_read_file(compiled, &nb);
	test_error e;

	if (is_smaller && !(nb < na))
		fail_msg("%s: %zu bytes, not fewer than %s's %zu", compiled, nb, source, na);
	e = test_compare_compiled(a, na, b, nb, extra_hz);
	free(a);
	free(b);
	return e;
}

test_error test_compare_clips(const animc_clip *source, const animc_clip *processed, double extra_hz)
{
	uint8_t *a = NULL, *b = NULL;
	size_t na = 0, nb = 0;
	test_error e;

	assert_int_equal(animc_xnb_write(source, NULL, &a, &na, NULL), ANIMC_OK);
	assert_int_equal(animc_xnb_write(processed, NULL, &b, &nb, NULL), ANIMC_OK);
	e = test_compare_compiled(a, na, b, nb, extra_hz);
	free(a);
	free(b);
	return e;
}

animc_status test_status_named(const char *name)
{
	static const struct {
		const char *name;
		animc_status status;
	} names[] = {
		{ "parse", ANIMC_ERR_PARSE }, { "invalid", ANIMC_ERR_INVALID }, { "limit", ANIMC_ERR_LIMIT },
		{ "unsupported", ANIMC_ERR_UNSUPPORTED }, { "io", ANIMC_ERR_IO },
		{ "argument", ANIMC_ERR_ARGUMENT },
	};

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(names[i].name, name) == 0)
			return names[i].status;
	fail_msg("unknown status '%s' in expected.txt", name);
	return ANIMC_OK;
}

animc_status test_compile_file(const char *path, test_diags *diags, const animc_importer *want)
{
	size_t size;
	uint8_t *data = test_read_file(path, &size);
	animc_diag_sink sink = test_diag_sink(diags, path);
	const animc_importer *imp = animc_importer_find(path, data, size);
	animc_import_request req = { path, data, size, NULL };
	animc_clip_set set = { 0 };
	animc_status status;

	if (!imp || (want && imp != want))
		fail_msg("%s: not recognised as %s", path, want ? want->name : "any format");
	status = imp->import(&req, &set, &sink);
	if (status != ANIMC_OK)
		assert_int_equal(set.count, 0);
	for (uint32_t i = 0; status == ANIMC_OK && i < set.count; i++)
		status = animc_clip_process(set.clips[i], NULL, &sink, NULL);
	animc_clip_set_release(&set);
	free(data);
	return status;
}

/* ------------------------------------------------------------ servers */

int test_free_port(void)
{
	struct sockaddr_in addr = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof addr;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&addr, sizeof addr), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&addr, &len), 0);
	close(fd);
	return ntohs(addr.sin_port);
}

static const char *nginx_path(void)
{
	static const char *const candidates[] = { "/usr/sbin/nginx", "/usr/local/sbin/nginx", NULL };

	for (size_t i = 0; candidates[i]; i++)
		if (access(candidates[i], X_OK) == 0)
			return candidates[i];
	return NULL;
}

static bool port_answers(int port)
{
	struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				    .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	bool ok = fd >= 0 && connect(fd, (struct sockaddr *)&addr, sizeof addr) == 0;

	if (fd >= 0)
		close(fd);
	return ok;
}

static void write_nginx_config(const test_nginx *s, const char *user, const char *password)
{
	char *conf = test_format("%s/nginx.conf", s->dir);
	char *htpasswd = test_format("%s/htpasswd", s->dir);
	struct passwd *me = getpwuid(geteuid());
	char *auth = user ? test_format("      auth_basic \"cache\";\n      auth_basic_user_file %s;\n", htpasswd)
			  : strdup("");
	FILE *fp;

	if (user) {
		fp = fopen(htpasswd, "w");
		assert_non_null(fp);
		/* nginx reads "{PLAIN}" passwords as they are. */
		fprintf(fp, "%s:{PLAIN}%s\n", user, password ? password : "");
		fclose(fp);
	}
	fp = fopen(conf, "w");
	assert_non_null(fp);
	/* One process (master_process off), so that the test's SIGTERM and its
	 * death signal reach all of nginx. */
	if (geteuid() == 0 && me)
		fprintf(fp, "user %s;\n", me->pw_name);
	fprintf(fp,
		"daemon off;\n"
		"master_process off;\n"
		"worker_processes 1;\n"
		"pid %1$s/nginx.pid;\n"
		"error_log %1$s/error.log warn;\n"
		"events { worker_connections 256; }\n"
		"http {\n"
		"  log_format animc '$request_method $uri $status';\n"
		"  access_log %1$s/access.log animc;\n"
		"  client_body_temp_path %1$s/body;\n"
		"  proxy_temp_path %1$s/proxy;\n"
		"  fastcgi_temp_path %1$s/fastcgi;\n"
		"  uwsgi_temp_path %1$s/uwsgi;\n"
		"  scgi_temp_path %1$s/scgi;\n"
		"  server {\n"
		"    listen 127.0.0.1:%2$d;\n"
		"    client_max_body_size 0;\n"
		"    location / {\n"
		"      root %3$s;\n"
		"      dav_methods PUT;\n"
		"      create_full_put_path on;\n"
		"      dav_access user:rw group:r all:r;\n"
		"    }\n"
		"    location /ro/ {\n"
		"      alias %3$s/;\n"
		"    }\n"
		"    location /auth/ {\n"
		"      root %3$s;\n"
		"      dav_methods PUT;\n"
		"      create_full_put_path on;\n"
		"%4$s"
		"    }\n"
		"  }\n"
		"}\n",
		s->dir, s->port, s->root, auth);
	fclose(fp);
	free(auth);
	free(conf);
	free(htpasswd);
}

/* Servers running, for test_nginx_teardown. */
static int running_servers[8];

static void note_server(int pid, bool is_running)
{
	for (size_t i = 0; i < sizeof running_servers / sizeof *running_servers; i++)
		if (running_servers[i] == (is_running ? 0 : pid)) {
			running_servers[i] = is_running ? pid : 0;
			return;
		}
}

int test_nginx_teardown(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof running_servers / sizeof *running_servers; i++)
		if (running_servers[i]) {
			kill(running_servers[i], SIGKILL);
			waitpid(running_servers[i], NULL, 0);
			running_servers[i] = 0;
		}
	return 0;
}

void test_nginx_start(test_nginx *s, const char *dir, const char *user, const char *password)
{
	const char *nginx = nginx_path();

	memset(s, 0, sizeof *s);
	if (!nginx) {
		print_message("skipped: nginx not found (apt-get install nginx)\n");
		skip();
	}
	/* nginx reads relative paths from its prefix: give it absolute ones. */
	s->dir = realpath(dir, NULL);
	assert_non_null(s->dir);
	dir = s->dir;
	s->root = test_format("%s/root", dir);
	assert_true(cli_mkdir_p(s->root, NULL));
	/* A port can be taken between choosing it and nginx binding it. */
	for (int attempt = 0; attempt < 5 && !s->pid; attempt++) {
		char *conf = test_format("%s/nginx.conf", dir), *log = test_format("%s/error.log", dir);
		pid_t pid;

		s->port = test_free_port();
		write_nginx_config(s, user, password);
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			int null = open("/dev/null", O_RDWR);
			int err = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);

			prctl(PR_SET_PDEATHSIG, SIGKILL);
			dup2(null, 0);
			dup2(null, 1);
			if (err >= 0)
				dup2(err, 2);
			execl(nginx, "nginx", "-p", dir, "-c", conf, "-e", log, (char *)NULL);
			_exit(127);
		}
		for (int i = 0; i < 500; i++) {
			int status;

			if (waitpid(pid, &status, WNOHANG) == pid)
				break;
			if (port_answers(s->port)) {
				s->pid = pid;
				break;
			}
			usleep(10000);
		}
		if (!s->pid) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
		}
		free(conf);
		free(log);
	}
	if (!s->pid)
		fail_msg("nginx did not start (see %s/error.log)", dir);
	note_server(s->pid, true);
	s->url = test_format("http://127.0.0.1:%d", s->port);
}

void test_nginx_stop(test_nginx *s)
{
	if (!s->pid)
		return;
	note_server(s->pid, false);
	kill(s->pid, SIGTERM);
	for (int i = 0; i < 300; i++) {
		if (waitpid(s->pid, NULL, WNOHANG) == s->pid) {
			s->pid = 0;
			return;
		}
		usleep(10000);
	}
	kill(s->pid, SIGKILL);
	waitpid(s->pid, NULL, 0);
	s->pid = 0;
}

size_t test_nginx_count_requests(const test_nginx *server, const char *prefix)
{
	char *path = test_format("%s/access.log", server->dir);
	char *log = (char *)test_read_file(path, NULL), *line = log;
	size_t n = 0;

	while (*line) {
		n += strncmp(line, prefix, strlen(prefix)) == 0;
		line += strcspn(line, "\n");
		line += *line == '\n';
	}
	free(log);
	free(path);
	return n;
}

void test_nginx_release(test_nginx *s)
{
	test_nginx_stop(s);
	free(s->dir);
	free(s->root);
	free(s->url);
	memset(s, 0, sizeof *s);
}
