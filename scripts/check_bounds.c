/*
 * check_bounds.c - a lossy output against the lossless output of the same
 * source, as libanimrt plays both, for scripts/check-bounds.
 *
 * usage: check_bounds T,R,S LOSSLESS.xnb LOSSY.xnb [LOSSLESS LOSSY]...
 * T in units, R in degrees, S per scale component: the --tolerance the
 * lossy file was built with.  Samples each pair in Once mode at every key
 * of both files, halfway between keys and a hair to either side of each,
 * each grid sample of a compact file and a hair to either side, every
 * 1/60 s, 4001 times evenly spread and 2000 random times (a fixed seed);
 * and in Repeat mode at the random times over three plays.  Bones are
 * matched by name.  The error: the distance of the translations, the
 * angle between the rotations (q and -q alike), the largest difference of
 * the scales' components.  Prints the worst of each with its file, bone
 * and time; exit 1 when one passes its bound by more than float rounding,
 * or a file does not load or the two hold different bones.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <animc/animrt.h>

typedef struct worst {
	double error;
	const char *file, *bone;
	float time_s;
	unsigned long past;
} worst;

static double bound[3];
static worst worst_of[3];

static int compare_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return (x > y) - (x < y);
}

/* Room for one more time in *times. */
static void add_time(float **times, size_t *count, size_t *capacity, float t)
{
	if (*count == *capacity) {
		*capacity = *capacity ? 2 * *capacity : 1024;
		*times = realloc(*times, *capacity * sizeof **times);
		if (!*times) {
			fputs("check_bounds: out of memory\n", stderr);
			exit(2);
		}
	}
	(*times)[(*count)++] = t;
}

/* t, and the floats next to it on either side. */
static void add_around(float **times, size_t *count, size_t *capacity, float t)
{
	add_time(times, count, capacity, t);
	add_time(times, count, capacity, nextafterf(t, -INFINITY));
	add_time(times, count, capacity, nextafterf(t, INFINITY));
}

/* The times a clip's keys lie at: every key of every sequence (and
 * halfway to the next), each grid sample of a compact clip. */
static void add_key_times(const animrt_clip *clip, float **times, size_t *count, size_t *capacity)
{
	if (clip->compact) {
		for (uint32_t i = 0; i < clip->grid_sample_count; i++) {
			float t = (float)((double)i / clip->grid_rate_hz);

			add_around(times, count, capacity, t);
			add_time(times, count, capacity, (float)(((double)i + 0.5) / clip->grid_rate_hz));
		}
		return;
	}
	for (uint32_t s = 0; s < clip->sequence_count; s++) {
		const animrt_sequence *seq = &clip->sequences[s];

		for (uint32_t k = 0; k < seq->key_count; k++) {
			float t = seq->has_time ? seq->times_s[k] : (float)k * seq->key_interval_s;
			float next = seq->has_time ? (k + 1 < seq->key_count ? seq->times_s[k + 1] : t)
						   : (float)(k + 1) * seq->key_interval_s;

			add_around(times, count, capacity, t);
			add_time(times, count, capacity, t + (next - t) / 2);
		}
	}
}

/* The error of `got` from `want` of track kind k. */
static double track_error(int k, const float *got, const float *want)
{
	if (k == ANIMRT_TRANSLATION) {
		double dx = (double)got[0] - want[0], dy = (double)got[1] - want[1], dz = (double)got[2] - want[2];

		return sqrt(dx * dx + dy * dy + dz * dz);
	}
	if (k == ANIMRT_SCALE)
		return fmax(fabs((double)got[0] - want[0]), fmax(fabs((double)got[1] - want[1]),
								 fabs((double)got[2] - want[2])));
	/* The angle of want^-1 got: 2 atan2(|v|, |w|), exact near 0. */
	double a[4] = { got[0], got[1], got[2], got[3] }, b[4] = { -want[0], -want[1], -want[2], want[3] };
	double w = b[3] * a[3] - b[0] * a[0] - b[1] * a[1] - b[2] * a[2];
	double x = b[3] * a[0] + b[0] * a[3] + b[1] * a[2] - b[2] * a[1];
	double y = b[3] * a[1] - b[0] * a[2] + b[1] * a[3] + b[2] * a[0];
	double z = b[3] * a[2] + b[0] * a[1] - b[1] * a[0] + b[2] * a[3];

	return 2 * atan2(sqrt(x * x + y * y + z * z), fabs(w)) * (180 / 3.14159265358979323846);
}

/* Past the bound by more than float rounding of values as large as v's. */
static bool is_past(int k, double error, const float *v)
{
	if (k == ANIMRT_ROTATION)
		return error > bound[k] * (1 + 1e-3) + 1e-5;
	double most = fmax(fabs(v[0]), fmax(fabs(v[1]), fabs(v[2])));

	return error > bound[k] * (1 + 1e-6) + 4 * FLT_EPSILON * most;
}

static int compare_pair(const char *lossless_path, const char *lossy_path)
{
	animrt_clip *a, *b;
	animrt_error err;

	if (animrt_open_file(lossless_path, &a, &err) != ANIMRT_OK) {
		fprintf(stderr, "%s: %s\n", lossless_path, err.message);
		return 1;
	}
	if (animrt_open_file(lossy_path, &b, &err) != ANIMRT_OK) {
		fprintf(stderr, "%s: %s\n", lossy_path, err.message);
		animrt_close(a);
		return 1;
	}
	uint32_t n = a->sequence_count, *match = calloc(n ? n : 1, sizeof *match);
	int status = 0;

	if (!match || n != b->sequence_count) {
		fprintf(stderr, "%s: %u bones, %s: %u\n", lossless_path, n, lossy_path, b->sequence_count);
		status = 1;
	}
	for (uint32_t i = 0; status == 0 && i < n; i++) {
		const char *name = animrt_clip_bone_name(a, i, NULL);
		uint32_t j = 0;

		while (j < n && strcmp(name, animrt_clip_bone_name(b, j, NULL)) != 0)
			j++;
		if (j == n) {
			fprintf(stderr, "%s: no bone '%s' as in %s\n", lossy_path, name, lossless_path);
			status = 1;
		}
		match[i] = j;
	}
	float *times = NULL;
	size_t count = 0, capacity = 0;
	float d = a->duration_s;

	add_key_times(a, &times, &count, &capacity);
	add_key_times(b, &times, &count, &capacity);
	for (uint32_t i = 0; (float)(i / 60.0) <= d; i++)
		add_time(&times, &count, &capacity, (float)(i / 60.0));
	for (int i = 0; i <= 4000; i++)
		add_time(&times, &count, &capacity, d * (float)i / 4000.0f);
	srand(1);
	for (int i = 0; i < 2000; i++)
		add_time(&times, &count, &capacity, d * (float)((double)rand() / RAND_MAX));
	size_t once = count;
	for (int i = 0; i < 2000; i++)
		add_time(&times, &count, &capacity, 3 * d * (float)((double)rand() / RAND_MAX));
	qsort(times, once, sizeof *times, compare_float);
	for (size_t i = 0; status == 0 && i < count; i++) {
		animrt_play_mode mode = i < once ? ANIMRT_PLAY_ONCE : ANIMRT_PLAY_REPEAT;

		if (times[i] < 0 || (mode == ANIMRT_PLAY_ONCE && times[i] > d))
			continue;
		for (uint32_t s = 0; s < n; s++) {
			float v[2][3][4];

			if (animrt_clip_sample_bone(a, s, times[i], mode, NULL, v[0][0], v[0][1], v[0][2]) != ANIMRT_OK ||
			    animrt_clip_sample_bone(b, match[s], times[i], mode, NULL, v[1][0], v[1][1], v[1][2]) !=
				    ANIMRT_OK) {
				fprintf(stderr, "%s: bone %u does not sample\n", lossy_path, s);
				status = 1;
				break;
			}
			for (int k = 0; k < 3; k++) {
				double e = track_error(k, v[1][k], v[0][k]);

				if (is_past(k, e, v[0][k]))
					worst_of[k].past++;
				if (e > worst_of[k].error) {
					worst_of[k] = (worst){ e, lossy_path, animrt_clip_bone_name(a, s, NULL), times[i],
							       worst_of[k].past };
					worst_of[k].bone = strdup(worst_of[k].bone);
				}
			}
		}
	}
	free(times);
	free(match);
	animrt_close(a);
	animrt_close(b);
	return status;
}

int main(int argc, char **argv)
{
	static const char *const kind[3] = { "translation", "rotation (degrees)", "scale" };
	int status = 0;

	if (argc < 4 || argc % 2 || sscanf(argv[1], "%lf,%lf,%lf", &bound[0], &bound[1], &bound[2]) != 3) {
		fputs("usage: check_bounds T,R,S LOSSLESS.xnb LOSSY.xnb [LOSSLESS LOSSY]...\n", stderr);
		return 2;
	}
	for (int i = 2; i < argc; i += 2)
		status |= compare_pair(argv[i], argv[i + 1]);
	unsigned long past = 0;
	for (int k = 0; k < 3; k++) {
		const worst *w = &worst_of[k];

		printf("  %-19s worst %.6g of %g", kind[k], w->error, bound[k]);
		if (w->file)
			printf(" (%s, bone '%s', %.7g s)", w->file, w->bone, (double)w->time_s);
		printf(", %lu sample%s past it\n", w->past, w->past == 1 ? "" : "s");
		past += w->past;
	}
	return status || past ? 1 : 0;
}
