/*
 * error.c - the runtime's status strings and the one way its functions fill
 * in an animrt_error.
 */
#include <stdarg.h>
#include <stdio.h>

#include "error.h"

static const char *const status_strings[ANIMRT_STATUS_COUNT] = {
	[ANIMRT_OK] = "ok",
	[ANIMRT_ERR_ARGUMENT] = "invalid argument: NULL where a pointer is needed (a pose's arrays included)",
	[ANIMRT_ERR_NOMEM] = "out of memory",
	[ANIMRT_ERR_IO] = "cannot read file",
	[ANIMRT_ERR_TRUNCATED] = "truncated file",
	[ANIMRT_ERR_MAGIC] = "not a compiled clip",
	[ANIMRT_ERR_VERSION] = "unsupported XNB version",
	[ANIMRT_ERR_FLAGS] = "unsupported XNB flags",
	[ANIMRT_ERR_SIZE] = "wrong size",
	[ANIMRT_ERR_READER] = "bad type reader table",
	[ANIMRT_ERR_READER_VERSION] = "unknown reader version",
	[ANIMRT_ERR_SHARED] = "unexpected shared resources",
	[ANIMRT_ERR_COUNT] = "bad count",
	[ANIMRT_ERR_BOOL] = "bad bool byte",
	[ANIMRT_ERR_VALUE] = "bad value",
	[ANIMRT_ERR_ORDER] = "key times out of order",
	[ANIMRT_ERR_STRING] = "bad string",
	[ANIMRT_ERR_TRAILING] = "trailing bytes",
	[ANIMRT_ERR_COMPRESSION] = "bad zstd data",
	[ANIMRT_ERR_UNSUPPORTED] = "unsupported by this build",
	[ANIMRT_ERR_CONTENT] = "not an animation",
	[ANIMRT_ERR_POSE_SIZE] = "pose has the wrong bone count: size it by the clip's sequence_count, "
				 "the binding's or the player's bone_count",
	[ANIMRT_ERR_BINDING_SIZE] = "binding made for another bone count than the player: "
				    "create both for one skeleton",
	[ANIMRT_ERR_CONTEXT_SIZE] = "context too small for this clip: size it with animrt_context_size_bytes, "
				    "or with animrt_context_size_bytes_for and animrt_clip_context_tracks",
	[ANIMRT_ERR_PLAY_MODE] = "play mode is neither ANIMRT_PLAY_ONCE nor ANIMRT_PLAY_REPEAT",
	[ANIMRT_ERR_TIME] = "time not finite, or blend time negative: pass a finite time, a blend time of 0 or more",
	[ANIMRT_ERR_BONE] = "sequence index out of range: pass one below the clip's sequence_count",
	[ANIMRT_ERR_NOT_PLAYING] = "nothing plays: call animrt_player_play first",
	[ANIMRT_ERR_NOT_MOTION] = "not a motion clip (one sequence): pass CLIP.motion.xnb, not the clip",
};

const char *animrt_status_string(animrt_status status)
{
	if ((unsigned)status >= ANIMRT_STATUS_COUNT)
		return "unknown status";
	return status_strings[status];
}

animrt_status animrt_rt_error_set(animrt_error *err, animrt_status status, int64_t byte_offset,
			       const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	if (!err)
		return status;
	err->status = status;
	err->byte_offset = byte_offset;
	if (byte_offset >= 0)
		n = snprintf(err->message, sizeof err->message, "byte %lld: ", (long long)byte_offset);
	if (n < 0 || (size_t)n >= sizeof err->message)
		n = 0;
	va_start(ap, fmt);
	vsnprintf(err->message + n, sizeof err->message - (size_t)n, fmt, ap);
	va_end(ap);
	return status;
}

void animrt_rt_error_clear(animrt_error *err)
{
	if (err) {
		err->status = ANIMRT_OK;
		err->byte_offset = -1;
		err->message[0] = '\0';
	}
}
