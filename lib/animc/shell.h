/*
 * shell.h - the rigid-shell error of the lossy passes (shell.c): with a
 * skeleton, the translation bound T applies in model space, through the
 * bone hierarchy, to every point at the shell distance around each bone.
 * Both passes reduce each track against local bounds drawn from the shell
 * (animc_shell_local_tolerance), measure the model-space error of the result
 * against the source (animc_shell_measure), and tighten the bounds of the bones
 * whose shell passes T (animc_shell_tighten).  Not installed.
 */
#ifndef ANIMC_SHELL_H
#define ANIMC_SHELL_H

#include <stdbool.h>
#include <stdint.h>

#include <animc/animc.h>

/* Rounds of measuring and tightening before the error is reported as is. */
#define SHELL_MAX_ROUNDS 6

/*
 * The most points a lossy pass measures a clip at (its 1/60 s checks, the
 * compact encoder's grid samples): SHELL_MOST_POINTS_PER_KEY per key of
 * the clip, and never fewer than the floor (73 minutes at 60 Hz), so that
 * work and memory follow the keys, not the duration.  Two keys 1e6 s
 * apart would otherwise be measured at 60M points (1 GB, 20 s) for a file
 * of a few hundred bytes.
 */
/* The rate the error is measured at, besides keys. */
#define SHELL_PLAYBACK_HZ 60.0
#define SHELL_MOST_POINTS_PER_KEY 256
#define SHELL_MOST_POINTS_FLOOR (1u << 18)
double animc_shell_most_points(const animc_clip *clip);

/* The value of track `kind` of clip channel `channel` at clip time t (not
 * yet clamped to the channel's duration): identity when absent. */
typedef void (*shell_value_fn)(const void *ctx, uint32_t channel, animc_track_kind kind, float t,
			       float *out);

typedef struct shell {
	const animc_clip *clip;
	const animc_skeleton *skeleton;
	double distance;            /* model units, > 0 */
	double bound;               /* T with the margin taken off */
	uint32_t bone_count;
	int32_t *channel_of_bone;   /* bone -> the first channel animating it, or -1 */
	int32_t *bone_of_channel;   /* channel -> bone, or -1 (not in the skeleton) */
	double *reach;              /* largest distance from a bone to a shell point it moves */
	double *parent_scale;       /* largest stretch of the parent's model transform */
	double *error;              /* per bone, of the last animc_shell_measure */
	uint32_t time_count;
	float *times;               /* where the error is measured, increasing */
	double *work;               /* 2 * bone_count model matrices */
} shell;

/*
 * Prepare the shell of the clip's bones in options->skeleton: the times
 * where the error is measured (60 Hz, every source key and halfway between
 * keys, and every grid sample and halfway when grid_rate_hz > 0), and from
 * the source (`source`) each bone's reach.
 */
animc_status animc_shell_init(shell *s, const animc_clip *clip, const animc_reduce_options *options,
			shell_value_fn source, const void *source_ctx, double grid_rate_hz);

void animc_shell_release(shell *s);

/* Local bounds for the tracks of channel `channel`, a first guess: T
 * divided by the bone's reach (rotation, scale) or its parent's stretch
 * (translation), as if the bone alone moved its shell; animc_shell_measure then
 * finds the chains whose errors add up past T.  A channel of no skeleton
 * bone gets T as a translation bound and options' other bounds. */
void animc_shell_local_tolerance(const shell *s, uint32_t channel, const animc_tolerance *options,
			   animc_tolerance *out);

/* The worst shell error of `reduced` against `source` over every bone and
 * measuring time; s->error gets each bone's. */
double animc_shell_measure(shell *s, shell_value_fn source, const void *source_ctx, shell_value_fn reduced,
		     const void *reduced_ctx);

/* Halve the bounds of every channel on the chain of each bone whose shell
 * error passed the bound, but those held (held[channel] != 0; held may be
 * NULL); dirty[channel] = 1 for each.  Returns how many channels changed
 * (0: every shell is within the bound, or no channel can tighten). */
uint32_t animc_shell_tighten(const shell *s, animc_tolerance *per_channel, const uint8_t *held, uint8_t *dirty);

/* A warning naming the worst bone when `worst` (of animc_shell_measure after
 * `rounds`) passes T. */
void animc_shell_report(const shell *s, const animc_clip *clip, double worst, int rounds, animc_diag_sink *sink);

/* The largest stretch of the linear part of a model matrix difference, for
 * tests: the spectral norm of the upper 3x3 of a - b. */
double animc_shell_stretch(const double a[16], const double b[16]);

#endif
