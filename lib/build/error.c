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

bool cli_error_set(cli_error *err, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		va_start(ap, fmt);
		vsnprintf(err->message, sizeof err->message, fmt, ap);
		va_end(ap);
	}
	return false;
}

bool cli_error_errno(cli_error *err, int errnum, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	if (err) {
		va_start(ap, fmt);
		vsnprintf(err->message, sizeof err->message, fmt, ap);
		va_end(ap);
		n = strlen(err->message);
		snprintf(err->message + n, sizeof err->message - n, ": %s", strerror(errnum));
	}
	return false;
}

void cli_report(animc_severity severity, const char *subject, const char *fmt, ...)
{
	cli_diag_printer printer = { stderr, true };
	animc_diag diag = { severity, subject, 0, 0, -1, NULL };
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
