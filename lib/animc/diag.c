/*
 * diag.c - status strings and the diagnostic sink.  The library reports
 * through the sink and never prints.
 */
#include <stdio.h>

#include <animc/animc.h>

static const char *const status_strings[ANIMC_STATUS_COUNT] = {
	[ANIMC_OK] = "ok",
	[ANIMC_ERR_NOMEM] = "out of memory",
	[ANIMC_ERR_IO] = "input/output error",
	[ANIMC_ERR_PARSE] = "malformed input",
	[ANIMC_ERR_INVALID] = "invalid animation data",
	[ANIMC_ERR_UNSUPPORTED] = "unsupported input",
	[ANIMC_ERR_LIMIT] = "size limit exceeded",
	[ANIMC_ERR_NOT_FOUND] = "not found",
	[ANIMC_ERR_ARGUMENT] = "invalid argument",
};

const char *animc_status_string(animc_status status)
{
	if ((unsigned)status >= ANIMC_STATUS_COUNT)
		return "unknown status";
	return status_strings[status];
}

void animc_diag_vreport(animc_diag_sink *sink, animc_severity severity,
			uint32_t line, uint32_t column, int64_t byte_offset,
			const char *fmt, va_list ap)
{
	char message[1024];
	animc_diag diag;

	if (!sink)
		return;
	if (severity == ANIMC_ERROR)
		sink->error_count++;
	else if (severity == ANIMC_WARNING)
		sink->warning_count++;
	if (!sink->fn)
		return;
	vsnprintf(message, sizeof message, fmt, ap);
	diag.severity = severity;
	diag.path = sink->path;
	diag.line = line;
	diag.column = column;
	diag.byte_offset = byte_offset;
	diag.message = message;
	sink->fn(sink->user, &diag);
}

void animc_diag_report(animc_diag_sink *sink, animc_severity severity,
		       uint32_t line, uint32_t column, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	animc_diag_vreport(sink, severity, line, column, -1, fmt, ap);
	va_end(ap);
}

void animc_diag_report_at(animc_diag_sink *sink, animc_severity severity,
			  int64_t byte_offset, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	animc_diag_vreport(sink, severity, 0, 0, byte_offset, fmt, ap);
	va_end(ap);
}
