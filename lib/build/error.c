/*
 * error.c - the one way a cli_error is filled in, and the one printer of
 * the diagnostics the engine and the commands say themselves.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "error.h"

/* The message into err, its middle left out when it is too long (a path
 * of 4 KB): its end is the reason, which must show. */
static void set_message(cli_error *err, const char *fmt, va_list ap, const char *tail)
{
	char *full = NULL;
	size_t n, room = sizeof err->message - 1, head = room / 2 - 3;

	if (vasprintf(&full, fmt, ap) < 0 || !full) {
		snprintf(err->message, sizeof err->message, "out of memory");
		return;
	}
	n = strlen(full);
	size_t tail_len = strlen(tail);
	if (n + tail_len <= room) {
		memcpy(err->message, full, n);
		memcpy(err->message + n, tail, tail_len + 1);
	} else {
		size_t end = room - head - 5 - tail_len;

		memcpy(err->message, full, head);
		memcpy(err->message + head, " ... ", 5);
		memcpy(err->message + head + 5, full + n - end, end);
		memcpy(err->message + head + 5 + end, tail, tail_len + 1);
	}
	free(full);
}

bool cli_error_set(cli_error *err, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		va_start(ap, fmt);
		set_message(err, fmt, ap, "");
		va_end(ap);
	}
	return false;
}

bool cli_error_errno(cli_error *err, int errnum, const char *fmt, ...)
{
	va_list ap;
	char tail[128];

	if (err) {
		snprintf(tail, sizeof tail, ": %s", strerror(errnum));
		va_start(ap, fmt);
		set_message(err, fmt, ap, tail);
		va_end(ap);
	}
	return false;
}

void cli_report(animc_severity severity, const char *subject, const char *fmt, ...)
{
	cli_diag_printer printer = { stderr, true };
	animc_diag diag = { severity, subject, 0, 0, -1, NULL, NULL };
	char *message;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&message, fmt, ap) < 0)
		message = NULL;
	va_end(ap);
	diag.message = message ? message : "out of memory";
	cli_print_diag(&printer, &diag);
	free(message);
}

void cli_report_error(const char *subject, const cli_error *err)
{
	cli_report(ANIMC_ERROR, subject, "%s", err->message);
}
