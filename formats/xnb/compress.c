/*
 * compress.c - wraps a compiled file in one zstd frame.  Deterministic: the
 * same bytes, level and zstd version give the same frame.
 */
#include <stdlib.h>

#include <zstd.h>

#include "compress.h"

animc_status animc_zstd_wrap(const uint8_t *data, size_t size, int level, uint8_t **out,
			     size_t *out_size, animc_diag_sink *sink)
{
	size_t bound = ZSTD_compressBound(size), n;
	ZSTD_CCtx *cctx;
	uint8_t *buf;

	*out = NULL;
	*out_size = 0;
	if (level == 0)
		level = ANIMC_ZSTD_DEFAULT_LEVEL;
	if (level < 1 || level > ZSTD_maxCLevel()) {
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "zstd level %d is not between 1 and %d", level,
				  ZSTD_maxCLevel());
		return ANIMC_ERR_ARGUMENT;
	}
	buf = malloc(bound);
	cctx = ZSTD_createCCtx();
	if (!buf || !cctx) {
		free(buf);
		ZSTD_freeCCtx(cctx);
		return ANIMC_ERR_NOMEM;
	}
	ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level);
	ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
	ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 1);
	n = ZSTD_compress2(cctx, buf, bound, data, size);
	ZSTD_freeCCtx(cctx);
	if (ZSTD_isError(n)) {
		free(buf);
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "zstd compression failed: %s",
				  ZSTD_getErrorName(n));
		return ANIMC_ERR_IO;
	}
	*out = buf;
	*out_size = n;
	return ANIMC_OK;
}

const char *animc_zstd_version(void)
{
	return ZSTD_versionString();
}
