/*
 * animrt.h - the animc runtime: loads compiled clips (.xnb, and .xnb.zst when
 * built with zstd) after checking every byte against the format
 * (formats/xnb/FORMAT.md).  Depends on the C standard library alone; zstd
 * support is optional (ANIMRT_WITH_ZSTD).
 *
 * Usage:
 *
 *     animrt_clip *clip;
 *     animrt_error err;
 *     if (animrt_open(bytes, size, &clip, &err) != ANIMRT_OK) {
 *         fprintf(stderr, "%s\n", err.message);   // names the byte offset
 *         return;
 *     }
 *     for (uint32_t i = 0; i < clip->sequence_count; i++)
 *         printf("%s: %u keys\n", clip->sequences[i].bone, clip->sequences[i].key_count);
 *     animrt_close(clip);
 *
 * Ownership: animrt_open copies what it needs, so the caller's buffer may be
 * freed as soon as it returns.  A clip is one allocation, read-only after
 * open, released by animrt_close (which accepts NULL).  A loaded clip may be
 * read from several threads at once.
 */
#ifndef ANIMRT_H
#define ANIMRT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ANIMRT_VERSION_MAJOR 0
#define ANIMRT_VERSION_MINOR 1
#define ANIMRT_VERSION_PATCH 0

typedef enum animrt_status {
	ANIMRT_OK = 0,
	ANIMRT_ERR_ARGUMENT,        /* NULL where a pointer is needed */
	ANIMRT_ERR_NOMEM,
	ANIMRT_ERR_IO,              /* the file could not be read */
	ANIMRT_ERR_TRUNCATED,       /* the data ends inside a field */
	ANIMRT_ERR_MAGIC,           /* neither XNB nor a zstd frame */
	ANIMRT_ERR_VERSION,         /* XNB format version other than 5 */
	ANIMRT_ERR_FLAGS,           /* compressed XNB or unknown flag bits */
	ANIMRT_ERR_SIZE,            /* header size field differs from the data */
	ANIMRT_ERR_READER,          /* type reader table or asset index wrong */
	ANIMRT_ERR_READER_VERSION,  /* a reader version this loader does not know */
	ANIMRT_ERR_SHARED,          /* shared resources declared */
	ANIMRT_ERR_COUNT,           /* a count negative, too big, or against the flags */
	ANIMRT_ERR_BOOL,            /* a bool byte other than 0 or 1 */
	ANIMRT_ERR_VALUE,           /* a float not finite, a negative duration */
	ANIMRT_ERR_ORDER,           /* key times decrease */
	ANIMRT_ERR_STRING,          /* a string not UTF-8, or holding NUL */
	ANIMRT_ERR_TRAILING,        /* bytes left after the asset */
	ANIMRT_ERR_COMPRESSION,     /* a damaged zstd frame */
	ANIMRT_ERR_UNSUPPORTED,     /* .xnb.zst without zstd support built in */
	ANIMRT_STATUS_COUNT
} animrt_status;

/* A short lowercase description of a status; never NULL. */
const char *animrt_status_string(animrt_status status);

typedef struct animrt_error {
	animrt_status status;
	/* Offset in the (decompressed) .xnb of the field at fault, or -1. */
	int64_t byte_offset;
	/* "byte 123: rotation count 7 of bone 'L Calf' needs 112 bytes, 40 are left" */
	char message[256];
} animrt_error;

/* One KeyFrameSequence: one bone's keys, as in FORMAT.md section 2. */
typedef struct animrt_sequence {
	const char *bone;            /* UTF-8, NUL-terminated, no NUL inside */
	uint32_t bone_size;          /* bytes, without the terminator */
	uint32_t key_count;          /* >= 1 */
	float duration_s;
	float key_interval_s;        /* seconds between keys when !has_time */
	bool has_translation, has_rotation, has_scale, has_time;
	bool is_fixed_translation, is_fixed_rotation, is_fixed_scale;
	/* Counts follow the flags: key_count, 1 when fixed, 0 when absent;
	 * time_count is key_count with has_time, else 0. */
	uint32_t translation_count, rotation_count, scale_count, time_count;
	const float *translation;    /* translation_count * 3: x y z */
	const float *rotation;       /* rotation_count * 4: x y z w */
	const float *scale;          /* scale_count * 3 */
	const float *times_s;        /* time_count, non-decreasing */
} animrt_sequence;

typedef struct animrt_container {
	char platform;               /* 'w' for Windows, ... */
	uint8_t format_version;      /* 5 */
	uint8_t flags;               /* 0, or 0x01 (HiDef) */
	uint32_t file_size_bytes;    /* of the .xnb, as the header states */
	const char *reader;          /* type reader name of the asset */
	int32_t reader_version;      /* 0 */
	uint32_t shared_resources;   /* 0 */
	bool is_zstd;                /* the file was a .xnb.zst */
} animrt_container;

typedef struct animrt_clip {
	animrt_container container;
	float duration_s;
	uint32_t sequence_count;
	const animrt_sequence *sequences;
} animrt_clip;

/*
 * Check and load a compiled clip from memory: an .xnb, or a .xnb.zst (one
 * zstd frame around an .xnb) when built with zstd.  On failure *out is NULL
 * and `err` (may be NULL) says what and where.
 */
animrt_status animrt_open(const void *data, size_t size, animrt_clip **out, animrt_error *err);

/* The same, reading the file at `path` first. */
animrt_status animrt_open_file(const char *path, animrt_clip **out, animrt_error *err);

void animrt_close(animrt_clip *clip);

/* True when this build reads .xnb.zst. */
bool animrt_has_zstd(void);

#ifdef __cplusplus
}
#endif

#endif /* ANIMRT_H */
