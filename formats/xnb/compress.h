/*
 * compress.h - the compression wrapper: the one place the pipeline uses
 * zstd.  Not installed.
 */
#ifndef ANIMC_FORMATS_COMPRESS_H
#define ANIMC_FORMATS_COMPRESS_H

#include <animc/animc_formats.h>

#define ANIMC_ZSTD_DEFAULT_LEVEL 19

/* One zstd frame (content size and checksum in it) around data[0..size).
 * level 0 means ANIMC_ZSTD_DEFAULT_LEVEL.  *out is malloc()ed. */
animc_status animc_zstd_wrap(const uint8_t *data, size_t size, int level, uint8_t **out,
			     size_t *out_size, animc_diag_sink *sink);

/* The version of the zstd library in use, "1.5.4". */
const char *animc_zstd_version(void);

#endif
